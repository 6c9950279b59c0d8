import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CsvPath, DataOf, MultipartRoute } from '@topline/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type AnswerAt, api, configureClient, errorFor, fieldErrorsOf, isPanelRefusal, limitOf } from './client';

const t = (key: string) => `t:${key}`;

describe('API error mapping', () => {
  it('treats a tier lock as a lock, not a sign-out', () => {
    const error = errorFor(403, 'GET', { title: 'Upgrade', message: 'locked', code: 'tier_lock' }, t);
    expect([error.code, error.title, error.message]).toEqual(['tier_lock', 'Upgrade', 'locked']);
    expect(isPanelRefusal(error)).toBe(true);
  });

  it('treats a refusal by role as no access, with the permission message', () => {
    const error = errorFor(403, 'POST', { title: 'Forbidden', message: 'x', code: 'no_access' }, t);
    expect([error.code, error.message]).toEqual(['no_access', 't:errors.noPermission']);
    expect(isPanelRefusal(error)).toBe(true);
  });

  it('signs out on 401 and on 403s that are neither a lock nor a refusal by role', () => {
    expect(errorFor(401, 'GET', null, t).code).toBe('unauthorized');
    expect(errorFor(403, 'POST', { title: 'Forbidden', message: 'no' }, t).code).toBe('unauthorized');
    // The old body named the refusal in `reason`; without `code` it is not a panel refusal.
    expect(errorFor(403, 'GET', { title: 'Upgrade', message: 'locked', reason: 'tier_lock' }, t).code).toBe(
      'unauthorized',
    );
  });

  it('uses the server title and message, else the catalogue', () => {
    const fromServer = errorFor(400, 'POST', { title: 'Bad Request', message: 'arr: too small', code: 'invalid' }, t);
    expect([fromServer.title, fromServer.message, fromServer.code]).toEqual([
      'Bad Request',
      'arr: too small',
      'invalid',
    ]);
    const fallback = errorFor(400, 'POST', null, t);
    expect([fallback.title, fallback.message, fallback.code]).toEqual([
      't:errors.badRequest.title',
      't:errors.badRequest.message',
      'invalid',
    ]);
    expect(errorFor(500, 'GET', null, t).message).toBe('t:errors.internal.message');
    expect(errorFor(500, 'POST', null, t).message).toBe('t:errors.unexpected');
    expect(errorFor(502, 'GET', '<html>Bad Gateway</html>', t).code).toBe('internal');
  });

  it('keeps the per-field messages and the limit of a refusal', () => {
    const body = {
      title: 'Bad Request',
      message: 'a plan holds at most 3 cases',
      code: 'limit',
      errors: { case_name: 'a plan holds at most 3 cases' },
      limit: { name: 'cases', max: 3, value: 4 },
    };
    const error = errorFor(400, 'POST', body, t);
    expect(fieldErrorsOf(error)).toEqual({ case_name: 'a plan holds at most 3 cases' });
    expect(limitOf(error)).toEqual({ name: 'cases', max: 3, value: 4 });
    expect(isPanelRefusal(error)).toBe(false);
    expect(fieldErrorsOf(new Error('x'))).toEqual({});
    expect(limitOf(null)).toBeNull();
  });
});

describe('typed calls', () => {
  it("takes a call's request and answer types from the route at its path", () => {
    // Never called: the checks are the compiler's (the tests are type-checked with the web).
    const calls = async () => {
      // @ts-expect-error an unknown path does not compile
      await api.get('/pl/unknown', { query: { business_plan_id: 1 } });
      // @ts-expect-error a GET path is not a POST path
      await api.post('/pl/retrieve', { business_plan_id: 1 });
      // @ts-expect-error a screen read needs the plan in its query
      await api.get('/pl/retrieve');
      // @ts-expect-error a multipart route takes a FormData
      await api.post('/business-plan/create', { business_plan_name: 'Plan' });
      // @ts-expect-error a per-year edit names one of the contract's keys
      await api.post('/case/edit', { business_plan_id: 1, case_id: 2, year: 1, key: 'arr_typo', value: 1 });
      await api.post('/business-plan/create', new FormData());
      await api.post('/case/edit', { business_plan_id: 1, case_id: 2, year: 1, key: 'arr', value: null });
      const me = await api.get('/user/me');
      expectTypeOf(me.data.user.plan.can_create_plan).toEqualTypeOf<boolean>();
    };
    expectTypeOf<AnswerAt<'/kpi/retrieve'>>().toEqualTypeOf<DataOf<'kpiRetrieve'>>();
    expectTypeOf<MultipartRoute>().toEqualTypeOf<'planCreate' | 'planEdit' | 'xlsxImport'>();
    expectTypeOf<CsvPath>().toEqualTypeOf<
      '/pl/csv' | '/revenue/csv' | '/kpi/csv' | '/pl/monthly/csv' | '/pl/compare/csv'
    >();
    expect(calls).toBeTypeOf('function');
  });
});

describe('a write that no API process answers', () => {
  /** A server that drops the first `drops` connections, then answers; every request's Idempotency-Key, in order. */
  async function flakyServer(drops: number, answer: (res: ServerResponse) => void) {
    const keys: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      keys.push(req.headers['idempotency-key'] as string | undefined);
      req.resume();
      if (keys.length <= drops) req.socket.destroy();
      else answer(res);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const previous = (globalThis as { window?: unknown }).window;
    (globalThis as { window?: unknown }).window = {
      location: { origin: `http://127.0.0.1:${port}` },
      localStorage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
    };
    return {
      keys,
      close: async () => {
        (globalThis as { window?: unknown }).window = previous;
        await new Promise((done) => server.close(done));
      },
    };
  }
  const json = (status: number, body: unknown) => (res: ServerResponse) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  it('is sent again under the same Idempotency-Key until a process answers', async () => {
    const server = await flakyServer(2, json(200, { data: { cost_id: 7 } }));
    try {
      const answer = await api.post('/cost/delete', { business_plan_id: 1, case_id: 1, cost_id: 7 }, { quiet: true });
      expect(answer.status).toBe(200);
      expect(server.keys).toHaveLength(3);
      expect(server.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set(server.keys).size).toBe(1);
    } finally {
      await server.close();
    }
  }, 10_000);

  it("is not sent again once the API has answered, even a 503 of the API's own", async () => {
    const server = await flakyServer(0, json(503, { title: 'Unavailable', message: 'billing', code: 'unavailable' }));
    try {
      const refused = api.post('/cost/delete', { business_plan_id: 1, case_id: 1, cost_id: 7 }, { quiet: true });
      await expect(refused).rejects.toMatchObject({ status: 503, code: 'unavailable' });
      expect(server.keys).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('makes a new key for each write', async () => {
    const server = await flakyServer(0, json(200, { data: {} }));
    try {
      for (let i = 0; i < 2; i++) await api.post('/cost/delete', { business_plan_id: 1, case_id: 1, cost_id: i + 1 });
      expect(new Set(server.keys).size).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe('a GET read ahead', () => {
  /**
   * An API that answers each GET with `answer(path)` (status, body, plan version), counting the requests of each path
   * and query; the browser's window with a token the test sets.
   */
  async function aheadServer(answer: (path: string) => { status: number; body: unknown; version?: number }) {
    const requests = new Map<string, number>();
    const server = createServer((req, res) => {
      const path = (req.url ?? '').replace('/api/v1', '');
      requests.set(path, (requests.get(path) ?? 0) + 1);
      const { status, body, version } = answer(path.replace(/\?.*/, ''));
      res.writeHead(status, {
        'Content-Type': 'application/json',
        ...(version === undefined ? {} : { 'Plan-Version': String(version) }),
      });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const previous = (globalThis as { window?: unknown }).window;
    const storage = new Map<string, string>([['topline.app_token', 'token-a']]);
    (globalThis as { window?: unknown }).window = {
      location: { origin: `http://127.0.0.1:${port}`, pathname: '/' },
      localStorage: {
        getItem: (key: string) => storage.get(key) ?? null,
        setItem: (key: string, value: string) => storage.set(key, value),
        removeItem: (key: string) => storage.delete(key),
      },
    };
    return {
      requests,
      setToken: (token: string) => storage.set('topline.app_token', token),
      close: async () => {
        (globalThis as { window?: unknown }).window = previous;
        await new Promise((done) => server.close(done));
      },
    };
  }
  const settled = () => new Promise((done) => setTimeout(done, 100));

  it('is sent at once and taken by the first call of the same request; a later call asks again', async () => {
    const server = await aheadServer(() => ({ status: 200, body: { data: { todos: ['a'] } }, version: 4 }));
    try {
      // Its data comes back for reading further ahead; the call that takes it gets the same answer.
      const peek = api.readAhead('/todos/retrieve', { query: { business_plan_id: 101 } });
      expect(await peek).toEqual({ todos: ['a'] });
      expect(server.requests.get('/todos/retrieve?business_plan_id=101')).toBe(1);
      const first = await api.get('/todos/retrieve', { query: { business_plan_id: 101 } });
      expect(first.data).toEqual({ todos: ['a'] });
      expect(first.version).toBe(4);
      expect(server.requests.get('/todos/retrieve?business_plan_id=101')).toBe(1);
      await api.get('/todos/retrieve', { query: { business_plan_id: 101 } });
      expect(server.requests.get('/todos/retrieve?business_plan_id=101')).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('is not taken by another request: another query, or the same under another token', async () => {
    const server = await aheadServer(() => ({ status: 200, body: { data: {} } }));
    try {
      api.readAhead('/todos/retrieve', { query: { business_plan_id: 102 } });
      await api.get('/todos/retrieve', { query: { business_plan_id: 103 } });
      server.setToken('token-b');
      await api.get('/todos/retrieve', { query: { business_plan_id: 102 } });
      expect(server.requests.get('/todos/retrieve?business_plan_id=102')).toBe(2);
      expect(server.requests.get('/todos/retrieve?business_plan_id=103')).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("leaves a refusal to the call that takes it, under that call's hooks and options", async () => {
    const server = await aheadServer(() => ({ status: 401, body: { title: 'Sign in', message: 'expired' } }));
    const signedOut: string[] = [];
    configureClient({ onUnauthorized: () => signedOut.push('out') });
    try {
      // A refusal reads as nothing ahead, and signs no one out until a call takes it.
      expect(await api.readAhead('/user/me')).toBeNull();
      expect(signedOut).toEqual([]);
      await expect(api.get('/user/me', { quiet: true })).rejects.toMatchObject({ code: 'unauthorized' });
      expect(signedOut).toEqual(['out']);
      expect(server.requests.get('/user/me')).toBe(1);
    } finally {
      configureClient({ onUnauthorized: () => {} });
      await server.close();
    }
  });

  it('is not taken when it is older than the plan version the call asks for', async () => {
    let todosVersion = 5;
    const server = await aheadServer((path) =>
      path === '/todos/retrieve'
        ? { status: 200, body: { data: { version: todosVersion } }, version: todosVersion }
        : { status: 200, body: { data: {} }, version: 7 },
    );
    try {
      // Read ahead at version 5; another answer then shows version 7, which the next call of the plan asks for.
      api.readAhead('/todos/retrieve', { query: { business_plan_id: 104 } });
      await settled();
      await api.get('/home/retrieve', { query: { business_plan_id: 104 } });
      todosVersion = 7;
      const answer = await api.get('/todos/retrieve', { query: { business_plan_id: 104 } });
      expect(answer.data).toEqual({ version: 7 });
      expect(server.requests.get('/todos/retrieve?business_plan_id=104')).toBe(2);
      // One of the version asked for, or newer, is taken.
      api.readAhead('/todos/retrieve', { query: { business_plan_id: 104 } });
      await settled();
      await api.get('/todos/retrieve', { query: { business_plan_id: 104 } });
      expect(server.requests.get('/todos/retrieve?business_plan_id=104')).toBe(3);
    } finally {
      await server.close();
    }
  });
});
