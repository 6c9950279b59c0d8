import { describe, expect, it } from 'vitest';
import { errorFor } from './client';

const t = (key: string) => `t:${key}`;

describe('API error mapping', () => {
  it('treats a tier lock as a lock, not a sign-out', () => {
    const error = errorFor(403, 'GET', { title: 'Upgrade', message: 'locked', reason: 'tier_lock' }, t);
    expect(error.kind).toBe('tier_lock');
  });

  it('treats a refusal by role as no access, with the permission message', () => {
    const error = errorFor(403, 'POST', { title: 'Forbidden', message: 'x', reason: 'no_access' }, t);
    expect([error.kind, error.message]).toEqual(['no_access', 't:errors.noPermission']);
  });

  it('signs out on 401 and on other 403s', () => {
    expect(errorFor(401, 'GET', null, t).kind).toBe('unauthorized');
    expect(errorFor(403, 'POST', { title: 'Forbidden', message: 'no' }, t).kind).toBe('unauthorized');
  });

  it('uses the server title and message, else the catalogue', () => {
    const fromServer = errorFor(400, 'POST', { title: 'Bad Request', message: 'arr: too small' }, t);
    expect([fromServer.title, fromServer.message]).toEqual(['Bad Request', 'arr: too small']);
    const fallback = errorFor(400, 'POST', null, t);
    expect([fallback.title, fallback.message]).toEqual(['t:errors.badRequest.title', 't:errors.badRequest.message']);
    expect(errorFor(500, 'GET', null, t).message).toBe('t:errors.internal.message');
    expect(errorFor(500, 'POST', null, t).message).toBe('t:errors.unexpected');
  });
});
