/** The working screens' input rules (working-screens.md sections 5 and 9): numbers, rates as percentages, months. */

/**
 * The numeric input rule of section 9 for short form fields: non-numeric characters are stripped, a minus sign is
 * allowed by default, decimals only when asked for and floored to `digits` places. Number cells of the grids and the
 * P&L's own fields read what is typed with `readTyped` (typed.ts) instead, which refuses rather than strips.
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
