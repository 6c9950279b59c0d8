import { emailSignupRequest, passwordSetRequest } from '@topline/contract';
import { describe, expect, it } from 'vitest';
import { checkConfirmation, checkEmail, checkName, checkNewPassword } from './validation';

const PASSWORDS = [
  'Secret#2024',
  '¥secret123',
  'secret¥¥123',
  'パスワード12345',
  'has space1',
  'short1!',
  'x'.repeat(101),
];

describe('validation rules', () => {
  it('asks for an e-mail and for its format', () => {
    expect(checkEmail('')).toEqual({ key: 'required' });
    expect(checkEmail('founder@')).toEqual({ key: 'email' });
    expect(checkEmail('founder@example.com')).toBeNull();
    expect(checkEmail(`${'a'.repeat(250)}@example.com`)).toEqual({ key: 'max', num: 254 });
  });

  it('takes new passwords of 8 to 100 half-width characters', () => {
    expect(checkNewPassword('', 'signup')).toEqual({ key: 'required' });
    expect(checkNewPassword('short1!', 'signup')).toEqual({ key: 'min', num: 8 });
    expect(checkNewPassword('x'.repeat(101), 'signup')).toEqual({ key: 'max', num: 100 });
    expect(checkNewPassword('パスワード12345', 'signup')).toEqual({ key: 'passwordChars' });
    expect(checkNewPassword('has space1', 'signup')).toEqual({ key: 'passwordChars' });
    expect(checkNewPassword('Secret#2024', 'signup')).toBeNull();
  });

  it('admits the yen sign only on the reset form', () => {
    expect(checkNewPassword('¥secret123', 'signup')).toEqual({ key: 'passwordChars' });
    expect(checkNewPassword('¥secret123', 'reset')).toBeNull();
  });

  it('accepts on each form exactly the passwords the API accepts there', () => {
    for (const password of PASSWORDS) {
      const signup = emailSignupRequest.safeParse({
        email: 'a@example.com',
        password,
        password_confirmation: password,
      }).success;
      const reset = passwordSetRequest.safeParse({ token: 't', password, password_confirmation: password }).success;
      expect(checkNewPassword(password, 'signup') === null, `sign-up ${password}`).toBe(signup);
      expect(checkNewPassword(password, 'reset') === null, `reset ${password}`).toBe(reset);
    }
  });

  it('requires the confirmation to equal the password', () => {
    expect(checkConfirmation('Secret#2024', 'Secret#2025', 'signup')).toEqual({ key: 'confirm' });
    expect(checkConfirmation('Secret#2024', 'Secret#2024', 'signup')).toBeNull();
  });

  it('limits names to 50 characters after trimming', () => {
    expect(checkName('', true)).toEqual({ key: 'required' });
    expect(checkName('   ', true)).toEqual({ key: 'required' });
    expect(checkName('a'.repeat(51), false)).toEqual({ key: 'max', num: 50 });
    expect(checkName(` ${'a'.repeat(50)} `, true)).toBeNull();
    expect(checkName('Acme', true)).toBeNull();
    expect(checkName('', false)).toBeNull();
  });
});
