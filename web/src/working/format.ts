/**
 * Number display and input rules of the working screens (working-screens.md sections 2, 5 and 9).
 */

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

/**
 * The numeric input rule: non-numeric characters are stripped, a minus sign is allowed by default, decimals only
 * when asked for and floored to `digits` places.
 */
export function sanitizeNumber(raw: string, options: { decimal?: boolean; digits?: number; minus?: boolean } = {}) {
  const { decimal = false, digits = 1, minus = true } = options;
  const negative = minus && raw.trim().startsWith('-');
  let body = raw.replace(decimal ? /[^0-9.]/g : /[^0-9]/g, '');
  if (decimal) {
    const [whole = '', ...rest] = body.split('.');
    const fraction = rest.join('');
    body = rest.length > 0 ? `${whole}.${fraction.slice(0, digits)}` : whole;
  }
  return negative ? `-${body}` : body;
}

/** Decimal digits of a rate entered as a percentage: one by default, two for churn (section 9). */
export const rateDigits = (key: string): number => (key === 'churn_rate' ? 2 : 1);

/** A percentage typed by the user as a fraction, floored to the key's digits. */
export function percentInput(raw: string, key: string): number | null {
  const text = sanitizeNumber(raw, { decimal: true, digits: rateDigits(key), minus: false });
  if (text === '' || text === '.' || text === '-') return null;
  const factor = 10 ** rateDigits(key);
  const percent = Math.floor(Number(text) * factor + 1e-9) / factor;
  return Number.isFinite(percent) ? Number((percent / 100).toFixed(rateDigits(key) + 2)) : null;
}

/** '#ABC', 'abc' and '#aabbcc' all become '#aabbcc'; anything else is null. */
export function normalizeHex(value: string): string | null {
  const digits = value.trim().replace(/^#/, '').toLowerCase();
  if (/^[0-9a-f]{3}$/.test(digits)) return `#${[...digits].map((d) => d + d).join('')}`;
  if (/^[0-9a-f]{6}$/.test(digits)) return `#${digits}`;
  return null;
}

/** Perceived brightness 0..255 of a hex colour (ITU-R BT.601 weights). */
export function brightness(hex: string): number {
  const normal = normalizeHex(hex) ?? '#000000';
  const r = Number.parseInt(normal.slice(1, 3), 16);
  const g = Number.parseInt(normal.slice(3, 5), 16);
  const b = Number.parseInt(normal.slice(5, 7), 16);
  return (r * 299 + g * 587 + b * 114) / 1000;
}

/** White text on a colour whose brightness is above the threshold 65 (the spec's rule), else dark text. */
export const BRIGHTNESS_THRESHOLD = 65;
export const textColorOn = (hex: string): string => (brightness(hex) > BRIGHTNESS_THRESHOLD ? '#ffffff' : '#1d1b29');

/** The 2nd and 3rd colour sets derived from the first: each a lighter mix with white. */
export function deriveColorSets(first: ColorSet): ColorSet[] {
  const mix = (hex: string, amount: number) => {
    const normal = normalizeHex(hex) ?? '#000000';
    const channel = (i: number) => {
      const v = Number.parseInt(normal.slice(i, i + 2), 16);
      return Math.round(v + (255 - v) * amount)
        .toString(16)
        .padStart(2, '0');
    };
    return `#${channel(1)}${channel(3)}${channel(5)}`;
  };
  const lighter = (amount: number): ColorSet => ({
    arr: mix(first.arr, amount),
    pl: mix(first.pl, amount),
    gross_profit: mix(first.gross_profit, amount),
  });
  return [first, lighter(0.35), lighter(0.65)];
}

export interface ColorSet {
  arr: string;
  pl: string;
  gross_profit: string;
}

/** Runway colour: 12 months or fewer red, 19 or more orange, otherwise teal (section 9). */
export function cashOutColor(months: number | null): 'red' | 'orange' | 'teal' | 'none' {
  if (months === null) return 'none';
  if (months <= 12) return 'red';
  if (months >= 19) return 'orange';
  return 'teal';
}

/** yyyyMMdd of a date, for download names. */
export const yyyymmdd = (date: Date): string =>
  `${date.getFullYear()}${String(date.getMonth() + 1).padStart(2, '0')}${String(date.getDate()).padStart(2, '0')}`;

/** Month input: digits only, 1 to 12, two characters; anything else keeps the previous value. */
export function monthInput(raw: string, previous: string): string {
  if (raw === '') return '';
  if (!/^\d{1,2}$/.test(raw)) return previous;
  const n = Number(raw);
  return n >= 0 && n <= 12 && !(raw.length === 2 && n === 0) ? raw : previous;
}

/** Year-month a is after year-month b. */
export const afterMonth = (a: { year: number; month: number }, b: { year: number; month: number }): boolean =>
  a.year * 12 + a.month > b.year * 12 + b.month;
