import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnotherProcess, anotherProcess } from '../testing/anotherProcess';
import { startTestApi, TEST_PASSWORD, type TestApi } from '../testing/harness';

/**
 * The sign-in, lookup and reset limits of `services/accounts/throttle.ts`, counted in the database: several API processes on one
 * database share them. Each test sends from client addresses of its own (X-Forwarded-For, believed from the test's own
 * address as from a trusted proxy).
 */
let api: TestApi;
const processes: AnotherProcess[] = [];

beforeAll(async () => {
  api = await startTestApi({ env: { TRUST_PROXY: '127.0.0.1' } });
});

afterAll(async () => {
  for (const started of processes) await started.close();
  await api.close();
});

/** Another API process on the same database, with a clock of its own; answers its address. */
async function startAnother(now?: () => Date): Promise<string> {
  const started = await anotherProcess(api, now ? { now } : {});
  processes.push(started);
  return started.url;
}

interface Sent {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
  body: any;
  retryAfter: string | null;
}

async function post(base: string, path: string, body: unknown, client: string): Promise<Sent> {
  const response = await fetch(new URL(`/api/v1${path}`, base), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'X-Forwarded-For': client },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), retryAfter: response.headers.get('retry-after') };
}

const signin = (base: string, email: string, password: string, client: string) =>
  post(base, '/users/email-signin', { email, password }, client);

const resetKey = (to: string) =>
  /key=([A-Za-z0-9_-]+)/.exec(api.mail.filter((m) => m.to === to).at(-1)?.text ?? '')?.[1] ?? '';

function expectRefused(answer: Sent, maxSeconds = 15 * 60) {
  expect(answer.status).toBe(429);
  expect(answer.body).toMatchObject({ title: 'Too Many Requests', code: 'too_many_requests' });
  const wait = Number(answer.retryAfter);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(maxSeconds);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

describe('sign-in limits', () => {
  it('counts failed sign-ins in the database, shared by every API process', async () => {
    await api.user('shared-count@example.com');
    const other = await startAnother();
    for (let i = 0; i < 10; i++) {
      const wrong = await signin(i % 2 ? other : api.url, 'shared-count@example.com', `guess-${i}`, '192.0.2.1');
      expect(wrong.status).toBe(209);
    }
    expectRefused(await signin(api.url, 'shared-count@example.com', TEST_PASSWORD, '192.0.2.1'));
    expectRefused(await signin(other, 'Shared-Count@example.com', TEST_PASSWORD, '192.0.2.1'));
    // The guesser locked out only itself: a client that has not failed signs in.
    expect((await signin(other, 'shared-count@example.com', TEST_PASSWORD, '192.0.2.51')).status).toBe(200);
  });

  it('refuses clients that failed once the account has 10 failures from anywhere, never one that has not', async () => {
    await api.user('spread@example.com');
    for (let i = 0; i < 10; i++) {
      expect((await signin(api.url, 'spread@example.com', `guess-${i}`, `192.0.2.${100 + i}`)).status).toBe(209);
    }
    expectRefused(await signin(api.url, 'spread@example.com', TEST_PASSWORD, '192.0.2.100'));
    expect((await signin(api.url, 'spread@example.com', TEST_PASSWORD, '192.0.2.120')).status).toBe(200);
  });

  it('lets no more than 10 guesses through when they are sent at once', async () => {
    await api.user('burst@example.com');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signin(api.url, 'burst@example.com', `burst-${i}`, '192.0.2.60')),
    );
    expect(answers.filter((a) => a.status === 209)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(10);
  });

  it('refuses even the right password until the window passes', async () => {
    await api.user('window@example.com');
    for (let i = 0; i < 10; i++) await signin(api.url, 'window@example.com', `guess-${i}`, '192.0.2.70');
    expectRefused(await signin(api.url, 'window@example.com', TEST_PASSWORD, '192.0.2.70'));
    const later = await startAnother(() => new Date(Date.now() + 15 * 60_000 + 1000));
    expect((await signin(later, 'window@example.com', TEST_PASSWORD, '192.0.2.70')).status).toBe(200);
  });

  it('lets a locked-out owner reset the password, which lifts the lockout', async () => {
    await api.user('locked@example.com');
    for (let i = 0; i < 10; i++) await signin(api.url, 'locked@example.com', `guess-${i}`, '192.0.2.80');
    expectRefused(await signin(api.url, 'locked@example.com', TEST_PASSWORD, '192.0.2.80'));
    const apply = await post(api.url, '/users/password/apply', { email: 'locked@example.com' }, '192.0.2.80');
    expect(apply.status).toBe(200);
    const token = resetKey('locked@example.com');
    const set = await post(api.url, '/users/password/set', { token, password: 'After-lockout-9' }, '192.0.2.81');
    expect(set.status).toBe(200);
    expect((await signin(api.url, 'locked@example.com', 'After-lockout-9', '192.0.2.80')).status).toBe(200);
    // The count starts again from nothing.
    expect((await signin(api.url, 'locked@example.com', TEST_PASSWORD, '192.0.2.80')).status).toBe(209);
  });

  it('limits failed sign-ins per client address, whichever accounts they try', async () => {
    const client = '203.0.113.7';
    await api.user('sprayed@example.com');
    for (let i = 0; i < 49; i++) {
      const wrong = await signin(api.url, `spray-${Math.floor(i / 10)}@example.com`, 'Summer2026!', client);
      expect(wrong.status).toBe(209);
    }
    // A good sign-in from the same address is not counted against it.
    expect((await signin(api.url, 'sprayed@example.com', TEST_PASSWORD, client)).status).toBe(200);
    expect((await signin(api.url, 'spray-last@example.com', 'Summer2026!', client)).status).toBe(209);
    expectRefused(await signin(api.url, 'sprayed@example.com', TEST_PASSWORD, client));
    expect((await signin(api.url, 'sprayed@example.com', TEST_PASSWORD, '203.0.113.8')).status).toBe(200);
  });

  it('takes as long to refuse an unknown address as a known one', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    const timed = async (email: string, into: number[]) => {
      const started = performance.now();
      const answer = await signin(api.url, email, 'not-the-password', '198.51.100.20');
      into.push(performance.now() - started);
      expect(answer.status).toBe(209);
    };
    await api.user('timed@example.com');
    await api.db('users').insert({ email: 'timed-google@example.com', auth_provider: 'google', google_sub: 'g-timed' });
    // One of each first, so that neither side pays a first call's setup in the medians.
    await timed('timed@example.com', []);
    await timed('nobody-timed@example.com', []);
    for (let i = 0; i < 4; i++) {
      await timed('timed@example.com', known);
      await timed(`nobody-${i}@example.com`, unknown);
      await timed('timed-google@example.com', unknown);
      await timed('timed@example.com', known);
    }
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});

describe('lookup and reset limits', () => {
  it('limits email-signup-auth per client address', async () => {
    for (let i = 0; i < 60; i++) {
      const lookup = await post(api.url, '/users/email-signup-auth', { email: `who-${i}@example.com` }, '198.51.100.9');
      expect(lookup.status).toBe(200);
    }
    expectRefused(await post(api.url, '/users/email-signup-auth', { email: 'who@example.com' }, '198.51.100.9'));
    const elsewhere = await post(api.url, '/users/email-signup-auth', { email: 'who@example.com' }, '198.51.100.10');
    expect(elsewhere.body.data.status_code).toBe('email_next');
  });

  it('sends at most 5 reset mails per account, counted across processes', async () => {
    await api.user('flooded@example.com');
    const other = await startAnother();
    for (let i = 0; i < 5; i++) {
      const apply = await post(
        i % 2 ? other : api.url,
        '/users/password/apply',
        { email: 'flooded@example.com' },
        `192.0.2.9${i}`,
      );
      expect(apply.status).toBe(200);
    }
    expectRefused(await post(api.url, '/users/password/apply', { email: 'flooded@example.com' }, '192.0.2.99'));
  });
});
