/**
 * Counts as the read models show them: whole numbers whose quarters and years foot (engine/DECISIONS.md, "Counts that
 * foot").
 *
 * The workbook's customers and funnel are real numbers (MODEL.md section 3), so a month of 2.6 orders would round to 3
 * three times under a quarter of 7.8 that rounds to 8. A count flow is therefore shown by rounding its running total
 * within the plan year: the month shows round(total through it) - round(total before it), a quarter and the year the
 * sum of their shown months. The year shows its true total rounded, each month and quarter differs from its true value
 * by less than one, and a whole month (an entered actual) shows exactly as entered.
 */
import type { NumberRecord } from './cells';

/** The count flows that MODEL.md section 4 sums into quarters and years; customers and head count are stocks. */
export const COUNT_FLOW_KEYS: readonly string[] = ['session', 'lead', 'meeting', 'registration', 'order', 'churn'];

/** Half up, on the decimal value rather than its binary approximation; whole numbers stay as they are. */
export function roundCount(value: number): number {
  return Math.floor(value + 0.5 + 1e-9);
}

/**
 * The months of a count flow as shown: the rounded running total's steps. A blank month (null) stays blank and adds
 * nothing; a figure that could not be computed (NaN) stays NaN and adds nothing.
 */
export function footedMonths(values: readonly (number | null)[]): (number | null)[] {
  let total = 0;
  let shown = 0;
  return values.map((value) => {
    if (value === null || !Number.isFinite(value)) return value;
    total += value;
    const next = roundCount(total);
    const month = next - shown;
    shown = next;
    return month;
  });
}

/** The sum of shown months, blanks left out. */
function sumShown(months: readonly (number | null)[]): number {
  return months.reduce<number>((sum, v) => (v !== null && Number.isFinite(v) ? sum + v : sum), 0);
}

/**
 * Rewrites the count flows of a plan year's records in place: the 12 months with `footedMonths`, each quarter (months
 * 3q-2..3q) and the year as the sum of their shown months. A period left blank or not computed stays as it is.
 *
 * @param keys the count flows to foot; keys a record does not hold are skipped
 */
export function footCounts(
  months: readonly NumberRecord[],
  quarters: readonly NumberRecord[],
  year: NumberRecord | undefined,
  keys: readonly string[] = COUNT_FLOW_KEYS,
): void {
  for (const key of keys) {
    if (!months.some((m) => key in m)) continue;
    const shown = footedMonths(months.map((m) => m[key] ?? null));
    months.forEach((m, i) => {
      if (key in m) m[key] = shown[i] ?? null;
    });
    quarters.forEach((q, i) => {
      const value = q[key];
      if (typeof value === 'number' && Number.isFinite(value)) q[key] = sumShown(shown.slice(3 * i, 3 * i + 3));
    });
    const value = year?.[key];
    if (year && typeof value === 'number' && Number.isFinite(value)) year[key] = sumShown(shown);
  }
}

/**
 * Rewrites the count flows of a year's difference values (actual - estimate) in place so that they agree with the
 * shown actual and estimate: a month's difference is its shown actual minus its shown estimate, a quarter's and the
 * year's the sum of their shown month differences. Months without a difference (not ACT) stay blank.
 */
export function footDifferences(
  months: readonly NumberRecord[],
  quarters: readonly NumberRecord[],
  year: NumberRecord | undefined,
  shownActual: readonly NumberRecord[],
  shownEstimate: readonly NumberRecord[],
  keys: readonly string[] = COUNT_FLOW_KEYS,
): void {
  for (const key of keys) {
    if (!months.some((m) => key in m)) continue;
    const shown = months.map((m, i) => {
      const value = m[key] ?? null;
      const actual = shownActual[i]?.[key];
      const estimate = shownEstimate[i]?.[key];
      if (value === null || !Number.isFinite(value)) return value;
      if (typeof actual !== 'number' || typeof estimate !== 'number') return value;
      if (!Number.isFinite(actual) || !Number.isFinite(estimate)) return value;
      return actual - estimate;
    });
    months.forEach((m, i) => {
      if (key in m) m[key] = shown[i] ?? null;
    });
    quarters.forEach((q, i) => {
      const value = q[key];
      if (typeof value === 'number' && Number.isFinite(value)) q[key] = sumShown(shown.slice(3 * i, 3 * i + 3));
    });
    const value = year?.[key];
    if (year && typeof value === 'number' && Number.isFinite(value)) year[key] = sumShown(shown);
  }
}
