/**
 * Field rules of spec/product-and-account.md section 5. Each rule answers a message key and its values, so the
 * same check shows in Japanese or English.
 */
export interface FieldError {
  key: 'required' | 'email' | 'passwordChars' | 'min' | 'max' | 'confirm';
  num?: number;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Printable ASCII: half-width letters, digits and symbols. The reset form also admits the yen sign.
const PASSWORD_CHARS = /^[\x21-\x7e]*$/;
const RESET_PASSWORD_CHARS = /^[\x21-\x7e¥]*$/;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 100;
export const NAME_MAX = 50;

export function checkEmail(value: string): FieldError | null {
  if (value.trim() === '') return { key: 'required' };
  if (!EMAIL.test(value.trim())) return { key: 'email' };
  return null;
}

export function checkSignInPassword(value: string): FieldError | null {
  return value === '' ? { key: 'required' } : null;
}

export function checkNewPassword(value: string, options: { allowYen?: boolean } = {}): FieldError | null {
  if (value === '') return { key: 'required' };
  const chars = options.allowYen ? RESET_PASSWORD_CHARS : PASSWORD_CHARS;
  if (!chars.test(value)) return { key: 'passwordChars' };
  if (value.length < PASSWORD_MIN) return { key: 'min', num: PASSWORD_MIN };
  if (value.length > PASSWORD_MAX) return { key: 'max', num: PASSWORD_MAX };
  return null;
}

export function checkConfirmation(
  value: string,
  password: string,
  options: { allowYen?: boolean } = {},
): FieldError | null {
  return checkNewPassword(value, options) ?? (value === password ? null : { key: 'confirm' });
}

export function checkText(value: string, options: { required?: boolean; max?: number } = {}): FieldError | null {
  if (options.required && value.trim() === '') return { key: 'required' };
  if (options.max !== undefined && value.length > options.max) return { key: 'max', num: options.max };
  return null;
}
