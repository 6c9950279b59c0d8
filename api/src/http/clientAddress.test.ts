import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../services/accounts/throttle';
import { startTestApi, type TestApi } from '../testing/harness';
import { clientAddress, parseTrustedProxies } from './clientAddress';

describe('the client address', () => {
  const proxies = parseTrustedProxies('10.0.0.0/8, 127.0.0.1, fd00::/8, ::ffff:192.168.0.0/112');

  it('is the socket address when the socket is not a trusted proxy, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', proxies)).toBe('203.0.113.9');
    expect(clientAddress('::ffff:203.0.113.9', '198.51.100.1', proxies)).toBe('203.0.113.9');
    expect(clientAddress('127.0.0.1', '198.51.100.1', [])).toBe('127.0.0.1');
  });

  it('is the right-most forwarded address that is not a trusted proxy', () => {
    expect(clientAddress('127.0.0.1', '198.51.100.1', proxies)).toBe('198.51.100.1');
    expect(clientAddress('::ffff:127.0.0.1', 'forged, 198.51.100.7, 10.1.2.3, 10.0.0.1', proxies)).toBe('198.51.100.7');
    expect(clientAddress('fd12::1', '2001:db8::5, fd00::9', proxies)).toBe('2001:db8::5');
    // A mapped network matches the IPv4 addresses it maps, written either way.
    expect(clientAddress('192.168.3.4', '198.51.100.2', proxies)).toBe('198.51.100.2');
    expect(clientAddress('::ffff:192.168.3.4', '::ffff:198.51.100.3', proxies)).toBe('198.51.100.3');
  });

  it('stops at an entry that is not an address, and is the furthest hop when every hop is trusted', () => {
    expect(clientAddress('127.0.0.1', 'not-an-address', proxies)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '198.51.100.1, 127.1, 10.0.0.2', proxies)).toBe('10.0.0.2');
    expect(clientAddress('127.0.0.1', '10.0.0.3, 10.0.0.2', proxies)).toBe('10.0.0.3');
    expect(clientAddress('127.0.0.1', '', proxies)).toBe('127.0.0.1');
  });

  it('refuses a list entry that is not an address or a network', () => {
    expect(parseTrustedProxies('')).toEqual([]);
    for (const bad of ['localhost', '10.0.0.0/33', '127.1', '0x7f.0.0.1', 'fd00::/129', '10.0.0.1/', '1.2.3.4:80']) {
      expect(() => parseTrustedProxies(`127.0.0.1,${bad}`)).toThrow(bad);
    }
  });
});

/** Failed sign-ins to accounts that do not exist, each from the address in X-Forwarded-For. */
async function failSignin(api: TestApi, n: number, forwardedFor: string): Promise<number> {
  const answer = await api.call('POST', '/users/email-signin', {
    body: { email: `nobody-${n}@example.com`, password: 'wrong-password' },
    headers: { 'X-Forwarded-For': forwardedFor },
  });
  return answer.status;
}

describe('per-client limits over HTTP', () => {
  const apis: TestApi[] = [];
  afterAll(async () => {
    for (const api of apis) await api.close();
  });

  it('are not lifted by rotating X-Forwarded-For when no proxy is trusted', async () => {
    const api = await startTestApi();
    apis.push(api);
    for (let i = 0; i < LIMITS.signinPerClient.max; i++) {
      expect(await failSignin(api, i, `198.51.100.${i + 1}`)).toBe(209);
    }
    expect(await failSignin(api, 1000, '198.51.100.250')).toBe(429);
    expect(await failSignin(api, 1001, '203.0.113.1')).toBe(429);
  });

  it('count by the forwarded address when the socket is a trusted proxy', async () => {
    const api = await startTestApi({ env: { TRUST_PROXY: '127.0.0.1' } });
    apis.push(api);
    for (let i = 0; i < LIMITS.signinPerClient.max; i++) {
      expect(await failSignin(api, i, `10.9.8.7, 198.51.100.1`)).toBe(209);
    }
    expect(await failSignin(api, 1000, '198.51.100.1')).toBe(429);
    expect(await failSignin(api, 1001, '198.51.100.2')).toBe(209);
  });
});
