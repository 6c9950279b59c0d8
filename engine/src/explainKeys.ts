/**
 * What a number's explanation may be asked of, without the workbook (light: the contract and the web use it): the keys
 * (a row of the period sheets, a field of the annual P&L, or a per-year assumption) and the periods.
 */

import { planMonthAt } from './calendar';
import { ASSUMPTION_ROWS, type AssumptionKey } from './compile/assumptions';
import { DASHBOARD_COLUMNS, DASHBOARD_SCALARS, type DashboardColumn, type DashboardScalar } from './compile/dashboard';
import { ROWS } from './rows';
import { PLAN_YEARS } from './schema';

/** The annual P&L's field names that differ from the row they are read from. */
export const PL_FIELD_ROWS: Record<string, string> = {
  sales: 'revenue',
  operating_cost: 'operating_expense',
  operating_cost_rate: 'operating_expense_rate',
  operating_pl: 'operating_income',
  operating_pl_rate: 'operating_income_rate',
};

/** A per-year assumption's key, as explain takes it: `assumption.churn_rate`. */
export const ASSUMPTION_PREFIX = 'assumption.';

/** A dashboard figure's key, as explain takes it: `dashboard.ave_three_monthes.mrr`, `dashboard.mrr_goal`. */
export const DASHBOARD_PREFIX = 'dashboard.';

/**
 * The views a row is explained in: the plan (`estimate`), the actual view (`actual`: ACT months and the forecast), the
 * comparison of the ACT months (`progress`, `difference_value`, `difference_rate`, as the Variance sheet holds them)
 * and the two sides it compares (`actual_to_date`, `estimate_to_date`: the actual and the plan over the ACT months).
 */
export const EXPLAIN_VIEWS = [
  'estimate',
  'actual',
  'progress',
  'difference_value',
  'difference_rate',
  'actual_to_date',
  'estimate_to_date',
] as const;
export type ExplainView = (typeof EXPLAIN_VIEWS)[number];

export type ExplainTarget =
  | { kind: 'row'; row: string }
  | { kind: 'assumption'; key: AssumptionKey }
  | { kind: 'dashboard'; column: DashboardColumn; row: string }
  | { kind: 'dashboardScalar'; scalar: DashboardScalar };

const ROW_KEYS = new Set(ROWS.map((r) => r.key));
const ASSUMPTION_KEYS = new Set<string>(ASSUMPTION_ROWS.map((r) => r.key));

/** The key of a dashboard figure: a metric row's column (`dashboard.ave_three_monthes.mrr`), or a scalar. */
export function dashboardKey(column: DashboardColumn | DashboardScalar, row?: string): string {
  return row === undefined ? `${DASHBOARD_PREFIX}${column}` : `${DASHBOARD_PREFIX}${column}.${row}`;
}

/**
 * Every key explain answers: period-sheet rows, the P&L's own field names, `assumption.<key>`, and the dashboard's
 * figures (`dashboard.<column>.<row>` for a metric's latest value, averages and fiscal-year achievement,
 * `dashboard.<scalar>` for runway and the MRR progress gauge).
 */
export const EXPLAIN_KEYS: readonly string[] = [
  ...ROW_KEYS,
  ...Object.keys(PL_FIELD_ROWS),
  ...[...ASSUMPTION_KEYS].map((k) => `${ASSUMPTION_PREFIX}${k}`),
  ...DASHBOARD_COLUMNS.flatMap((column) => [...ROW_KEYS].map((row) => dashboardKey(column, row))),
  ...DASHBOARD_SCALARS.map((scalar) => dashboardKey(scalar)),
];

const DASHBOARD_COLUMN_SET = new Set<string>(DASHBOARD_COLUMNS);
const DASHBOARD_SCALAR_SET = new Set<string>(DASHBOARD_SCALARS);

/** Where a key is read: a period-sheet row, an assumption or a dashboard cell; undefined for a key explain does not know. */
export function explainTarget(key: string): ExplainTarget | undefined {
  if (key.startsWith(DASHBOARD_PREFIX)) {
    const [first, row, ...rest] = key.slice(DASHBOARD_PREFIX.length).split('.');
    if (rest.length > 0 || first === undefined) return undefined;
    if (row === undefined) {
      return DASHBOARD_SCALAR_SET.has(first)
        ? { kind: 'dashboardScalar', scalar: first as DashboardScalar }
        : undefined;
    }
    return DASHBOARD_COLUMN_SET.has(first) && ROW_KEYS.has(row)
      ? { kind: 'dashboard', column: first as DashboardColumn, row }
      : undefined;
  }
  if (key.startsWith(ASSUMPTION_PREFIX)) {
    const k = key.slice(ASSUMPTION_PREFIX.length);
    return ASSUMPTION_KEYS.has(k) ? { kind: 'assumption', key: k as AssumptionKey } : undefined;
  }
  const row = PL_FIELD_ROWS[key] ?? key;
  return ROW_KEYS.has(row) ? { kind: 'row', row } : undefined;
}

/** The periods of a plan year: month `1`..`12`, `q1`..`q4`, or `cy`. */
export const EXPLAIN_PERIODS = [
  ...Array.from({ length: 12 }, (_, i) => String(i + 1)),
  'q1',
  'q2',
  'q3',
  'q4',
  'cy',
] as const;
export type ExplainPeriod = (typeof EXPLAIN_PERIODS)[number];

export type PeriodOfYear =
  | { kind: 'month'; year: number; month: number; t: number }
  | { kind: 'quarter'; year: number; quarter: number }
  | { kind: 'year'; year: number };

/** A period of plan year `year` from its text; undefined when the text names none. */
export function parseExplainPeriod(year: number, text: string): PeriodOfYear | undefined {
  if (!Number.isInteger(year) || year < 1 || year > PLAN_YEARS) return undefined;
  if (text === 'cy') return { kind: 'year', year };
  const q = /^q([1-4])$/.exec(text);
  if (q) return { kind: 'quarter', year, quarter: Number(q[1]) };
  if (/^([1-9]|1[0-2])$/.test(text)) {
    const month = Number(text);
    return { kind: 'month', year, month, t: planMonthAt(year, month) };
  }
  return undefined;
}
