import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_COLUMNS, DASHBOARD_SCALARS } from './compile/dashboard';
import {
  ExplainError,
  type ExplainedCell,
  type ExplainView,
  explain,
  explainCell,
  formulaTokens,
  parseRef,
} from './explain';
import { dashboardKey, EXPLAIN_KEYS, PL_FIELD_ROWS } from './explainKeys';
import { DASHBOARD_METRICS, dashboard } from './read/dashboard';
import { monthlyGrid } from './read/monthly';
import { recordKeys } from './rows';
import { buildFixture, FIXTURES, loadFixture } from './testing';
import { PlanWorkbook, type Value } from './workbook';

const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));

/** A value as a formula literal. */
function literal(v: Value): string {
  if (v === null) return '""';
  if (typeof v === 'string') return `"${v.replace(/"/g, '""')}"`;
  const text = String(v);
  const big = /^(-?[\d.]+)e\+(\d+)$/.exec(text);
  return big ? `(${big[1]}*10^${big[2]})` : `(${text})`;
}

/**
 * The cell's formula as HyperFormula holds it with every reference and named input replaced by the values of the
 * explanation's inputs, evaluated again: what the inputs combine to.
 */
function recombine(wb: PlanWorkbook, x: ExplainedCell): Value {
  if (x.expression === undefined) {
    expect(x.explanation.inputs).toEqual([]);
    return x.explanation.value;
  }
  const text = formulaTokens(x.expression)
    .map((t) => {
      if (t.kind === 'ref') {
        const { start, end } = parseRef(t.text, x.cell.sheet);
        const rows: string[] = [];
        for (let r = start.row; r <= end.row; r++) {
          const cells: string[] = [];
          for (let c = start.column; c <= end.column; c++) {
            const input = x.inputAt({ sheet: start.sheet, row: r, column: c });
            if (!input) throw new Error(`${t.text} is read but not among the inputs`);
            cells.push(literal(input.value));
          }
          rows.push(cells.join(','));
        }
        const single = start.row === end.row && start.column === end.column;
        return single ? (rows[0] as string) : `{${rows.join(';')}}`;
      }
      if (t.kind === 'name') {
        const input = x.inputNamed(t.text);
        if (!input) throw new Error(`the name ${t.text} is read but not among the inputs`);
        return literal(input.value);
      }
      return t.text;
    })
    .join('');
  // Nothing of the workbook is left in the formula: it is computed from the inputs' values alone.
  expect(formulaTokens(text).filter((t) => t.kind === 'ref' || t.kind === 'name')).toEqual([]);
  return wb.evaluate(text, x.cell.sheet);
}

function expectSame(actual: Value, expected: Value, what: string): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    const tolerance = 1e-9 * Math.max(1, Math.abs(expected));
    if (Math.abs(actual - expected) > tolerance)
      throw new Error(`${what}: inputs give ${actual}, the cell ${expected}`);
  } else if (actual !== expected)
    throw new Error(`${what}: inputs give ${String(actual)}, the cell ${String(expected)}`);
}

/** Checks one explanation: every precedent is an input, and the inputs' values combine to the value. */
function check(wb: PlanWorkbook, x: ExplainedCell, what: string): void {
  const { cells } = wb.precedents(x.cell.sheet, x.cell.row, x.cell.column);
  const distinct = new Set(cells.flat().map((c) => `${c.sheet}!${c.row}!${c.column}`));
  const named = x.explanation.inputs.filter((i) => i.key.startsWith('plan.') || i.key === 'assumption.case_rate');
  expect(x.explanation.inputs.length - named.length).toBeLessThanOrEqual(distinct.size);
  for (const c of cells.flat()) expect(x.inputAt(c), what).toBeDefined();
  expectSame(recombine(wb, x), x.explanation.value, what);
  expect(x.explanation.formula.startsWith(`${x.explanation.label} = `), what).toBe(true);
}

const PERIODS = [...Array.from({ length: 12 }, (_, i) => String(i + 1)), 'q1', 'q2', 'q3', 'q4', 'cy'];

describe('explain: the inputs combine to the value', () => {
  for (const fixture of fixtures) {
    for (const view of ['estimate', 'actual'] as ExplainView[]) {
      it(`every key of the monthly record and the annual P&L, every period, every case: ${fixture}, ${view}`, () => {
        const wb = buildFixture(fixture);
        const keys = [...recordKeys(wb.plan.template), ...Object.keys(PL_FIELD_ROWS), 'required_cash'];
        let checked = 0;
        wb.plan.cases.forEach((_, caseIndex) => {
          for (let year = 1; year <= 6; year++) {
            for (const key of keys) {
              for (const period of PERIODS) {
                const what = `${fixture} case ${caseIndex} ${view} ${key} Y${year} ${period}`;
                check(wb, explainCell(wb, { caseIndex, year, period, key, view }), what);
                checked++;
              }
            }
          }
        });
        // 6 years x 17 periods x every key of every case.
        expect(checked).toBe(wb.plan.cases.length * 6 * 17 * keys.length);
      }, 240_000);
    }
  }

  it('every input of an explanation is explained in turn, down to the stored assumptions', () => {
    const wb = buildFixture('three-cases');
    const seen = new Set<string>();
    const leaves = new Set<string>();
    const walk = (key: string, year: number, period: string, depth: number) => {
      const id = `${key}/${year}/${period}`;
      if (seen.has(id) || depth > 40) return;
      seen.add(id);
      const x = explainCell(wb, { caseIndex: 1, year, period, key });
      check(wb, x, id);
      for (const input of x.explanation.inputs) {
        if (input.explainable && input.year !== null && input.period !== null) {
          walk(input.key, input.year, input.period, depth + 1);
        } else leaves.add(`${input.key}:${input.source}`);
      }
    };
    walk('revenue', 2, '3', 0);
    // Revenue of month 15 rests on the case's stored inputs and the plan's own.
    expect(leaves.has('plan.target_arr:assumption')).toBe(true);
    expect(leaves.has('assumption.growth_multiple:assumption')).toBe(true);
    expect(seen.has('assumption.arr/2/cy')).toBe(true);
    expect(seen.has('mrr/2/3')).toBe(true);
  });

  it('a dashboard average and a progress open their inputs in the views they name, down to the actuals', () => {
    const wb = buildFixture('actuals-revisions');
    const seen = new Set<string>();
    const leaves = new Set<string>();
    const walk = (key: string, year: number, period: string, view: ExplainView | undefined) => {
      const id = `${key}/${year}/${period}/${view}`;
      if (seen.has(id) || seen.size > 400) return;
      seen.add(id);
      const x = explainCell(wb, { caseIndex: 0, year, period, key, ...(view ? { view } : {}) });
      check(wb, x, id);
      for (const input of x.explanation.inputs) {
        if (input.explainable && input.year !== null && input.period !== null) {
          walk(input.key, input.year, input.period, input.view ?? view);
        } else leaves.add(`${input.key}:${input.source}`);
      }
    };
    walk('dashboard.ave_three_monthes.ltv_cac', 1, '6', undefined);
    walk('mrr', 1, 'q2', 'progress');
    expect(seen.has('mrr/1/6/actual')).toBe(true);
    expect(seen.has('mrr/1/q2/actual_to_date')).toBe(true);
    expect(seen.has('mrr/1/q2/estimate_to_date')).toBe(true);
    expect([...leaves].some((l) => l.endsWith(':actual'))).toBe(true);
  });

  it('the check fails when an input does not hold its value', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const x = explainCell(wb, { caseIndex: 0, year: 1, period: '5', key: 'revenue' });
    const mrr = x.explanation.inputs[0];
    if (mrr && typeof mrr.value === 'number') mrr.value += 1;
    expect(() => check(wb, x, 'tampered')).toThrow(/inputs give/);
  });
});

/**
 * A fixture with actuals in every case: its own, or else orders and churn entered for plan months 1 to 14 (so that the
 * dashboard's averages and fiscal year, and the comparison of the ACT months, cross a year).
 */
function withActuals(fixture: string): PlanWorkbook {
  const plan = loadFixture(fixture) as { cases: { actuals?: Record<string, unknown> }[] };
  for (const c of plan.cases) {
    if (Object.keys(c.actuals ?? {}).length > 0) continue;
    c.actuals = Object.fromEntries(
      Array.from({ length: 14 }, (_, i) => [String(i + 1), { order: 2 + (i % 3), churn: i % 4 === 3 ? 1 : 0 }]),
    );
  }
  return PlanWorkbook.build(plan, { asOf: { year: 2026, month: 11 } });
}

/** An explained value is the figure a read model shows: the same number, or blank where it shows none. */
function expectShown(value: Value, shown: number | null, what: string): void {
  if (shown === null) expect(value, what).toBeNull();
  else expect(value, what).toBeCloseTo(shown, 9);
}

const COMPARED_VIEWS: ExplainView[] = [
  'progress',
  'difference_value',
  'difference_rate',
  'actual_to_date',
  'estimate_to_date',
];

describe('explain: the comparison of the ACT months and the dashboard, whose inputs combine to the value', () => {
  for (const fixture of fixtures) {
    it(`every key of the monthly record in progress, difference and the sides compared, every period: ${fixture}`, () => {
      const wb = withActuals(fixture);
      let withFormula = 0;
      wb.plan.cases.forEach((_, caseIndex) => {
        for (let year = 1; year <= 6; year++) {
          for (const view of COMPARED_VIEWS) {
            for (const key of recordKeys(wb.plan.template)) {
              for (const period of PERIODS) {
                const what = `${fixture} case ${caseIndex} ${view} ${key} Y${year} ${period}`;
                const x = explainCell(wb, { caseIndex, year, period, key, view });
                check(wb, x, what);
                if (x.expression !== undefined) withFormula++;
              }
            }
          }
        }
      });
      expect(withFormula).toBeGreaterThan(0);
    }, 240_000);

    it(`every dashboard figure of every case, as the dashboard shows it: ${fixture}`, () => {
      const wb = withActuals(fixture);
      const template = new Set(recordKeys(wb.plan.template));
      let checked = 0;
      wb.plan.cases.forEach((_, caseIndex) => {
        const shown = dashboard(wb, caseIndex);
        const latest = shown.latest_actual_month ?? 1;
        const year = Math.ceil(latest / 12);
        const period = String(latest - 12 * (year - 1));
        for (const [name, row] of Object.entries(DASHBOARD_METRICS)) {
          const series = shown.metrics[name];
          if (!series) continue;
          for (const column of DASHBOARD_COLUMNS) {
            const key = dashboardKey(column, row);
            const x = explainCell(wb, { caseIndex, year, period, key });
            check(wb, x, `${fixture} case ${caseIndex} ${key}`);
            expectShown(x.explanation.value, series[column], key);
            checked++;
          }
        }
        const gauge = { mrr_goal: 'goal', mrr_as_is: 'as_is', mrr_progress_percent: 'progress_percent' } as const;
        for (const scalar of DASHBOARD_SCALARS) {
          const x = explainCell(wb, { caseIndex, year, period, key: dashboardKey(scalar) });
          check(wb, x, `${fixture} case ${caseIndex} ${scalar}`);
          if (scalar in gauge) {
            expectShown(x.explanation.value, shown.mrr_progress[gauge[scalar as keyof typeof gauge]], scalar);
          }
          checked++;
        }
        // Every row of the dashboard sheet, the metrics the screen does not show too, explains.
        for (const row of template) {
          for (const column of DASHBOARD_COLUMNS) {
            check(wb, explainCell(wb, { caseIndex, year, period, key: dashboardKey(column, row) }), `${row} ${column}`);
          }
        }
      });
      expect(checked).toBeGreaterThan(DASHBOARD_COLUMNS.length * 10);
    }, 120_000);
  }

  it('the keys explain takes name every dashboard figure', () => {
    expect(EXPLAIN_KEYS).toContain('dashboard.ave_three_monthes.mrr');
    expect(EXPLAIN_KEYS).toContain('dashboard.fiscal_year_achieved.ending_cash_balance');
    expect(EXPLAIN_KEYS).toContain('dashboard.mrr_progress_percent');
  });
});

describe('explain: what it says', () => {
  it('revenue of a planned month: MRR plus professional services, with their values', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const x = explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'revenue' });
    // Target ARR 5,000,000 reached at month 12 from a straight ramp: MRR_3 = 5,000,000 / 12 x 3 / 12 = 104,166.67;
    // recurring revenue is 100% of revenue, so professional services are 0.
    expect(x.label).toBe('Revenue');
    expect(x.formula).toBe('Revenue = MRR + Professional services');
    expect(x.value).toBeCloseTo(104_166.666667, 5);
    expect(x.inputs.map((i) => [i.key, i.year, i.period, i.source, i.explainable])).toEqual([
      ['mrr', 1, '3', 'formula', true],
      ['professional_service', 1, '3', 'formula', true],
    ]);
    expect(x.inputs[0]?.value).toBeCloseTo(104_166.666667, 5);
    expect(x.inputs[1]?.value).toBe(0);
    const ja = explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'revenue', language: 'ja' });
    expect(ja.formula).toBe('売上高 = MRR + プロフェッショナルサービス');
  });

  it('a quarter sums its months; the P&L field names read their rows', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const q = explain(wb, { caseIndex: 0, year: 1, period: 'q1', key: 'revenue' });
    expect(q.inputs.map((i) => i.period)).toEqual(['1', '2', '3']);
    // 5,000,000 / 12 / 12 x (1 + 2 + 3) = 208,333.33
    expect(q.value).toBeCloseTo(208_333.333333, 5);
    const pl = explain(wb, { caseIndex: 0, year: 2, period: 'cy', key: 'operating_pl' });
    expect(pl.label).toBe('Operating income');
    expect(pl.inputs.map((i) => [i.key, i.period])).toEqual([
      ['operating_income', 'q1'],
      ['operating_income', 'q2'],
      ['operating_income', 'q3'],
      ['operating_income', 'q4'],
    ]);
  });

  it('a count names the whole number the grid shows, its months footing to their quarter', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const order = (period: string, view: ExplainView = 'estimate') =>
      explain(wb, { caseIndex: 0, year: 1, period, key: 'order', view });
    const [m1, m2, m3, q1] = ['1', '2', '3', 'q1'].map((period) => order(period));
    // New customers of the first months: 2.3148, 2.3843 and 2.4537. The grid shows the steps of the rounded running
    // total: round(2.3148) = 2, round(4.6991) - 2 = 3, round(7.1528) - 5 = 2, and the quarter their sum, 7.
    expect([m1?.value, m2?.value, m3?.value, q1?.value]).toEqual([
      expect.closeTo(2.314815, 5),
      expect.closeTo(2.384259, 5),
      expect.closeTo(2.453704, 5),
      expect.closeTo(7.152778, 5),
    ]);
    expect([m1?.shown, m2?.shown, m3?.shown, q1?.shown]).toEqual([2, 3, 2, 7]);
    const grid = monthlyGrid(wb, 0, 1, 'estimate');
    expect(grid.slice(0, 4).map((c) => c.values.order)).toEqual([2, 3, 2, 7]);
    // The actual view foots the same way; a money figure is shown as computed, and so names no shown figure.
    expect(order('2', 'actual').shown).toBe(3);
    expect(explain(wb, { caseIndex: 0, year: 1, period: '2', key: 'mrr' })).not.toHaveProperty('shown');
  });

  it('names stored assumptions, defaults, actuals and cash inputs as such', () => {
    const wb = buildFixture('actuals-revisions');
    const mrr = explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'mrr', view: 'actual' });
    expect(mrr.formula).toBe('MRR = Customers × ARPA');
    expect(mrr.inputs.find((i) => i.key === 'arpa')?.source).toBe('actual');
    const arr = explain(wb, { caseIndex: 0, year: 1, period: 'cy', key: 'assumption.arr' });
    expect(arr.inputs.map((i) => [i.key, i.source])).toEqual([
      ['plan.target_arr', 'assumption'],
      ['assumption.case_rate', 'assumption'],
    ]);
    const churn = explain(wb, { caseIndex: 0, year: 1, period: 'cy', key: 'assumption.churn_rate' });
    expect(churn.inputs[0]).toMatchObject({ key: 'assumption.arpa', source: 'default', explainable: true });
    // The base case of three-cases raises 100,000,000 of equity in month 7; the month's other cash items are their
    // default, 0.
    const net = explain(buildFixture('three-cases'), { caseIndex: 0, year: 1, period: '7', key: 'net_cash_movement' });
    expect(net.inputs.find((i) => i.key === 'equity_raised')).toMatchObject({
      source: 'cash input',
      value: 100_000_000,
      explainable: false,
    });
    expect(net.inputs.find((i) => i.key === 'debt_raised')).toMatchObject({ source: 'default', value: 0 });
  });

  it("a dashboard average: the months it averages, each in the actual view; a rate from the window's averages", () => {
    const wb = buildFixture('actuals-revisions');
    const latest = dashboard(wb, 0).latest_actual_month ?? 0;
    expect(latest).toBe(6);
    const x = explain(wb, { caseIndex: 0, year: 1, period: '6', key: 'dashboard.ave_three_monthes.mrr' });
    expect(x.label).toBe('MRR: 3-month average');
    expect(x.inputs.map((i) => [i.key, i.year, i.period, i.view, i.source])).toEqual([
      ['mrr', 1, '6', 'actual', 'formula'],
      ['mrr', 1, '5', 'actual', 'formula'],
      ['mrr', 1, '4', 'actual', 'formula'],
    ]);
    const months = x.inputs.map((i) => i.value as number);
    expect(x.value).toBeCloseTo(months.reduce((sum, v) => sum + v, 0) / 3, 6);
    // actuals-revisions starts in January 2026.
    expect(x.formula).toBe(
      'MRR: 3-month average = sum(MRR (actual, Jun 2026), MRR (actual, May 2026), MRR (actual, Apr 2026)) ÷ 3',
    );
    const cvr = explain(wb, { caseIndex: 0, year: 1, period: '6', key: 'dashboard.ave_six_monthes.order_cvr' });
    expect(cvr.inputs.every((i) => i.key.startsWith('dashboard.ave_six_monthes.'))).toBe(true);
    const fy = explain(wb, { caseIndex: 0, year: 1, period: '6', key: 'dashboard.fiscal_year_achieved.revenue' });
    expect(fy.inputs.map((i) => [i.key, i.period, i.view])).toEqual([
      ['revenue', 'cy', 'actual_to_date'],
      ['revenue', 'cy', 'estimate'],
    ]);
    const ja = explain(wb, {
      caseIndex: 0,
      year: 1,
      period: '6',
      key: 'dashboard.mrr_progress_percent',
      language: 'ja',
    });
    expect(ja.label).toBe('MRR進捗（%）');
    expect(ja.inputs.map((i) => i.key)).toEqual(['dashboard.mrr_as_is', 'dashboard.mrr_goal']);
  });

  it('progress and difference compare the actual and the plan over the ACT months', () => {
    const wb = buildFixture('actuals-revisions');
    const x = explain(wb, { caseIndex: 0, year: 1, period: 'q1', key: 'revenue', view: 'difference_value' });
    expect(x.label).toBe('Difference of Revenue (actual − plan, ACT months)');
    expect(x.inputs.map((i) => [i.key, i.period, i.view])).toEqual([
      ['revenue', 'q1', 'actual_to_date'],
      ['revenue', 'q1', 'estimate_to_date'],
    ]);
    const [a, e] = x.inputs.map((i) => i.value as number);
    expect(x.value).toBeCloseTo((a ?? 0) - (e ?? 0), 6);
    expect(monthlyGrid(wb, 0, 1, 'difference_value')[3]?.values.revenue).toBeCloseTo(x.value as number, 6);
    const p = explain(wb, { caseIndex: 0, year: 1, period: '2', key: 'mrr', view: 'progress', language: 'ja' });
    expect(p.formula).toBe(
      'MRRの進捗率（実績÷計画、実績月） = MRR (実績月の実績) ÷ MRR (実績月の計画)（計算できないときは空欄）',
    );
    // The side compared reads the actual view's month.
    const side = explain(wb, { caseIndex: 0, year: 1, period: '2', key: 'mrr', view: 'actual_to_date' });
    expect(side.inputs.map((i) => [i.key, i.period, i.view])).toEqual([['mrr', '2', 'actual']]);
    // A case without ACT months has nothing to compare.
    expect(() =>
      explain(buildFixture('saas-jpy-t2d3'), { caseIndex: 0, year: 1, period: '2', key: 'mrr', view: 'progress' }),
    ).toThrow(ExplainError);
  });

  it('refuses what it cannot explain', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    expect(() => explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'nonsense' })).toThrow(ExplainError);
    expect(() => explain(wb, { caseIndex: 0, year: 1, period: '13', key: 'revenue' })).toThrow(ExplainError);
    expect(() => explain(wb, { caseIndex: 0, year: 7, period: 'cy', key: 'revenue' })).toThrow(ExplainError);
    expect(() => explain(wb, { caseIndex: 5, year: 1, period: 'cy', key: 'revenue' })).toThrow(ExplainError);
    // A selfserve row in a saas plan.
    expect(() => explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'registration' })).toThrow(ExplainError);
    expect(() =>
      explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'dashboard.ave_three_monthes.registration' }),
    ).toThrow(ExplainError);
    expect(() => explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'dashboard.mrr' })).toThrow(ExplainError);
  });
});
