/** The working screens' input rules (working-screens.md sections 5 and 9): numbers, rates as percentages, months. */

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
