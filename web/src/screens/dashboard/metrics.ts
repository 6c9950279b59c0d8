import { formatNumber, formatPercent } from '../../format/numbers';
/**
 * The dashboard's metrics (working-screens.md section 2) and how each is shown: rates as percentages, ratios with two
 * decimals, the rest as whole numbers.
 */

export const RATE_METRICS = new Set([
  'gross_margin',
  'lead_cvr',
  'meeting_cvr',
  'registration_cvr',
  'order_cvr',
  'churn_cvr',
]);
const RATIO_METRICS = new Set(['ltv_cac', 'burn_multiple']);
/** Metrics in money, whose charts show the plan's currency on their axis. */
export const MONEY_METRICS = new Set([
  'arpa',
  'ltv',
  'cac',
  'arr_per_employees',
  'revenue_per_employees',
  'mrr',
  'arr',
  'revenue',
  'cash_balance',
]);

const LEADING = ['arpa', 'gross_margin', 'customers', 'ltv_cac', 'ltv', 'cac', 'session'];
const TRAILING = [
  'order',
  'order_cvr',
  'churn',
  'churn_cvr',
  'burn_multiple',
  'arr_per_employees',
  'revenue_per_employees',
];

/** The metric cards below the top row, in the spec's order, per template: the funnel steps differ. */
export const METRICS_SAAS = [...LEADING, 'lead', 'lead_cvr', 'meeting', 'meeting_cvr', ...TRAILING];
export const METRICS_SELF = [...LEADING, 'registration', 'registration_cvr', ...TRAILING];

/**
 * A metric's value as the dashboard shows it; a dash where there is none (a zero divisor). Counts are whole: a latest
 * value is an ACT month's entered count, and an average per month is rounded; none is summed into a shown total, so
 * the footing rule of the grids (engine/DECISIONS.md, "Counts that foot") has nothing to add up here.
 */
export function formatMetric(name: string, value: number | null): string {
  const text = RATE_METRICS.has(name) ? formatPercent(value, 1) : formatNumber(value, RATIO_METRICS.has(name) ? 2 : 0);
  return text === '' ? '-' : text;
}

/**
 * The attributes of a figure the engine leaves blank because its base is zero up to residue (engine/DECISIONS.md,
 * "Residue"): the dash's title says why, and `data-dash` marks it. Nothing for any other figure.
 */
export function zeroBaseDash(
  dashes: readonly string[] | undefined,
  path: string,
  title: string,
): { title?: string; 'data-dash'?: 'zero_base' } {
  return dashes?.includes(path) ? { title, 'data-dash': 'zero_base' } : {};
}
