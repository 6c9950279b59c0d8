/** The working screens' input rules (working-screens.md sections 5 and 9): numbers, rates as percentages, months. */
import { readSigned, type SignRefusal } from '@topline/contract';
import { readTyped, refusalMessage, ruleOf, type TypedResult } from './typed';

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

/** A figure in accounting brackets, `(1,234)` or full-width `（1,234）`, as the negative it writes; else as typed. */
export function unbracket(raw: string): string {
  const match = /^\s*[(（]\s*([^()（）-]*?)\s*[)）]\s*$/.exec(raw);
  return match ? `-${match[1]}` : raw;
}

/** What a grid cell refused: a reason of the typed-number rule, or a figure of the sign the row does not take. */
export type CellRefusal = Extract<TypedResult, { ok: false }> | ({ ok: false; text: string } & SignRefusal);
export type CellReading = { ok: true; value: number | null } | CellRefusal;

/**
 * Reads what is typed or pasted into a grid cell of input `key`: the one typed-number rule (`readTyped`), brackets
 * read as a minus, and the one sign rule (the contract's `readSigned`): the figure means what it means where the row
 * shows it, and a figure of the sign the row does not take is refused. An empty cell clears the value.
 */
export function readCellInput(raw: string, key: string): CellReading {
  const result = readTyped(unbracket(raw), ruleOf(key));
  if (!result.ok) return { ...result, text: raw };
  if (result.value === null) return result;
  const signed = readSigned(key, result.value);
  return signed.ok ? signed : { ...signed, text: raw };
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A cell's refusal in words: a sign names the sign the row takes, any other reason what the cell takes. */
export function cellRefusalMessage(result: CellRefusal, key: string, t: Translate): string {
  if (result.problem !== 'sign') return refusalMessage(result, ruleOf(key), t);
  const text = result.text.trim();
  if (result.kind === 'cost') return t('ws.sheet.sign.cost', { text });
  return t('ws.sheet.sign.positive', { text, what: t(`ws.sheet.kind.${result.kind}`) });
}
