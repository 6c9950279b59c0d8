/**
 * Three built API processes behind HAProxy with `deploy/haproxy.cfg`, on PostgreSQL (PGlite is one process's own).
 * Which process answered a request is read from the processes' JSON logs, by the request id each call sends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { IDEMPOTENCY_KEY_HEADER } from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from './db';
import { type BuiltServer, buildServerForTest, startBuiltServer } from './testing/builtServer';
import { freePort } from './testing/freePort';
import { costItem, createPlan, rolesAt, startTestApi, TEST_PASSWORD } from './testing/harness';

const databaseUrl = process.env.TEST_DATABASE_URL || undefined;
const APP_SECRET = 'test-secret-test-secret-test-secret-0123';
const CONFIG = resolve(import.meta.dirname, '..', '..', 'deploy', 'haproxy.cfg');
const cleanups: (() => unknown)[] = [];
let servers: BuiltServer[] = [];
let proxyUrl = '';
let db: Db;
/** Each plan's owner's token: a Team account owns three plans, so three owners share the nine. */
const tokens = new Map<number, string>();
let token = '';
const plans: { planId: number; caseId: number }[] = [];
/** A member of the first plan who can edit it, beside its owner. */
let memberToken = '';
let buildDir = '';
let serverEnv: Record<string, string> = {};

/** One call through HAProxy, as the web makes it (the plan's id in X-Plan-Id), under a request id of its own. */
async function call(method: 'GET' | 'POST', path: string, planId: number | null, body?: unknown, key?: string) {
  const requestId = `lb-${randomBytes(8).toString('hex')}`;
  const url = new URL(`/api/v1${path}`, proxyUrl);
  if (method === 'GET' && body && typeof body === 'object')
    for (const [key, value] of Object.entries(body)) url.searchParams.set(key, String(value));
  const response = await fetch(url, {
    method,
    headers: {
      'X-Requested-With': 'XMLHttpRequest',
      'X-Request-Id': requestId,
      Authorization: `Bearer ${(planId === null ? undefined : tokens.get(planId)) ?? token}`,
      ...(planId === null ? {} : { 'X-Plan-Id': String(planId) }),
      ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
      ...(key ? { [IDEMPOTENCY_KEY_HEADER]: key } : {}),
    },
    ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, text: await response.text(), requestId };
}

/**
 * A write as the web sends it: under an idempotency key of its own, sent again under the same key while no process
 * answers it (a dropped connection, HAProxy's 502 or 503), up to five tries.
 */
async function write(path: string, planId: number, body: unknown) {
  const key = randomUUID();
  for (let attempt = 1; ; attempt++) {
    const answer = await call('POST', path, planId, body, key).catch(() => ({ status: 0, text: '', requestId: '' }));
    if (![0, 502, 503, 504].includes(answer.status) || attempt === 5) return { ...answer, attempts: attempt };
    await new Promise((done) => setTimeout(done, 400 * attempt));
  }
}

/** The index of the process whose log has this request id, or -1. */
const answeredBy = (requestId: string) =>
  servers.findIndex((server) => server.lines().some((line) => line.requestId === requestId));

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((done) => setTimeout(done, 200));
  }
}

describe.skipIf(!databaseUrl)('several API processes behind HAProxy', () => {
  beforeAll(async () => {
    const build = await buildServerForTest();
    cleanups.push(build.remove);
    const setup = await startTestApi({ env: { APP_SECRET } });
    cleanups.push(() => setup.close());
    const owners = [];
    for (let i = 0; i < 3; i++) {
      const owner = await setup.user(`balanced${i}@example.com`, 'team');
      owners.push(owner);
      for (let j = 0; j < 3; j++) {
        const plan = await createPlan(setup, owner.token, { business_plan_name: `Plan ${i}.${j}` });
        plans.push(plan);
        tokens.set(plan.planId, owner.token);
      }
    }
    const owner = owners[0] ?? { user: { email: '' }, token: '' };
    const added = await setup.call('POST', '/authority/add', {
      token: owner.token,
      body: { business_plan_id: plans[0]?.planId, email: 'balanced-member@example.com', ...rolesAt('can_edit') },
    });
    expect(added.status).toBe(200);
    memberToken = (await setup.user('balanced-member@example.com', 'free')).token;
    await setup.stop();
    db = openDb({ databaseUrl, ...(setup.schema ? { schema: setup.schema } : {}) });
    cleanups.push(() => db.destroy());
    const target = new URL(databaseUrl ?? '');
    target.searchParams.set('options', `-c search_path=${setup.schema}`);
    const env = {
      DATABASE_URL: target.href,
      DATA_DIR: setup.dataDir,
      APP_SECRET,
      MIGRATE_AT_START: 'false',
      TRUST_PROXY: '127.0.0.1',
    };
    buildDir = build.dir;
    serverEnv = env;
    servers = await Promise.all([0, 1, 2].map(() => startBuiltServer(build.dir, env)));
    cleanups.push(() => Promise.all(servers.map((server) => server.kill('SIGKILL'))));
    const port = await freePort();
    const ports = servers.map((server) => new URL(server.url).host);
    const proxy: ChildProcess = spawn('haproxy', ['-db', '-f', CONFIG], {
      env: { ...process.env, TOPLINE_BIND: `127.0.0.1:${port}`, API1: ports[0], API2: ports[1], API3: ports[2] },
      stdio: 'ignore',
    });
    cleanups.push(() => {
      proxy.kill('SIGKILL');
    });
    proxyUrl = `http://127.0.0.1:${port}`;
    // Every process up in HAProxy's eyes: requests about no plan reach each of them.
    await waitUntil(async () => {
      const seen = new Set<number>();
      for (let i = 0; i < 9; i++) {
        const ready = await call('GET', '/ready', null).catch(() => null);
        if (ready?.status === 200) seen.add(answeredBy(ready.requestId));
      }
      return seen.size === 3;
    }, 30_000);
    const signin = await call('POST', '/users/email-signin', null, {
      email: owner.user.email,
      password: TEST_PASSWORD,
    });
    token = (JSON.parse(signin.text) as { app_token: string }).app_token;
  }, 240_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }, 60_000);

  /**
   * The owners' mixed load (four reads to a write) over every plan, for `ms` and ten calls a worker at least; every
   * answer, with the name of the cost item each write made.
   */
  async function load(ms: number, workers: number) {
    const answers: {
      planId: number;
      status: number;
      write: boolean;
      requestId: string;
      name?: string;
      attempts?: number;
    }[] = [];
    const until = Date.now() + ms;
    await Promise.all(
      Array.from({ length: workers }, async (_, worker) => {
        for (let n = 0; n < 10 || Date.now() < until; n++) {
          const { planId, caseId } = plans[(worker + n) % plans.length] ?? { planId: 0, caseId: 0 };
          if ((n + worker) % 5 === 0) {
            const name = `Load ${randomBytes(6).toString('hex')}`;
            const item = costItem({ item_name: name });
            const written = await write('/cost/create', planId, { business_plan_id: planId, case_id: caseId, item });
            answers.push({
              planId,
              status: written.status,
              write: true,
              requestId: written.requestId,
              name,
              attempts: written.attempts,
            });
            if (written.status !== 200) continue;
            // Read at once: the write is there, whichever process answers.
            const read = await call('GET', '/cost/retrieve', planId, { business_plan_id: planId, case_id: caseId });
            answers.push({
              planId,
              status: read.text.includes(name) ? read.status : -1,
              write: false,
              requestId: read.requestId,
            });
          } else {
            const read = await call('GET', '/pl/retrieve', planId, { business_plan_id: planId });
            answers.push({ planId, status: read.status, write: false, requestId: read.requestId });
          }
        }
      }),
    );
    return answers;
  }

  it('answers a mixed load without an error, each plan on one process, every write read back at once', async () => {
    const answers = await load(4_000, 4);
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(answers.filter((answer) => answer.write).length).toBeGreaterThan(3);
    const processesOf = new Map<number, Set<number>>();
    for (const answer of answers) {
      const set = processesOf.get(answer.planId) ?? new Set<number>();
      set.add(answeredBy(answer.requestId));
      processesOf.set(answer.planId, set);
    }
    for (const [, set] of processesOf) expect([...set].length).toBe(1);
    // Nine plans spread over more than one process.
    expect(new Set([...processesOf.values()].map((set) => [...set][0])).size).toBeGreaterThan(1);
  }, 120_000);

  it('routes a plan by its JSON body too, when the request names it nowhere else', async () => {
    for (const { planId, caseId } of plans.slice(0, 4)) {
      const read = await call('GET', '/pl/retrieve', planId, { business_plan_id: planId });
      const requestId = `lb-${randomBytes(8).toString('hex')}`;
      const written = await fetch(new URL('/api/v1/cost/create', proxyUrl), {
        method: 'POST',
        headers: {
          'X-Requested-With': 'XMLHttpRequest',
          'X-Request-Id': requestId,
          Authorization: `Bearer ${tokens.get(planId)}`,
          'Content-Type': 'application/json; charset=utf-8',
        },
        body: JSON.stringify({ business_plan_id: planId, case_id: caseId, item: costItem({ item_name: 'Routed' }) }),
      });
      expect(written.status).toBe(200);
      expect(answeredBy(requestId)).toBe(answeredBy(read.requestId));
    }
  }, 60_000);

  it("shows one user's write to another user of the plan within a second, whichever process answers", async () => {
    const { planId, caseId } = plans[0] ?? { planId: 0, caseId: 0 };
    const costs = (server: BuiltServer) =>
      fetch(new URL(`/api/v1/cost/retrieve?business_plan_id=${planId}&case_id=${caseId}`, server.url), {
        headers: { 'X-Requested-With': 'XMLHttpRequest', Authorization: `Bearer ${memberToken}` },
      }).then(async (answer) => ({ status: answer.status, text: await answer.text() }));
    // The member has read the plan on every process: each holds its access and its workbook.
    for (const server of servers) expect((await costs(server)).status).toBe(200);
    const name = `Shared ${randomBytes(6).toString('hex')}`;
    const written = await write('/cost/create', planId, {
      business_plan_id: planId,
      case_id: caseId,
      item: costItem({ item_name: name }),
    });
    expect(written.status).toBe(200);
    const acknowledged = Date.now();
    const seenAfter = await Promise.all(
      servers.map(async (server) => {
        while (!(await costs(server)).text.includes(name)) {
          if (Date.now() - acknowledged > 5_000) return Number.POSITIVE_INFINITY;
          await new Promise((done) => setTimeout(done, 25));
        }
        return Date.now() - acknowledged;
      }),
    );
    for (const ms of seenAfter) expect(ms).toBeLessThanOrEqual(1_000);
  }, 60_000);

  it('loses no acknowledged write when a process is killed, and moves its plans to the others', async () => {
    const before = await call('GET', '/pl/retrieve', plans[0]?.planId ?? 0, {
      business_plan_id: plans[0]?.planId ?? 0,
    });
    const victim = answeredBy(before.requestId);
    expect(victim).toBeGreaterThanOrEqual(0);
    const running = load(5_000, 4);
    await new Promise((done) => setTimeout(done, 1_000));
    await servers[victim]?.kill('SIGKILL');
    const answers = await running;
    // A read is retried on another process by HAProxy. A write in flight to the killed one is sent again under its
    // key, by HAProxy or by the client: it is applied once, and answered (or, when the process that applied it died
    // before it answered, said to be saved already).
    expect(answers.filter((answer) => !answer.write && answer.status !== 200)).toEqual([]);
    const writes = answers.filter((answer) => answer.write);
    expect(writes.filter((answer) => answer.status !== 200 && answer.status !== 409)).toEqual([]);
    const all = writes.map((a) => a.name ?? '');
    const stored = (await db('cost_items').whereIn('item_name', all).select('item_name')).map(
      (row: { item_name: string }) => row.item_name,
    );
    expect(stored.length).toBe(new Set(stored).size);
    expect(new Set(stored)).toEqual(new Set(all));
    const after = await call('GET', '/pl/retrieve', plans[0]?.planId ?? 0, { business_plan_id: plans[0]?.planId ?? 0 });
    expect(after.status).toBe(200);
    const now = answeredBy(after.requestId);
    expect(now).not.toBe(victim);
    expect(now).toBeGreaterThanOrEqual(0);

    // Restarted on its address, the process rejoins and takes its plans back once HAProxy's checks pass.
    const port = new URL(servers[victim]?.url ?? '').port;
    const restarted = await startBuiltServer(buildDir, { ...serverEnv, PORT: port });
    servers[victim] = restarted;
    await waitUntil(async () => {
      const read = await call('GET', '/pl/retrieve', plans[0]?.planId ?? 0, {
        business_plan_id: plans[0]?.planId ?? 0,
      });
      return read.status === 200 && answeredBy(read.requestId) === victim;
    }, 15_000);
  }, 120_000);
});
