/**
 * The forms' field checks: the contract's field rules (product-and-account.md section 5), the same zod schemas the
 * API parses requests with, read as a message key and its values, so the same check shows in Japanese or English.
 */
import { EMAIL_MAX, emailField, nameField, resetPasswordField, signupPasswordField } from '@topline/contract';
import type { z } from 'zod';

export interface FieldError {
  key: 'required' | 'email' | 'passwordChars' | 'min' | 'max' | 'confirm' | 'invalid';
  num?: number;
}

/** Which password rule a form applies: a reset link's form also admits the yen sign. */
export type PasswordForm = 'signup' | 'reset';

const REQUIRED: FieldError = { key: 'required' };

/** The message of the first failed rule, in the order a person fixes them: characters, then length. */
function firstError(result: z.ZodSafeParseResult<unknown>): FieldError | null {
  if (result.success) return null;
  const issues = result.error.issues;
  const format = issues.find((issue) => issue.code === 'invalid_format');
  if (format) return format.format === 'email' ? { key: 'email' } : { key: 'passwordChars' };
  for (const issue of issues) {
    if (issue.code === 'too_small') return { key: 'min', num: Number(issue.minimum) };
    if (issue.code === 'too_big') return { key: 'max', num: Number(issue.maximum) };
  }
  return { key: 'invalid' };
}

export function checkEmail(value: string): FieldError | null {
  const email = value.trim();
  if (email === '') return REQUIRED;
  if (email.length > EMAIL_MAX) return { key: 'max', num: EMAIL_MAX };
  return emailField.safeParse(email).success ? null : { key: 'email' };
}

export function checkSignInPassword(value: string): FieldError | null {
  return value === '' ? REQUIRED : null;
}

export function checkNewPassword(value: string, form: PasswordForm): FieldError | null {
  if (value === '') return REQUIRED;
  return firstError((form === 'reset' ? resetPasswordField : signupPasswordField).safeParse(value));
}

export function checkConfirmation(value: string, password: string, form: PasswordForm): FieldError | null {
  return checkNewPassword(value, form) ?? (value === password ? null : { key: 'confirm' });
}

/** A name, company or plan name: trimmed, at most the contract's NAME_MAX characters. */
export function checkName(value: string, required: boolean): FieldError | null {
  const result = nameField('name', required).safeParse(value);
  if (result.success) return null;
  return value.trim() === '' ? REQUIRED : firstError(result);
}
