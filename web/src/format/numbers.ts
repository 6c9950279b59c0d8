/** Number display of the working screens (working-screens.md section 9): separators, triangles, percentages. */

/** One formatter per number of decimals: building an Intl formatter costs far more than using one. */
const formatters = new Map<number, Intl.NumberFormat>();
function formatterFor(decimals: number): Intl.NumberFormat {
  let formatter = formatters.get(decimals);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    formatters.set(decimals, formatter);
  }
  return formatter;
}

/** Thousands separators; a negative shows a triangle instead of a minus sign. */
export function formatNumber(value: number | null | undefined, decimals = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const text = formatterFor(decimals).format(Math.abs(value));
  const rounded = Number(Math.abs(value).toFixed(decimals));
  return value < 0 && rounded !== 0 ? `▲${text}` : text;
}

/** A fraction (0.023) as a percentage with one decimal ("2.3%"); negatives with the triangle. */
export function formatPercent(value: number | null | undefined, decimals = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return `${formatNumber(value * 100, decimals)}%`;
}

/** Money in a unit: 'yen' (as is), 'k' (thousands) or 'm' (millions). */
export function scaleMoney(value: number | null | undefined, unit: 'one' | 'k' | 'm'): number | null {
  if (value === null || value === undefined) return null;
  return unit === 'm' ? value / 1_000_000 : unit === 'k' ? value / 1_000 : value;
}

export const isNegative = (value: number | null | undefined): boolean =>
  typeof value === 'number' && Number(value.toFixed(6)) < 0;

/** yyyyMMdd of a date, for download names. */
export const yyyymmdd = (date: Date): string =>
  `${date.getFullYear()}${String(date.getMonth() + 1).padStart(2, '0')}${String(date.getDate()).padStart(2, '0')}`;
