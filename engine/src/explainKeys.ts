/**
 * What a number's explanation may be asked of, without the workbook (light: the contract and the web use it): the keys
 * (a row of the period sheets, a field of the annual P&L, or a per-year assumption) and the periods.
 */
import { ASSUMPTION_ROWS, type AssumptionKey } from './compile/assumptions';
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

export type ExplainTarget = { kind: 'row'; row: string } | { kind: 'assumption'; key: AssumptionKey };

const ROW_KEYS = new Set(ROWS.map((r) => r.key));
const ASSUMPTION_KEYS = new Set<string>(ASSUMPTION_ROWS.map((r) => r.key));

/** Every key explain answers: period-sheet rows, the P&L's own field names and `assumption.<key>`. */
export const EXPLAIN_KEYS: readonly string[] = [
  ...ROW_KEYS,
  ...Object.keys(PL_FIELD_ROWS),
  ...[...ASSUMPTION_KEYS].map((k) => `${ASSUMPTION_PREFIX}${k}`),
];

/** Where a key is read: a period-sheet row or an assumption; undefined for a key explain does not know. */
export function explainTarget(key: string): ExplainTarget | undefined {
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
    return { kind: 'month', year, month, t: 12 * (year - 1) + month };
  }
  return undefined;
}
