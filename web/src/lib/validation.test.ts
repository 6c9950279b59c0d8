import { describe, expect, it } from 'vitest';
import { checkConfirmation, checkEmail, checkNewPassword, checkText } from './validation';

describe('validation rules', () => {
  it('asks for an e-mail and for its format', () => {
    expect(checkEmail('')).toEqual({ key: 'required' });
    expect(checkEmail('founder@')).toEqual({ key: 'email' });
    expect(checkEmail('founder@example.com')).toBeNull();
  });

  it('takes new passwords of 8 to 100 half-width characters', () => {
    expect(checkNewPassword('')).toEqual({ key: 'required' });
    expect(checkNewPassword('short1!')).toEqual({ key: 'min', num: 8 });
    expect(checkNewPassword('x'.repeat(101))).toEqual({ key: 'max', num: 100 });
    expect(checkNewPassword('パスワード12345')).toEqual({ key: 'passwordChars' });
    expect(checkNewPassword('has space1')).toEqual({ key: 'passwordChars' });
    expect(checkNewPassword('Secret#2024')).toBeNull();
  });

  it('admits the yen sign only on the reset form', () => {
    expect(checkNewPassword('¥secret123')).toEqual({ key: 'passwordChars' });
    expect(checkNewPassword('¥secret123', { allowYen: true })).toBeNull();
  });

  it('requires the confirmation to equal the password', () => {
    expect(checkConfirmation('Secret#2024', 'Secret#2025')).toEqual({ key: 'confirm' });
    expect(checkConfirmation('Secret#2024', 'Secret#2024')).toBeNull();
  });

  it('limits profile text to 50 characters', () => {
    expect(checkText('', { required: true, max: 50 })).toEqual({ key: 'required' });
    expect(checkText('a'.repeat(51), { max: 50 })).toEqual({ key: 'max', num: 50 });
    expect(checkText('Acme', { required: true, max: 50 })).toBeNull();
  });
});
