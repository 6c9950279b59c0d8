/**
 * The one sign rule of the screens' editable rows (issue 38): a figure is typed as the row shows it, and a figure of
 * the sign the row does not take is refused, never booked. The sign each input takes is the engine's (`INPUT_SIGNS`,
 * also used by the spreadsheets' actual-inputs import); which rows the screens show inverted is written here.
 */
import { type InputKind, inputSign } from '@topline/engine/schema';

export { hasInputSign, INPUT_SIGNS, type InputKind, type InputSign, inputSign } from '@topline/engine/schema';

/** Rows shown with the sign inverted: costs, so that a cost reads as a negative figure beside revenue. */
export const SHOWN_INVERTED: ReadonlySet<string> = new Set(['cogs', 'sm', 'rd', 'ga', 'operating_expense']);

export const isShownInverted = (key: string): boolean => SHOWN_INVERTED.has(key);

/** A stored value as the row shows it (0 never shows as -0). */
export const shownValue = (key: string, stored: number): number => {
  const shown = isShownInverted(key) ? -stored : stored;
  return shown === 0 ? 0 : shown;
};

/** A typed figure, read as the same text means when the row shows it, as the value to store. */
export const storedValue = (key: string, typed: number): number => shownValue(key, typed);

/** The refusal of a figure of the wrong sign: what the row takes, and the sign a figure of it is typed with there. */
export interface SignRefusal {
  problem: 'sign';
  kind: InputKind;
  /** The sign a figure of this row is typed with, as the row shows it. */
  typed: 'negative' | 'positive';
}

/**
 * Reads a figure typed into a row as it shows it: the value to store, or the refusal when the row does not take that
 * sign (a positive figure in a cost row shown negative, a negative repayment).
 */
export function readSigned(key: string, typed: number): { ok: true; value: number } | ({ ok: false } & SignRefusal) {
  const value = storedValue(key, typed);
  const sign = inputSign(key);
  if (!sign || sign.takes === 'any' || value >= 0) return { ok: true, value };
  return { ok: false, problem: 'sign', kind: sign.kind, typed: isShownInverted(key) ? 'negative' : 'positive' };
}
