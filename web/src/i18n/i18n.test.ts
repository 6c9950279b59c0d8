import { describe, expect, it } from 'vitest';
import en from './en';
import ja from './ja';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

function lookup(messages: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);
}

describe('message catalogue', () => {
  it('has the same keys in Japanese and English, none empty', () => {
    expect(keysOf(ja).sort()).toEqual(keysOf(en).sort());
    for (const key of keysOf(en)) {
      expect(String(lookup(en, key)).length, key).toBeGreaterThan(0);
      expect(String(lookup(ja, key)).length, key).toBeGreaterThan(0);
    }
  });

  it('holds every message of the spec error catalogue in both languages', () => {
    const catalogue = [
      'validation.required',
      'validation.email',
      'validation.passwordChars',
      'validation.min',
      'validation.max',
      'validation.confirm',
      'errors.badRequest.title',
      'errors.badRequest.message',
      'errors.internal.title',
      'errors.internal.message',
      'errors.unexpected',
      'errors.noPermission',
      'errors.noAccess',
      'auth.loginFailed',
      'auth.demoRequired',
      'auth.emailUser',
      'auth.googleUser',
      'auth.resetRequested',
      'auth.resetDone',
      'settings.profileSaved',
      'errorPage.notFound',
      'errorPage.internal',
    ];
    for (const key of catalogue) {
      expect(typeof lookup(en, key), key).toBe('string');
      expect(typeof lookup(ja, key), key).toBe('string');
    }
    expect(en.errors.badRequest.title).toBe('Bad Request');
    expect(en.errorPage.notFound).toBe('Not Found');
    expect(ja.errorPage.internal).toBe('Internal Error');
  });
});
