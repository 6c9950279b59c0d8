import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_COLUMNS, DASHBOARD_SCALARS } from './compile/dashboard';
import { type ExplainedCell, type ExplainView, explainCell } from './explain';
import { formulaTokens, parseRef } from './explainFormula';
import { dashboardKey, EXPLAIN_KEYS, PL_FIELD_ROWS } from './explainKeys';
import type { Explanation } from './explainTypes';
import { DASHBOARD_METRICS, dashboard } from './read/dashboard';
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

/**
 * An explained figure is the figure a read model shows: the same number, or blank where it shows none. Where the
 * screens show it otherwise than the workbook's value (money residue as 0, a rate over a residue base as a dash:
 * read/residue.ts), the explanation says so with `shown` or `dash`.
 */
function expectShown(x: Explanation, shown: number | null, what: string): void {
  const value = x.dash === 'zero_base' ? null : (x.shown ?? x.value);
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
            expectShown(x.explanation, series[column], key);
            checked++;
          }
        }
        const gauge = { mrr_goal: 'goal', mrr_as_is: 'as_is', mrr_progress_percent: 'progress_percent' } as const;
        for (const scalar of DASHBOARD_SCALARS) {
          const x = explainCell(wb, { caseIndex, year, period, key: dashboardKey(scalar) });
          check(wb, x, `${fixture} case ${caseIndex} ${scalar}`);
          if (scalar in gauge) {
            expectShown(x.explanation, shown.mrr_progress[gauge[scalar as keyof typeof gauge]], scalar);
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
