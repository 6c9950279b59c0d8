import { AREAS, planMonth } from '@topline/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApiProcess } from './testing/apiProcess';
import { checkAnswer, planForm, startTestApi } from './testing/harness';

/**
 * What the API acknowledged stays: the API runs in a child process, is killed with SIGKILL while writes are in flight
 * and restarted on the same storage, and every write it answered with success reads back. On PostgreSQL, two API
 * processes share one database and a write acknowledged by one reads back through the other at once.
 */
const databaseUrl = process.env.TEST_DATABASE_URL || undefined;
const processes: ApiProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const child of processes) await child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field and assert every value they use
  body: any;
  text: string;
  /** The plan version the answer reflects at least (`Plan-Version`), 0 without one. */
  version: number;
}

/** A call to a process; 0 when it answered nothing (killed, refused). */
async function call(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  options: { token: string; body?: object; query?: Record<string, string | number>; version?: number },
): Promise<Answer> {
  const target = new URL(`/api/v1${path}`, base);
  for (const [k, v] of Object.entries(options.query ?? {})) target.searchParams.set(k, String(v));
  const headers: Record<string, string> = {
    'X-Requested-With': 'XMLHttpRequest',
    Authorization: `Bearer ${options.token}`,
  };
  if (options.body) headers['Content-Type'] = 'application/json';
  if (options.version !== undefined) headers['Plan-Version'] = String(options.version);
  try {
    const response = await fetch(target, {
      method,
      headers,
      ...(options.body ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    const body = (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : null;
    checkAnswer(method, path, response.status, body);
    return { status: response.status, body, text, version: Number(response.headers.get('plan-version') ?? 0) };
  } catch (error) {
    if (error instanceof TypeError) return { status: 0, body: null, text: '', version: 0 };
    throw error;
  }
}

/** A Team owner with a plan, made through the in-process API, which is then stopped: its storage stays. */
async function preparedStorage() {
  const setup = await startTestApi();
  const owner = await setup.user('durable-owner@example.com', 'team');
  const created = await setup.call('POST', '/business-plan/create', { token: owner.token, form: planForm() });
  expect(created.status).toBe(201);
  const planId: number = created.body.data.business_plan_id;
  const caseId = Number((await setup.db('cases').where({ plan_id: planId }).first('id')).id);
  const member = 'durable-member@example.com';
  const roles = Object.fromEntries(AREAS.map((area) => [area, 'can_view']));
  const add = await setup.call('POST', '/authority/add', {
    token: owner.token,
    body: { business_plan_id: planId, email: member, ...roles },
  });
  expect(add.status).toBe(200);
  const memberToken = (await setup.user(member, 'free')).token;
  await setup.stop();
  const reuse = { dataDir: setup.dataDir, schema: setup.schema };
  cleanups.push(async () => (await startTestApi({ reuse })).close());
  const env: Record<string, string> = {
    DATA_DIR: setup.dataDir,
    APP_SECRET: setup.config.APP_SECRET,
    DATABASE_URL: databaseUrl ?? '',
    DATABASE_SCHEMA: setup.schema ?? '',
  };
  return { env, token: owner.token, memberToken, planId, caseId, roles };
}

async function started(env: Record<string, string>): Promise<ApiProcess> {
  const child = await startApiProcess(env);
  processes.push(child);
  return child;
}

interface Write {
  path: string;
  body: Record<string, unknown>;
  /** The value the plan file shows for this write's cell, if any. */
  read(plan: PlanFile): unknown;
  value: number;
}
type PlanFile = {
  cases: { cash: Record<string, Record<string, number>>; years: Record<string, Record<string, number>> }[];
};

/** Writes to distinct cells, cash-flow months and per-year assumptions interleaved, each with a value of its own. */
function distinctWrites(planId: number, caseId: number): Write[] {
  const cash: Write[] = [];
  const years: Write[] = [];
  for (let year = 1; year <= 5; year++) {
    for (let month = 1; month <= 12; month++) {
      const value = 1000 * (year * 100 + month);
      cash.push({
        path: '/pl/monthly/cashflow/edit',
        body: { business_plan_id: planId, case_id: caseId, year, month, equity_raised: value },
        read: (plan) => plan.cases[0]?.cash[String(planMonth(year, month))]?.equity_raised,
        value,
      });
    }
    for (const [k, key] of ['sm_rate', 'rd_rate', 'ga_rate', 'cogs_rate'].entries()) {
      const value = (year * 10 + k + 1) / 1000;
      years.push({
        path: '/case/edit',
        body: { business_plan_id: planId, case_id: caseId, year, key, value },
        read: (plan) => plan.cases[0]?.years[String(year)]?.[key],
        value,
      });
    }
  }
  return cash.flatMap((write, i) => (i % 3 === 0 && years[i / 3] ? [write, years[i / 3] as Write] : [write]));
}

/**
 * Sends `writes` from `workers` concurrent senders until `killAfter` are acknowledged, then kills the process with
 * SIGKILL as the next write goes out, while the others are in flight. Answers the writes acknowledged and those sent
 * but not acknowledged.
 */
async function writeUntilKilled(api: ApiProcess, token: string, writes: Write[], killAfter: number, workers = 6) {
  const acknowledged: Write[] = [];
  const unanswered: Write[] = [];
  let next = 0;
  let killed: Promise<void> | undefined;
  const worker = async () => {
    while (!killed && next < writes.length) {
      const write = writes[next++] as Write;
      const sent = call(api.url, 'POST', write.path, { token, body: write.body });
      if (acknowledged.length >= killAfter) killed ??= api.kill('SIGKILL');
      const answer = await sent;
      if (answer.status === 200) acknowledged.push(write);
      else {
        expect(answer.status).toBe(0);
        unanswered.push(write);
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  await killed;
  expect(await api.exited).toBe('SIGKILL');
  return { acknowledged, unanswered };
}

describe('the API killed during concurrent writes', () => {
  it('keeps every acknowledged write after a restart on the same storage', async () => {
    const { env, token, planId, caseId } = await preparedStorage();
    const writes = distinctWrites(planId, caseId);
    const acknowledged: Write[] = [];
    const unanswered: Write[] = [];
    let api = await started(env);
    let offset = 0;
    for (let round = 0; round < 2; round++) {
      const result = await writeUntilKilled(api, token, writes.slice(offset, offset + 40), 20);
      acknowledged.push(...result.acknowledged);
      unanswered.push(...result.unanswered);
      expect(result.acknowledged.length).toBeGreaterThanOrEqual(20);
      // Killed mid-stream: writes were in flight.
      expect(result.unanswered.length).toBeGreaterThan(0);
      offset += 40;
      // The restart opens what the killed process left, however it left it.
      api = await started(env);
      const file = await call(api.url, 'GET', '/business-plan/file', { token, query: { business_plan_id: planId } });
      expect(file.status).toBe(200);
      const plan = file.body.data.plan as PlanFile;
      const lost = acknowledged.filter((w) => w.read(plan) !== w.value).map((w) => w.body);
      expect(lost).toEqual([]);
      // A write that was not answered is there whole or not at all.
      for (const write of unanswered) expect([undefined, write.value]).toContain(write.read(plan));
      for (const path of ['/pl/retrieve', '/kpi/retrieve', '/pl/monthly/retrieve', '/home/retrieve']) {
        const read = await call(api.url, 'GET', path, { token, query: { business_plan_id: planId, case_id: caseId } });
        expect({ path, status: read.status }).toEqual({ path, status: 200 });
      }
    }
    await api.kill('SIGTERM');
    expect(await api.exited).toBe(0);
  });
});

/**
 * Polls `read` until `fresh` holds of its answer, for at most `ms`: a process answers warm reads from memory until
 * PostgreSQL's notification of another process's commit reaches it, which is not ordered before that commit's answer.
 */
async function soon(read: () => Promise<Answer>, fresh: (answer: Answer) => boolean, ms = 2000): Promise<Answer> {
  const until = performance.now() + ms;
  let answer = await read();
  while (!fresh(answer) && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    answer = await read();
  }
  return answer;
}

describe.runIf(Boolean(databaseUrl))('two API processes on one PostgreSQL', () => {
  it("read what the other acknowledged, and follow the other's role changes", async () => {
    const { env, token, memberToken, planId, caseId, roles } = await preparedStorage();
    const [one, other] = await Promise.all([started(env), started(env)]);
    const monthly = { business_plan_id: planId, case_id: caseId, year: 1 };
    const read = (api: ApiProcess, path: string, query: Record<string, number>, as = token, version?: number) =>
      call(api.url, 'GET', path, { token: as, query, ...(version === undefined ? {} : { version }) });
    // Both processes keep the plan's access and workbook warm.
    for (const api of [one, other]) {
      expect((await read(api, '/pl/monthly/retrieve', monthly)).status).toBe(200);
      expect((await read(api, '/kpi/retrieve', { business_plan_id: planId }, memberToken)).status).toBe(200);
    }
    const plan = { business_plan_id: planId };
    for (let i = 1; i <= 12; i++) {
      const [writer, reader] = i % 2 === 0 ? [one, other] : [other, one];
      const value = 1_000_000 + i;
      const body = { business_plan_id: planId, case_id: caseId, year: 1, month: i, equity_raised: value };
      const written = await call(writer.url, 'POST', '/pl/monthly/cashflow/edit', { token, body });
      expect(written.status).toBe(200);
      expect(written.version).toBeGreaterThan(0);
      // Sent back with the version its write was acknowledged at, the caller reads it through the other process at
      // once: no waiting for the database's notification.
      const file = await read(reader, '/business-plan/file', plan, token, written.version);
      expect(file.body.data.plan.cases[0].cash[String(planMonth(1, i))].equity_raised).toBe(value);
      expect(file.version).toBeGreaterThanOrEqual(written.version);
      // The screens of both processes agree: the reader read the plan afresh, the writer followed its own edit.
      const mine = await read(writer, '/pl/monthly/retrieve', monthly, token, written.version);
      const seen = await read(reader, '/pl/monthly/retrieve', monthly, token, written.version);
      expect(seen.text).toBe(mine.text);
    }
    // A version that is not one is refused by name.
    const bad = await call(one.url, 'GET', '/business-plan/file', { token, query: plan, version: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('Plan-Version');
    // Without the header, a warm process follows the other's commit once PostgreSQL's notification arrives.
    const unseen = { business_plan_id: planId, case_id: caseId, year: 1, month: 1, equity_raised: 7_000_000 };
    expect((await call(one.url, 'POST', '/pl/monthly/cashflow/edit', { token, body: unseen })).status).toBe(200);
    const followed = await soon(
      () => read(other, '/business-plan/file', plan),
      (answer) => answer.body?.data.plan.cases[0].cash[String(planMonth(1, 1))]?.equity_raised === 7_000_000,
    );
    expect(followed.body.data.plan.cases[0].cash[String(planMonth(1, 1))].equity_raised).toBe(7_000_000);
    // A role taken away through one process refuses the member through the other, and given back, admits.
    for (let i = 0; i < 4; i++) {
      const [writer, reader] = i % 2 === 0 ? [one, other] : [other, one];
      for (const kpi of ['no_access', 'can_view'] as const) {
        const body = { business_plan_id: planId, email: 'durable-member@example.com', ...roles, kpi };
        expect((await call(writer.url, 'POST', '/authority/edit', { token, body })).status).toBe(200);
        const status = kpi === 'no_access' ? 403 : 200;
        const answer = await soon(
          () => read(reader, '/kpi/retrieve', { business_plan_id: planId }, memberToken),
          (a) => a.status === status,
        );
        expect(answer.status).toBe(status);
      }
    }
  });
});
