import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { explain } from '../explain';
import { type Period, periodColumn, periodsOfYear } from '../layout';
import { buildFixture, FIXTURES, loadFixture } from '../testing';
import { PlanWorkbook } from '../workbook';
import { CaseReader, type ViewName } from './cells';
import { columnName } from './monthly';
import { figureKind, isResidue, rateBase, shownMoney } from './residue';

const AS_OF = { year: 2026, month: 11 };
const FIXTURE_NAMES = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));

/** 10,000 %: no shown rate goes above it unless its base is at least one unit of its kind. */
const HIGHEST_RATE = 100;

interface Violation {
  view: ViewName;
  column: string;
  key: string;
  shown: number;
  base: number | null;
}

/**
 * Every shown rate of every year and view above 10,000 % whose base is below one unit (one of the currency, one
 * count; for a rate compared, one percent): rate rows over their base row, progress and difference rate over the
 * estimate compared with.
 */
function highRatesOverSmallBases(wb: PlanWorkbook): Violation[] {
  const out: Violation[] = [];
  for (let c = 0; c < wb.plan.cases.length; c++) {
    const r = new CaseReader(wb, c);
    const s = r.layout.sheets;
    for (let year = 1; year <= 6; year++) {
      const periods = new Map<string, Period>(periodsOfYear(year).map((p) => [columnName(p), p]));
      for (const view of ['estimate', 'actual', 'progress', 'difference_rate'] as const) {
        for (const column of wb.monthlyGrid(c, year, view)) {
          const p = periods.get(column.column);
          if (!p) continue;
          for (const [key, shown] of Object.entries(column.values)) {
            const ratio = view === 'progress' || view === 'difference_rate';
            if (shown === null || (!ratio && figureKind(key) !== 'rate')) continue;
            if (Math.abs(shown) <= HIGHEST_RATE) continue;
            const baseKey = ratio ? key : rateBase(wb.plan.template, key);
            if (baseKey === undefined || baseKey === 'previous revenue') continue;
            const sheet = ratio ? s.estimateToDate : view === 'estimate' ? s.estimate : r.viewSheet;
            const base = sheet ? r.cell(sheet, baseKey, column.t === null ? periodColumn(p) : periodColumn(p)) : null;
            const unit = figureKind(baseKey) === 'rate' ? 0.01 : 1;
            if (base === null || Math.abs(base) < unit) out.push({ view, column: column.column, key, shown, base });
          }
        }
      }
    }
  }
  return out;
}

describe('the residue rule', () => {
  it('shows money within half a cent of zero as 0, never -0', () => {
    expect(shownMoney(-1e-10)).toBe(0);
    expect(Object.is(shownMoney(-0.004), 0)).toBe(true);
    expect(shownMoney(0.005)).toBe(0.005);
    expect(shownMoney(-0.01)).toBe(-0.01);
    expect(shownMoney(null)).toBeNull();
  });

  it('measures residue by the kind of the base: money, count, rate, multiple', () => {
    expect(isResidue(0.0049, 'money')).toBe(true);
    expect(isResidue(0.005, 'money')).toBe(false);
    // A count below one half shows as 0 customers.
    expect(isResidue(0.49, 'count')).toBe(true);
    expect(isResidue(0.5, 'count')).toBe(false);
    // A rate below 0.05% shows as 0.0%.
    expect(isResidue(0.00049, 'rate')).toBe(true);
    expect(isResidue(0.0005, 'rate')).toBe(false);
    expect(isResidue(null, 'money')).toBe(false);
    expect(figureKind('ending_cash_balance')).toBe('money');
    expect(figureKind('order')).toBe('count');
    expect(figureKind('cogs_rate')).toBe('rate');
    expect(figureKind('ltv_cac')).toBe('multiple');
  });

  it('reads the base of each rate row from its formula', () => {
    expect(rateBase('saas', 'cogs_rate')).toBe('revenue');
    expect(rateBase('saas', 'order_cvr')).toBe('meeting');
    expect(rateBase('selfserve', 'order_cvr')).toBe('registration');
    expect(rateBase('saas', 'churn_cvr')).toBe('cumulative_prev');
    expect(rateBase('saas', 'mrr')).toBeUndefined();
  });

  it('dashes cash progress over a plan whose cash is residue, and names it', () => {
    // The default cost rates add up to 100% (30 + 38 + 21 + 11), so with no cash the plan's operating income and
    // ending cash from the fourth month of year 2 (t = 16) on are zero up to floating-point residue (5e-10 yen); an
    // actual month there with its
    // costs entered makes the actual cash real, and the workbook's progress is that cash over the residue.
    const plan = structuredClone(loadFixture('actuals-revisions')) as {
      cases: { actuals: Record<string, Record<string, number>>; revisions: unknown[] }[];
    };
    const c = plan.cases[0];
    if (!c) throw new Error('no case');
    for (const month of Object.values(c.actuals)) delete month.beginning_cash_balance;
    c.actuals['16'] = { cogs: 1_000_000 };
    c.revisions = [];
    const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
    const r = new CaseReader(wb, 0);
    const m16 = periodsOfYear(2).find((p) => p.kind === 'month' && p.t === 16) as Period;
    const base = r.cell(r.layout.sheets.estimateToDate ?? '', 'ending_cash_balance', periodColumn(m16));
    const at16 = (view: ViewName) => wb.monthlyGrid(0, 2, view).find((column) => column.t === 16);
    const actual = at16('actual')?.values.ending_cash_balance ?? 0;
    // The workbook's estimate is residue, not zero, so its own ratio is absurd (above 1e13 %).
    expect(base).not.toBe(0);
    expect(isResidue(base, 'money')).toBe(true);
    expect(Math.abs(actual / (base ?? 1))).toBeGreaterThan(1e13);
    const month16 = at16('progress');
    expect(month16?.values.ending_cash_balance).toBeNull();
    expect(month16?.dashes).toContain('ending_cash_balance');
    expect(month16?.dashes).toContain('operating_income');
    const [year2] = wb.monthlyPl(0, 2);
    expect(year2?.dashes).toContain('progress.monthly.3.ending_cash_balance');
    expect(year2?.dashes).toContain('difference.rate.monthly.3.ending_cash_balance');
    // The plan's own cash and operating income show as 0, not as residue, in the grid and the chart.
    const estimate16 = at16('estimate');
    expect(estimate16?.values.ending_cash_balance).toBe(0);
    expect(estimate16?.values.operating_income).toBe(0);
    expect(year2?.graph.ending_cash_balance.estimate.every((v) => v === 0)).toBe(true);
    // Explain says the same: the progress is a dash, the plan's cash shows as 0 beside the workbook's residue.
    const request = { caseIndex: 0, year: 2, period: '4', key: 'ending_cash_balance', language: 'en' } as const;
    const progress = explain(wb, { ...request, view: 'progress' });
    expect(progress.dash).toBe('zero_base');
    const plan16 = explain(wb, { ...request, view: 'estimate' });
    expect(plan16.value).toBe(base);
    expect(plan16.shown).toBe(0);
    expect(plan16.dash).toBeUndefined();
  });

  it('dashes a rate over a base of exactly 0 with its reason, on the dashboard and in explain', () => {
    // The plan's first month, entered: no customer starts it, so its churn rate (churned / customers at the start)
    // has no base. The workbook leaves it blank; the screens show a dash and say why.
    const plan = structuredClone(loadFixture('saas-jpy-t2d3')) as { cases: { actuals?: unknown }[] };
    const c = plan.cases[0];
    if (!c) throw new Error('no case');
    c.actuals = { '1': { order: 12, churn: 0, arpa: 50_000 } };
    const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
    expect(wb.monthlyGrid(0, 1, 'actual')[0]?.dashes).toContain('churn_cvr');
    expect(wb.dashboard(0).dashes).toContain('metrics.churn_cvr.latest_value');
    const request = { caseIndex: 0, year: 1, period: '1', language: 'en' } as const;
    const month1 = explain(wb, { ...request, key: 'churn_cvr', view: 'actual' });
    expect(month1.value === null || month1.value === '').toBe(true);
    expect(month1.dash).toBe('zero_base');
    expect(explain(wb, { ...request, key: 'dashboard.latest_value.churn_cvr' }).dash).toBe('zero_base');
    // Month 2 starts with 12 customers: a rate, no dash.
    expect(explain(wb, { ...request, period: '2', key: 'churn_cvr', view: 'actual' }).dash).toBeUndefined();
  });

  it('shows no rate above 10,000% over a base under one unit, in any fixture', () => {
    for (const name of FIXTURE_NAMES) expect(highRatesOverSmallBases(buildFixture(name)), name).toEqual([]);
  });

  it('shows no rate above 10,000% over a base under one unit, in random plans with actuals', () => {
    const base = loadFixture('actuals-revisions') as { cases: Record<string, unknown>[] };
    const money = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000_000 }));
    const month = fc.record(
      {
        session: fc.integer({ min: 0, max: 5000 }),
        lead: fc.integer({ min: 0, max: 300 }),
        meeting: fc.integer({ min: 0, max: 60 }),
        order: fc.integer({ min: 0, max: 10 }),
        churn: fc.integer({ min: 0, max: 2 }),
        cogs: money,
        sm: money,
        rd: money,
        ga: money,
        professional_service: money,
        equity_raised: money,
      },
      { requiredKeys: [] },
    );
    const plan = fc.record({
      // The first actual month: the plan's operating income and cash are residue in some months of year 2 on.
      first: fc.integer({ min: 1, max: 30 }),
      months: fc.array(month, { minLength: 1, maxLength: 10 }),
      cash: fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 50_000_000 })),
      // Cost rates that add up to exactly 100% (the defaults) or not.
      rates: fc.oneof(
        fc.constant({}),
        fc.record({
          cogs_rate: fc.constantFrom(0.2, 0.25),
          sm_rate: fc.constantFrom(0.5, 0.45),
          rd_rate: fc.constant(0.2),
          ga_rate: fc.constant(0.1),
        }),
      ),
    });
    fc.assert(
      fc.property(plan, ({ first, months, cash, rates }) => {
        const file = structuredClone(base);
        const actuals: Record<string, unknown> = {};
        months.forEach((m, i) => {
          actuals[String(first + i)] = i === 0 && cash !== undefined ? { ...m, beginning_cash_balance: cash } : m;
        });
        file.cases = [{ ...file.cases[0], actuals, revisions: [], years: { '1': rates, '2': rates, '3': rates } }];
        const wb = PlanWorkbook.build(file, { asOf: AS_OF });
        expect(highRatesOverSmallBases(wb)).toEqual([]);
      }),
      { numRuns: 12, seed: 38 },
    );
  });
});
