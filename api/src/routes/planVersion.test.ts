/**
 * Which version of a plan a screen read answers (`Plan-Version`): every write committed before the read, and at least
 * the version the caller names; the answer names the version it was read at. Then the same under concurrent writers.
 */
import { PLAN_VERSION_HEADER, planMonth } from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, createPlan, startTestApi, type TestApi } from '../testing/harness';

let api: TestApi;
let token: string;
let planId: number;
let caseId: number;

beforeAll(async () => {
  api = await startTestApi();
  ({ token } = await api.user('versions@example.com', 'team'));
  ({ planId, caseId } = await createPlan(api, token));
});
afterAll(async () => {
  await api.close();
});

const versionOf = (answer: Answer) => Number(answer.headers.get(PLAN_VERSION_HEADER));
const dbVersion = async () => Number((await api.db('business_plans').where({ id: planId }).first('version')).version);

/** The annual P&L, naming a version seen (or none); answers the first case's year-1 COGS and the version read. */
async function readPl(seen?: number) {
  const answer = await api.call('GET', '/pl/retrieve', {
    token,
    query: { business_plan_id: planId },
    ...(seen === undefined ? {} : { headers: { [PLAN_VERSION_HEADER]: String(seen) } }),
  });
  expect(answer.status).toBe(200);
  return { version: versionOf(answer), cogs: answer.body.data.values[0].pl[0].cogs as number };
}

async function editCogsRate(value: number) {
  const answer = await api.call('POST', '/case/edit', {
    token,
    body: { business_plan_id: planId, case_id: caseId, year: 1, key: 'cogs_rate', value },
  });
  expect(answer.status).toBe(200);
  return versionOf(answer);
}

describe('the version a screen read answers', () => {
  it('gives every read the writes committed before it, whatever version the caller names, never going back', async () => {
    const first = await readPl();
    expect(first.version).toBe(await dbVersion());

    const written = await editCogsRate(0.5);
    expect(written).toBe(first.version + 1);
    // Someone who has seen only the earlier version reads the write committed before the read, named as such.
    const behind = await readPl(first.version);
    expect(behind.version).toBe(written);
    expect(behind.cogs).not.toBe(first.cogs);
    // The writer names the version its write answered: it reads its own write.
    const own = await readPl(written);
    expect(own).toEqual(behind);
    // A read that names nothing gets every write committed before it.
    expect(await readPl()).toEqual(own);

    // The next write is read at once by a reader who has not seen it.
    const next = await editCogsRate(0.45);
    const caughtUp = await readPl(written);
    expect(caughtUp.version).toBe(next);
    expect(caughtUp.cogs).not.toBe(own.cogs);
    expect(caughtUp).toEqual(await readPl());
  });

  it('answers a version beyond the plan’s at the plan’s, and refuses one that is not a version', async () => {
    const current = await dbVersion();
    const ahead = await readPl(current + 100);
    expect(ahead.version).toBe(current);

    const garbage = await api.call('GET', '/pl/retrieve', {
      token,
      query: { business_plan_id: planId },
      headers: { [PLAN_VERSION_HEADER]: 'latest' },
    });
    expect(garbage.status).toBe(400);
    expect(garbage.body.errors?.[PLAN_VERSION_HEADER] ?? garbage.body.message).toMatch(/Plan-Version/);
  });
});

describe('concurrent writers', () => {
  let live: TestApi;
  let liveToken: string;
  let livePlan: number;
  let liveCase: number;
  beforeAll(async () => {
    live = await startTestApi();
    ({ token: liveToken } = await live.user('versions-live@example.com', 'team'));
    ({ planId: livePlan, caseId: liveCase } = await createPlan(live, liveToken));
  });
  afterAll(async () => {
    await live.close();
  });

  it('gives each writer its own write at once and never goes back, on the screens and in the plan file', async () => {
    const WRITERS = 8;
    const ROUNDS = 6;
    const before = Number((await live.db('business_plans').where({ id: livePlan }).first('version')).version);
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        // Each writer owns one month's equity raised, so the value it reads back can only be its own.
        const month = writer + 1;
        let seen = 0;
        for (let round = 1; round <= ROUNDS; round++) {
          const value = 1_000_000 * month + round;
          const written = await live.call('POST', '/pl/monthly/cashflow/edit', {
            token: liveToken,
            body: { business_plan_id: livePlan, case_id: liveCase, year: 1, month, equity_raised: value },
          });
          expect(written.status).toBe(200);
          const version = versionOf(written);
          expect(version).toBeGreaterThan(seen);
          seen = version;
          const headers = { [PLAN_VERSION_HEADER]: String(seen) };
          // The screens (a lookup once an answer of the version is kept) and the plan file.
          for (const path of ['/pl/retrieve', '/dashboard/retrieve', '/pl/monthly/retrieve']) {
            const query = { business_plan_id: livePlan, case_id: liveCase, year: 1 };
            const screen = await live.call('GET', path, { token: liveToken, query, headers });
            expect(screen.status).toBe(200);
            expect(versionOf(screen)).toBeGreaterThanOrEqual(seen);
            seen = versionOf(screen);
          }
          const file = await live.call('GET', '/business-plan/file', {
            token: liveToken,
            query: { business_plan_id: livePlan },
            headers: { [PLAN_VERSION_HEADER]: String(seen) },
          });
          expect(file.status).toBe(200);
          expect(versionOf(file)).toBeGreaterThanOrEqual(seen);
          expect(file.body.data.plan.cases[0].cash[String(planMonth(1, month))].equity_raised).toBe(value);
          seen = versionOf(file);
        }
      }),
    );
    // Every write committed, one version each, and the plan reads as the last round of each writer.
    const after = await live.db('business_plans').where({ id: livePlan }).first('version');
    expect(Number(after.version)).toBe(before + WRITERS * ROUNDS);
    const last = await live.call('GET', '/business-plan/file', {
      token: liveToken,
      query: { business_plan_id: livePlan },
    });
    for (let month = 1; month <= WRITERS; month++) {
      expect(last.body.data.plan.cases[0].cash[String(planMonth(1, month))].equity_raised).toBe(
        1_000_000 * month + ROUNDS,
      );
    }
  });
});
