/** Number display of the working screens (working-screens.md section 9): separators, signs, percentages. */
import i18next from 'i18next';

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

/** The interface language the numbers are shown in: Japanese or English. */
export type NumberLanguage = 'ja' | 'en';

/** The interface's language (i18next's); English when it is not Japanese, as the interface falls back to English. */
export function numberLanguage(): NumberLanguage {
  const language = i18next.resolvedLanguage ?? i18next.language;
  return language?.startsWith('ja') ? 'ja' : 'en';
}

/**
 * Thousands separators and the sign of a negative: Japanese shows the triangle ▲ (the spec's convention), English a
 * minus sign, since ▲ reads as "up" to an English reader. Screens show both in red (`ws-negative`, `isNegative`).
 *
 * Counts (sessions, leads, meetings, registrations, orders, churn) reach the screens already whole, rounded on the
 * year's running total so that a quarter and a year are the sums of their months as shown (engine/DECISIONS.md, "Counts
 * that foot"); rounding them again here to 0 decimals changes nothing.
 */
export function formatNumber(
  value: number | null | undefined,
  decimals = 0,
  language: NumberLanguage = numberLanguage(),
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const text = formatterFor(decimals).format(Math.abs(value));
  const rounded = Number(Math.abs(value).toFixed(decimals));
  if (value >= 0 || rounded === 0) return text;
  return language === 'en' ? `-${text}` : `▲${text}`;
}

/** A fraction (0.023) as a percentage with one decimal ("2.3%"); negatives signed as `formatNumber` signs them. */
export function formatPercent(
  value: number | null | undefined,
  decimals = 1,
  language: NumberLanguage = numberLanguage(),
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return `${formatNumber(value * 100, decimals, language)}%`;
}

/** Money in a unit: 'yen' (as is), 'k' (thousands) or 'm' (millions). */
export function scaleMoney(value: number | null | undefined, unit: 'one' | 'k' | 'm'): number | null {
  if (value === null || value === undefined) return null;
  return unit === 'm' ? value / 1_000_000 : unit === 'k' ? value / 1_000 : value;
}

/**
 * A figure shown as negative (red, with ▲ or a minus sign): below zero at the decimals shown, so a figure that rounds
 * to 0 is not red. Red means this and nothing else.
 */
export const isNegative = (value: number | null | undefined, decimals = 0): boolean =>
  typeof value === 'number' && Number.isFinite(value) && Number(value.toFixed(decimals)) < 0;

/** A shown figure's text is negative: it carries the sign `formatNumber` gives a negative. */
export const isNegativeText = (text: string): boolean => text.startsWith('▲') || text.startsWith('-');

/** yyyyMMdd of a date, for download names. */
export const yyyymmdd = (date: Date): string =>
  `${date.getFullYear()}${String(date.getMonth() + 1).padStart(2, '0')}${String(date.getDate()).padStart(2, '0')}`;
