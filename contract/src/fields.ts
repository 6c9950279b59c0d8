/**
 * Field rules of product-and-account.md section 5, written once: the API parses requests with these schemas and the
 * web checks its forms with the same bounds before sending.
 */
import { z } from 'zod';
import { textField } from './wire';

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

/** A trimmed name of at most NAME_MAX characters (or `max`); required ones may not be blank. */
export const nameField = (field: string, required = true, max = NAME_MAX) => textField(field, max, { required });

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
