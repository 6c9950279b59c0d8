/**
 * Field rules of product-and-account.md section 5, written once: the API parses requests with these schemas and the
 * web checks its forms with the same bounds before sending.
 */
import { z } from 'zod';
import { storable } from './wire';

export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 100;
/** Names, company and profile fields, plan and case names. */
export const NAME_MAX = 50;
/** The profile's employee band (a choice such as `11-30`). */
export const EMPLOYEES_MAX = 20;
/** A cost item's name. */
export const COST_ITEM_NAME_MAX = 100;
/** A monthly P&L memo. */
export const COMMENT_MAX = 2000;

/** A new password at sign-up: ASCII letters, digits and symbols only. */
export const SIGNUP_PASSWORD_CHARS = /^[\x21-\x7e]+$/;
/** A new password set through a reset link: the same, and the reset form also admits the yen sign. */
export const RESET_PASSWORD_CHARS = /^[\x21-\x7e¥]+$/;

const PASSWORD_CHARS_MESSAGE = 'password must be half-width alphanumeric characters or symbols';

export const emailField = z.email('enter in email format').max(EMAIL_MAX);

const newPassword = (chars: RegExp) =>
  z
    .string('password is required')
    .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `password may not be greater than ${PASSWORD_MAX} characters`)
    .regex(chars, PASSWORD_CHARS_MESSAGE);

export const signupPasswordField = newPassword(SIGNUP_PASSWORD_CHARS);
export const resetPasswordField = newPassword(RESET_PASSWORD_CHARS);

/** Controls (C0 with CR, LF and tab, DEL, C1) and the line and paragraph separators. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** The same, but for the line feed of a text of several lines. */
const CONTROL_BUT_LF = /(?!\n)[\p{Cc}\u2028\u2029]/u;
/**
 * What reorders text around it without being seen: the bidi embeddings and overrides (U+202A-U+202E), isolates
 * (U+2066-U+2069) and marks (U+200E, U+200F, U+061C). A name with U+202E reads backwards from there on.
 */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/**
 * A character that shows: not white space, a format character (the zero-width space, joiners, word joiner, BOM,
 * soft hyphen), a combining mark alone, a control, or a blank that is a letter by category (the Hangul fillers, the
 * blank braille pattern).
 */
const VISIBLE = /[^\p{White_Space}\p{Cf}\p{M}\p{Cc}\u115f\u1160\u3164\uffa0\u2800]/u;
/** Marks one character may carry: written languages and emoji sequences stay well within it; stacked marks do not. */
export const COMBINING_MARKS_MAX = 4;
const MARK_RUN = new RegExp(`\\p{M}{${COMBINING_MARKS_MAX + 1},}`, 'u');

/**
 * Why `text` is not text a person can read, as the end of a field's message, or null when it is. A zero-width joiner
 * or non-joiner inside a name is fine (emoji sequences such as 👩‍💻, Persian words); a name of nothing else is not.
 */
export function unreadable(text: string, lines: 'single' | 'multi'): string | null {
  if ((lines === 'single' ? CONTROL : CONTROL_BUT_LF).test(text)) {
    return lines === 'single'
      ? 'may not hold line breaks, tabs or other control characters'
      : 'may not hold tabs or control characters other than line breaks';
  }
  if (BIDI_CONTROL.test(text)) return 'may not hold characters that change the direction of text';
  if (MARK_RUN.test(text)) return `may not stack more than ${COMBINING_MARKS_MAX} marks on one character`;
  // A memo of blank lines is blank, as an empty one; invisible characters alone are refused either way.
  const blank = lines === 'multi' && /^\s*$/u.test(text);
  if (text !== '' && !blank && !VISIBLE.test(text)) return 'must hold a visible character';
  return null;
}

/**
 * Text a person reads (a name, a to-do, a memo): of at most `max` characters, storable, and readable (`unreadable`).
 * What a user types is stored exactly or refused, with one rewrite: Unicode NFC normalisation, so that the same
 * name typed with a precomposed or a combining accent is one name (and counts the same against `max`). Single-line
 * text is also trimmed; required text may not be blank.
 */
function readableText(
  field: string,
  max: number,
  options: { required?: boolean; lines: 'single' | 'multi'; trim?: boolean },
) {
  const { required = true, lines, trim = lines === 'single' } = options;
  let text = z.string(`${field} is required`);
  if (trim) text = text.trim();
  text = text.normalize('NFC').max(max, `${field} may not be greater than ${max} characters`);
  if (required) text = text.min(1, `${field} is required`);
  return text.refine(storable, `${field} holds a character that cannot be stored`).superRefine((value, ctx) => {
    const problem = unreadable(value, lines);
    if (problem) ctx.addIssue({ code: 'custom', message: `${field} ${problem}` });
  });
}

/** A name or a short text of one line: trimmed, NFC, readable; required ones may not be blank. */
export const singleLineText = (field: string, max: number, options: { required?: boolean } = {}) =>
  readableText(field, max, { ...options, lines: 'single' });

/** A text of several lines (a memo): line feeds allowed, kept as typed (not trimmed), NFC, readable otherwise. */
export const multiLineText = (field: string, max: number, options: { required?: boolean } = {}) =>
  readableText(field, max, { ...options, lines: 'multi' });

/** A name of at most NAME_MAX characters (or `max`): `singleLineText`. */
export const nameField = (field: string, required = true, max = NAME_MAX) => singleLineText(field, max, { required });

export interface Range {
  min: number;
  max: number;
  step: number;
}

/** The wizard's sliders (product-and-account.md sections 5 and 9); USD is JPY / 100. */
export const ARR_RANGE = {
  JPY: { min: 5_000_000, max: 100_000_000, step: 500_000 },
  USD: { min: 50_000, max: 1_000_000, step: 5_000 },
} as const satisfies Record<'JPY' | 'USD', Range>;

export const ARPA_RANGE = {
  JPY: { min: 500, max: 500_000, step: 500 },
  USD: { min: 5, max: 5_000, step: 5 },
} as const satisfies Record<'JPY' | 'USD', Range>;

/** Months to reach the first year's target ARR. */
export const PERIOD_RANGE = { min: 1, max: 12, step: 1 } as const satisfies Range;

/** The first start year a plan may have; the last is six years ahead of the current year. */
export const FIRST_START_YEAR = 2018;
export const lastStartYear = (today: Date): number => today.getUTCFullYear() + 6;
