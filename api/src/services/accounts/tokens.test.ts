import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenSigner } from './tokens';

describe('bearer tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('accepts a token until it expires, also once its signature is known, and refuses a forged one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T00:00:00Z'));
    const signer = new TokenSigner('a-secret-of-forty-characters-0123456789', 2);
    const token = await signer.issue({ id: 7, token_version: 3 });
    expect(await signer.verify(token)).toEqual({ userId: 7, tokenVersion: 3 });
    vi.setSystemTime(new Date('2026-06-01T01:59:00Z'));
    expect(await signer.verify(token)).toEqual({ userId: 7, tokenVersion: 3 });
    vi.setSystemTime(new Date('2026-06-01T02:00:01Z'));
    expect(await signer.verify(token)).toBeNull();

    const other = new TokenSigner('another-secret-of-forty-characters-01234', 2);
    vi.setSystemTime(new Date('2026-06-01T00:00:00Z'));
    expect(await other.verify(await signer.issue({ id: 7, token_version: 3 }))).toBeNull();
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ sub: '1', tv: 3, exp: 1_900_000_000 })).toString('base64url');
    expect(await signer.verify(`${header}.${payload}.${signature}`)).toBeNull();
  });
});
