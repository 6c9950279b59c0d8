/**
 * The dashboard's metrics (working-screens.md section 2) and how each is shown: rates as percentages, ratios with two
 * decimals, the rest as whole numbers.
 */
import { formatNumber, formatPercent } from '../../working/format';

export const RATE_METRICS = new Set([
  'gross_margin',
  'lead_cvr',
  'meeting_cvr',
  'registration_cvr',
  'order_cvr',
  'churn_cvr',
]);
export const RATIO_METRICS = new Set(['ltv_cac', 'burn_multiple']);

/** The metric cards below the top row, in the spec's order, per template. */
export const METRICS_SAAS = [
  'arpa',
  'gross_margin',
  'customers',
  'ltv_cac',
  'ltv',
  'cac',
  'session',
  'lead',
  'lead_cvr',
  'meeting',
  'meeting_cvr',
  'order',
  'order_cvr',
  'churn',
  'churn_cvr',
  'burn_multiple',
  'arr_per_employees',
  'revenue_per_employees',
];
export const METRICS_SELF = [
  'arpa',
  'gross_margin',
  'customers',
  'ltv_cac',
  'ltv',
  'cac',
  'session',
  'registration',
  'registration_cvr',
  'order',
  'order_cvr',
  'churn',
  'churn_cvr',
  'burn_multiple',
  'arr_per_employees',
  'revenue_per_employees',
];

/** A metric's value as the dashboard shows it; a dash where there is none (no actual yet, or a zero divisor). */
export function formatMetric(name: string, value: number | null): string {
  const text = RATE_METRICS.has(name) ? formatPercent(value, 1) : formatNumber(value, RATIO_METRICS.has(name) ? 2 : 0);
  return text === '' ? '-' : text;
}
