/**
 * The metric rows of a period sheet and how each is carried from months to quarters and years (MODEL.md section 4):
 * flows are summed, stocks take the last month, beginning cash the first, and rates are recomputed in every column
 * from that column's own figures, never summed or averaged.
 */
import type { Template } from './schema';

/**
 * - `sum`: a flow; `last` / `first`: a stock taking the period's last / first month;
 * - `same`: the month formula, applied to the period column's own cells (ratios of the column's figures);
 * - `special`: built by the compiler (revenue_rate, burn_multiple, required_cash, helpers).
 */
export type PeriodRule = 'sum' | 'last' | 'first' | 'same' | 'special';

export interface RowDef {
  key: string;
  label: string;
  rule: PeriodRule;
  /** For `same` rows: the formula of column `c`, given a function that refers to another row in the same column. */
  same?: (c: (key: string) => string) => string;
  /** Percent-style rate row (shown as a percentage; CSV with 1 decimal). */
  rate?: boolean;
  /** Money row (CSV rounds to the currency's decimals). */
  money?: boolean;
  /** A `same` row read only by quarter and year; its month cells stay blank. */
  periodsOnly?: boolean;
  templates?: Template[];
}

const ratio = (num: string, den: string) => (c: (key: string) => string) => `IFERROR(${c(num)}/${c(den)},"")`;
/**
 * A ratio of figures that may themselves be blank: spreadsheets disagree on "" in arithmetic (HyperFormula reads it
 * as 0, Excel as an error), so a blank part gives a blank result everywhere.
 */
const ratioOfRatios =
  (parts: string[], expression: (c: (key: string) => string) => string) => (c: (key: string) => string) =>
    `IF(OR(${parts.map((p) => `${c(p)}=""`).join(',')}),"",IFERROR(${expression(c)},""))`;
const money = true;
const rate = true;

/** Every row of the estimate and actual sheets, in sheet order. */
export const ROWS: RowDef[] = [
  { key: 't', label: 'Plan month', rule: 'special' },
  { key: 'month_of_year', label: 'Month of the plan year', rule: 'special' },
  { key: 'segment', label: 'Growth segment (years since the first anchor)', rule: 'special' },
  // KPI
  { key: 'mrr', label: 'MRR', rule: 'last', money },
  { key: 'arr', label: 'ARR', rule: 'last', money },
  // Quarter and year only: the period-end ARR over the year's target (KPI progress_rate).
  { key: 'arr_progress', label: 'ARR / year target', rule: 'special', rate },
  { key: 'arpa', label: 'ARPA', rule: 'same', same: ratio('mrr', 'cumulative'), money },
  { key: 'cumulative', label: 'Customers', rule: 'last' },
  // A stock at the start of the month: a quarter or year starts with its first month's (MODEL.md section 4).
  { key: 'cumulative_prev', label: 'Customers at the start of the month', rule: 'first' },
  { key: 'session', label: 'Sessions', rule: 'sum' },
  { key: 'lead', label: 'Leads', rule: 'sum', templates: ['saas'] },
  { key: 'meeting', label: 'Meetings', rule: 'sum', templates: ['saas'] },
  { key: 'registration', label: 'Registrations', rule: 'sum', templates: ['selfserve'] },
  { key: 'order', label: 'New customers', rule: 'sum' },
  { key: 'churn', label: 'Churned customers', rule: 'sum' },
  {
    key: 'lead_cvr',
    label: 'Lead / session',
    rule: 'same',
    same: ratio('lead', 'session'),
    rate,
    templates: ['saas'],
  },
  {
    key: 'meeting_cvr',
    label: 'Meeting / lead',
    rule: 'same',
    same: ratio('meeting', 'lead'),
    rate,
    templates: ['saas'],
  },
  {
    key: 'registration_cvr',
    label: 'Registration / session',
    rule: 'same',
    same: ratio('registration', 'session'),
    rate,
    templates: ['selfserve'],
  },
  {
    key: 'order_cvr',
    label: 'Order / meeting',
    rule: 'same',
    same: ratio('order', 'meeting'),
    rate,
    templates: ['saas'],
  },
  {
    key: 'order_cvr',
    label: 'Paid / registration',
    rule: 'same',
    same: ratio('order', 'registration'),
    rate,
    templates: ['selfserve'],
  },
  { key: 'churn_cvr', label: 'Churn rate', rule: 'same', same: ratio('churn', 'cumulative_prev'), rate },
  // Profit and loss
  { key: 'revenue', label: 'Revenue', rule: 'sum', money },
  { key: 'professional_service', label: 'Professional services', rule: 'sum', money },
  {
    key: 'professional_service_rate',
    label: 'Professional services / revenue',
    rule: 'same',
    same: ratio('professional_service', 'revenue'),
    rate,
    periodsOnly: true,
  },
  { key: 'revenue_rate', label: 'Revenue growth', rule: 'special', rate },
  { key: 'cumulative_revenue', label: 'Cumulative revenue', rule: 'last', money },
  { key: 'cogs', label: 'COGS', rule: 'sum', money },
  { key: 'cogs_rate', label: 'COGS / revenue', rule: 'same', same: ratio('cogs', 'revenue'), rate },
  { key: 'gross_profit', label: 'Gross profit', rule: 'sum', money },
  {
    key: 'gross_profit_rate',
    label: 'Gross margin',
    rule: 'same',
    same: ratio('gross_profit', 'revenue'),
    rate,
  },
  { key: 'sm', label: 'Sales & marketing', rule: 'sum', money },
  { key: 'sm_rate', label: 'S&M / revenue', rule: 'same', same: ratio('sm', 'revenue'), rate },
  { key: 'rd', label: 'Research & development', rule: 'sum', money },
  { key: 'rd_rate', label: 'R&D / revenue', rule: 'same', same: ratio('rd', 'revenue'), rate },
  { key: 'ga', label: 'General & administrative', rule: 'sum', money },
  { key: 'ga_rate', label: 'G&A / revenue', rule: 'same', same: ratio('ga', 'revenue'), rate },
  { key: 'operating_expense', label: 'Operating expense', rule: 'sum', money },
  {
    key: 'operating_expense_rate',
    label: 'Operating expense / revenue',
    rule: 'same',
    same: ratio('operating_expense', 'revenue'),
    rate,
  },
  { key: 'operating_income', label: 'Operating income', rule: 'sum', money },
  {
    key: 'operating_income_rate',
    label: 'Operating margin',
    rule: 'same',
    same: ratio('operating_income', 'revenue'),
    rate,
  },
  { key: 'cumulative_operating_income', label: 'Cumulative operating income', rule: 'last', money },
  { key: 'required_cash', label: 'Required cash (deepest cumulative loss)', rule: 'special', money },
  { key: 'employees', label: 'Employees', rule: 'last' },
  { key: 'arr_per_headcount', label: 'ARR per head', rule: 'same', same: ratio('arr', 'employees'), money },
  {
    key: 'revenue_per_headcount',
    label: 'Revenue per head',
    rule: 'same',
    same: ratio('revenue', 'employees'),
    money,
  },
  {
    key: 'ltv',
    label: 'LTV',
    rule: 'same',
    same: ratioOfRatios(
      ['arpa', 'gross_profit_rate', 'churn_cvr'],
      (c) => `${c('arpa')}*${c('gross_profit_rate')}/${c('churn_cvr')}`,
    ),
    money,
  },
  { key: 'cac', label: 'CAC', rule: 'same', same: ratio('sm', 'order'), money },
  {
    key: 'ltv_cac',
    label: 'LTV / CAC',
    rule: 'same',
    same: ratioOfRatios(['ltv', 'cac'], (c) => `${c('ltv')}/${c('cac')}`),
  },
  { key: 'burn_multiple', label: 'Burn multiple', rule: 'special' },
  // Cash flow
  { key: 'beginning_cash_balance', label: 'Beginning cash balance', rule: 'first', money },
  { key: 'equity_raised', label: 'Equity raised', rule: 'sum', money },
  { key: 'debt_raised', label: 'Debt raised', rule: 'sum', money },
  { key: 'debt_payment', label: 'Debt payment', rule: 'sum', money },
  { key: 'other', label: 'Other cash movements', rule: 'sum', money },
  { key: 'net_cash_movement', label: 'Net cash movement', rule: 'sum', money },
  { key: 'ending_cash_balance', label: 'Ending cash balance', rule: 'last', money },
  { key: 'cash_out_month', label: 'First month with negative cash (0 = none)', rule: 'last' },
];

export function rowsFor(template: Template): RowDef[] {
  return ROWS.filter((r) => !r.templates || r.templates.includes(template));
}

/** Keys of the monthly record the spec's grid shows (working-screens.md section 3), per template. */
export function recordKeys(template: Template): string[] {
  const hidden = new Set([
    't',
    'month_of_year',
    'segment',
    'cumulative_prev',
    'cumulative_operating_income',
    'cash_out_month',
  ]);
  return rowsFor(template)
    .map((r) => r.key)
    .filter((k) => !hidden.has(k));
}

export const RATE_KEYS = new Set(ROWS.filter((r) => r.rate).map((r) => r.key));
export const MONEY_KEYS = new Set(ROWS.filter((r) => r.money).map((r) => r.key));

/** Inputs of an ACT month that are entered rather than computed (MODEL.md section 5). */
export const ENTERED_FLOW_KEYS = [
  'session',
  'lead',
  'meeting',
  'registration',
  'order',
  'churn',
  'professional_service',
  'cogs',
  'sm',
  'rd',
  'ga',
] as const;
export const CASH_ITEM_KEYS = ['equity_raised', 'debt_raised', 'debt_payment', 'other'] as const;
