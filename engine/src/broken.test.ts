/**
 * A plan that holds a bad value anyway still opens: a stored value outside the bounds is left out and flagged, a
 * figure that overflows reads as blank and flagged, and a formula error no input can cause still throws.
 */
import { CellError, DetailedCellError, ErrorType, HyperFormula } from 'hyperformula';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { kpiCsv, plCsv, revenueCsv } from './csv';
import { sheetsGrid } from './export/sheets';
import { exportXlsx } from './export/xlsx';
import { VIEWS } from './read/cells';
import { costYearSchema } from './read/costs';
import { dashboardSchema } from './read/dashboard';
import { kpiYearSchema } from './read/kpi';
import { gridColumnSchema, monthlyPlYearSchema } from './read/monthly';
import { plYearRowSchema } from './read/pl';
import { revenueYearSchema } from './read/revenue';
import { PLAN_YEARS, PlanFileError, type PlanFileInput, salvagePlanFile } from './schema';
import { loadFixture } from './testing';
import { FormulaError, PlanWorkbook } from './workbook';

const asOf = { year: 2026, month: 11 };
const fixture = () => structuredClone(loadFixture('actuals-revisions')) as PlanFileInput;

type Case = PlanFileInput['cases'][number];
const firstCase = (plan: PlanFileInput): Case => {
  const c = plan.cases[0];
  if (!c) throw new Error('the fixture has no case');
  return c;
};

/** Parses strictly and reports every issue with its path. */
function expectShape(schema: z.ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  expect(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
}

/** Every read model of every case: each parses with its schema, and holds finite numbers or blanks only. */
function readEverything(wb: PlanWorkbook): void {
  for (let c = 0; c < wb.plan.cases.length; c++) {
    const models: [z.ZodType, unknown][] = [
      [z.array(plYearRowSchema), wb.annualPl(c)],
      [z.array(kpiYearSchema), wb.kpi(c)],
      [z.array(revenueYearSchema), wb.revenue(c)],
      [z.array(costYearSchema), wb.costs(c)],
      [dashboardSchema, wb.dashboard(c)],
      [z.array(monthlyPlYearSchema), wb.monthlyPl(c)],
    ];
    for (let year = 1; year <= PLAN_YEARS; year++) {
      for (const view of VIEWS) models.push([z.array(gridColumnSchema), wb.monthlyGrid(c, year, view)]);
    }
    for (const [schema, model] of models) {
      expectShape(schema, model);
      expect(JSON.stringify(model)).not.toMatch(/NaN|Infinity/);
    }
  }
}

describe('a stored value outside the bounds', () => {
  const stored = () => {
    const plan = fixture();
    const c = firstCase(plan);
    c.years = { ...c.years, '1': { arr: 1e307 }, '2': { churn_rate: 0.05 } };
    c.cash = { ...c.cash, '7': { equity_raised: 1e308, other: 1000 } };
    c.daily = { '2026-02-10': { order: 1e307, meeting: 3 } };
    c.case_rate = 1000;
    const items = c.cost_items ?? [];
    c.cost_items = [{ ...items[0], price: 1e20 } as (typeof items)[number], ...items];
    return plan;
  };
  /** The same plan without the refused values: what the stored one must compute. */
  const clean = () => {
    const plan = stored();
    const c = firstCase(plan);
    const { '1': _year, ...years } = c.years ?? {};
    c.years = years;
    c.cash = { ...c.cash, '7': { other: 1000 } };
    c.daily = { '2026-02-10': { meeting: 3 } };
    c.case_rate = undefined;
    c.cost_items = c.cost_items?.slice(1);
    return plan;
  };

  it('is left out, so that its default applies, and named by its stored path', () => {
    const wb = PlanWorkbook.build(stored(), { asOf });
    const fresh = PlanWorkbook.build(clean(), { asOf });
    expect(wb.refused.map((i) => i.path).sort()).toEqual([
      'cases.0.case_rate',
      'cases.0.cash.7.equity_raised',
      'cases.0.cost_items.0.price',
      'cases.0.daily.2026-02-10.order',
      'cases.0.years.1.arr',
    ]);
    expect(wb.plan).toEqual(fresh.plan);
    for (const name of fresh.sheetNames()) expect(wb.sheetValues(name), name).toEqual(fresh.sheetValues(name));
    wb.destroy();
    fresh.destroy();
  });

  it("is flagged on the answers of its year, and the case's own inputs on every year", () => {
    const wb = PlanWorkbook.build(stored(), { asOf });
    const [y1, y2] = wb.annualPl(0);
    expect(y1?.broken).toEqual({
      figures: [],
      inputs: [
        'cases.0.case_rate',
        'cases.0.years.1.arr',
        'cases.0.cash.7.equity_raised',
        'cases.0.daily.2026-02-10.order',
        'cases.0.cost_items.0.price',
      ],
    });
    expect(y2?.broken).toEqual({ figures: [], inputs: ['cases.0.case_rate', 'cases.0.cost_items.0.price'] });
    expect(wb.dashboard(0).broken?.inputs).toHaveLength(5);
    expect(wb.monthlyGrid(0, 1, 'actual')[0]?.broken?.inputs).toHaveLength(5);
    // The other case holds none of them.
    expect(wb.annualPl(1)[0]?.broken).toBeUndefined();
    readEverything(wb);
    wb.destroy();
  });

  it('is no longer flagged once an edit sets it again', () => {
    const wb = PlanWorkbook.build(stored(), { asOf });
    wb.apply([
      { type: 'year', caseIndex: 0, year: 1, key: 'arr', value: 40_000_000 },
      { type: 'cash', caseIndex: 0, month: 7, values: { equity_raised: null } },
      { type: 'caseRate', caseIndex: 0, value: 1 },
    ]);
    expect(wb.refused.map((i) => i.path)).toEqual(['cases.0.daily.2026-02-10.order', 'cases.0.cost_items.0.price']);
    wb.apply({ type: 'deleteCase', caseIndex: 0 });
    expect(wb.refused).toEqual([]);
    wb.destroy();
  });

  it('leaves out whole the items that hold one, naming each by its stored position', () => {
    const plan = fixture();
    const c = firstCase(plan);
    const items = c.cost_items ?? [];
    const base = items[0];
    if (!base) throw new Error('the fixture has no cost item');
    c.cost_items = [
      { ...base, price: -1 },
      { ...base, cost_id: 'kept' },
      { ...base, price: Number.NaN },
    ];
    c.revisions = { '1': { pattern: 'upward', month: 12 } };
    const { plan: read, refused } = salvagePlanFile(plan);
    expect(refused.map((i) => i.path)).toEqual([
      'cases.0.cost_items.0.price',
      'cases.0.cost_items.2.price',
      'cases.0.revisions.1.month',
    ]);
    expect(read.cases[0]?.cost_items.map((i) => i.cost_id)).toEqual(['kept']);
    expect(read.cases[0]?.revisions).toEqual({});
  });

  it('still refuses a plan it cannot read at all', () => {
    expect(() => PlanWorkbook.build({ ...fixture(), template: 'enterprise' })).toThrow(PlanFileError);
    expect(() => PlanWorkbook.build({ ...fixture(), cases: [] })).toThrow(PlanFileError);
    expect(() => PlanWorkbook.build({ ...fixture(), arr: -5 })).toThrow(PlanFileError);
  });

  it('is refused by an edit: the workbook keeps to the bounds', () => {
    const wb = PlanWorkbook.build(fixture(), { asOf });
    expect(() => wb.apply({ type: 'year', caseIndex: 0, year: 1, key: 'arr', value: 1e307 })).toThrow(PlanFileError);
    expect(() => wb.apply({ type: 'daily', caseIndex: 0, date: '2026-02-10', metric: 'order', value: 1.5 })).toThrow(
      PlanFileError,
    );
    wb.destroy();
  });
});

describe('a figure that overflows', () => {
  /** A target ARR far outside the bounds: kept, having no default, so years 2 to 6 overflow. */
  const overflowing = () => ({ ...fixture(), arr: 1e307 });

  it('reads as blank and is flagged by its path, and the plan still opens', () => {
    const wb = PlanWorkbook.build(overflowing(), { asOf });
    expect(wb.refused.map((i) => i.path)).toEqual(['arr']);
    expect(wb.brokenCells().length).toBeGreaterThan(0);
    const pl = wb.annualPl(0);
    expect(pl[0]?.arr).toBeCloseTo(1e307, -300);
    expect(pl[0]?.broken).toEqual({ figures: [], inputs: ['arr'] });
    expect(pl[5]?.arr).toBeNull();
    expect(pl[5]?.broken?.figures).toContain('arr');
    expect(pl[5]?.broken?.inputs).toEqual(['arr']);
    const kpi = wb.kpi(0)[5];
    expect(kpi?.arr).toBeNull();
    expect(kpi?.broken?.figures).toEqual(expect.arrayContaining(['arr', 'assumptions.arr', 'yearly.mrr']));
    const column = wb.monthlyGrid(0, 6, 'estimate')[0];
    expect(column?.values.mrr).toBeNull();
    expect(column?.broken?.figures).toContain('values.mrr');
    const monthly = wb.monthlyPl(0, 6)[0];
    expect(monthly?.broken?.figures).toContain('estimate.monthly.0.mrr');
    expect(monthly?.broken?.figures).toContain('graph.mrr.estimate.0');
    expect(wb.dashboard(0).broken?.figures).toContain('metrics.mrr.estimate.71');
    readEverything(wb);
    wb.destroy();
  });

  it('is blank in the cell reads, the CSVs and the spreadsheet exports', async () => {
    const wb = PlanWorkbook.build(overflowing(), { asOf });
    const [cell] = wb.brokenCells();
    if (!cell) throw new Error('nothing overflowed');
    expect(wb.value(cell.sheet, cell.row, cell.column)).toBeNull();
    expect(wb.figure(cell.sheet, cell.row, cell.column)).toBeNaN();
    for (const csv of [plCsv(wb, 0), revenueCsv(wb, 0), kpiCsv(wb, 0, 6)]) expect(csv).not.toMatch(/NaN|Infinity/);
    // ARR grows threefold a year from 1e307: years 1 to 3 are numbers, the later years blank.
    expect(
      plCsv(wb, 0)
        .split('\r\n')[1]
        ?.split(',')
        .map((cell) => cell !== ''),
    ).toEqual([...[true, true, true, true, true], ...[false, false, false]]);
    expect(() => sheetsGrid(wb)).not.toThrow();
    await expect(exportXlsx(wb)).resolves.toBeInstanceOf(Uint8Array);
    wb.destroy();
  });
});

describe('a formula error no input can cause', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([ErrorType.REF, ErrorType.NAME])('still throws (%s)', (type) => {
    const wb = PlanWorkbook.build(fixture(), { asOf });
    const sheet = wb.caseLayout(0).sheets.estimate;
    vi.spyOn(HyperFormula.prototype, 'getCellValue').mockReturnValue(
      new DetailedCellError(new CellError(type, 'the compiler got it wrong'), `#${type}!`),
    );
    expect(() => wb.value(sheet, 5, 5)).toThrow(FormulaError);
    expect(() => wb.figure(sheet, 5, 5)).toThrow(FormulaError);
    expect(() => wb.annualPl(0)).toThrow(FormulaError);
    wb.destroy();
  });
});
