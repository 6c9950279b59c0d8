import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForChanges, openDb } from '../../db';
import { planForm, rolesAt, startTestApi } from '../../testing/harness';
import { setTier } from '../accounts/users';
import type { SignedInFacts } from './access';
import { AccessCache } from './accessCache';

/**
 * Warm plan-scoped reads take access from memory (AccessCache); every change to who may read what must still show on
 * the very next call: changes through the API, straight in the database, and (on PostgreSQL) from another process.
 */
let api: Awaited<ReturnType<typeof startTestApi>>;
let ownerToken: string;
let ownerId: number;
let memberToken: string;
let planId: number;
const now = new Date('2026-06-15T00:00:00Z');

const readKpi = (token: string) => api.call('GET', '/kpi/retrieve', { token, query: { business_plan_id: planId } });

/**
 * Writes straight in the database and waits until the database has told the cache of it: PGlite tells before the
 * write resolves, PostgreSQL a moment later on the listening connection.
 */
async function writeHeard(write: () => Promise<unknown>): Promise<void> {
  const heard = api.accessCache.stats.heard;
  await write();
  await heardSince(heard);
}

/** Waits until the database has told the cache of `count` more changes than the `heard` it had told of. */
async function heardSince(heard: number, count = 1): Promise<void> {
  for (let i = 0; i < 250 && api.accessCache.stats.heard < heard + count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(api.accessCache.stats.heard).toBeGreaterThanOrEqual(heard + count);
}

beforeAll(async () => {
  api = await startTestApi({ now: () => now });
  const owner = await api.user('cache-owner@example.com', 'team');
  ownerToken = owner.token;
  ownerId = owner.user.id;
  planId = (await api.call('POST', '/business-plan/create', { token: ownerToken, form: planForm() })).body.data
    .business_plan_id;
  const add = await api.call('POST', '/authority/add', {
    token: ownerToken,
    body: { business_plan_id: planId, email: 'cache-member@example.com', ...rolesAt('can_view') },
  });
  expect(add.status).toBe(200);
  memberToken = (await api.user('cache-member@example.com', 'free')).token;
});
afterAll(async () => {
  await api.close();
});

describe('access cache', () => {
  it('keeps what it loads from the moment the process listens, before any change is heard', async () => {
    const cache = new AccessCache();
    const unlisten = await listenForChanges(api.db, cache);
    try {
      let loads = 0;
      const load = async (): Promise<SignedInFacts> => {
        loads++;
        return { user: null, facts: null } as unknown as SignedInFacts;
      };
      await cache.get(1, planId, load);
      await cache.get(1, planId, load);
      expect(loads).toBe(1);
    } finally {
      await unlisten();
    }
  });

  it('answers a warm read from memory, without a database round trip', async () => {
    expect((await readKpi(memberToken)).status).toBe(200);
    const before = { ...api.accessCache.stats };
    for (let i = 0; i < 5; i++) expect((await readKpi(memberToken)).status).toBe(200);
    expect(api.accessCache.stats.loads).toBe(before.loads);
    expect(api.accessCache.stats.hits).toBe(before.hits + 5);
  });

  it('shows a role change made through the API on the next call', async () => {
    expect((await readKpi(memberToken)).status).toBe(200);
    const heard = api.accessCache.stats.heard;
    const edit = await api.call('POST', '/authority/edit', {
      token: ownerToken,
      body: { business_plan_id: planId, email: 'cache-member@example.com', ...rolesAt('can_view'), kpi: 'no_access' },
    });
    expect(edit.status).toBe(200);
    const refused = await readKpi(memberToken);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('no_access');
    // Again, from what the cache keeps: the same refusal. The write's two notices (the member's row changed, then the
    // plan's version moved) come from PostgreSQL a moment after the write, and the first empties the cache, maybe
    // after the refusal above was kept; so once both have come, one read keeps the refusal and the next is a hit.
    await heardSince(heard, 2);
    expect((await readKpi(memberToken)).status).toBe(403);
    const { hits, loads } = api.accessCache.stats;
    const again = await readKpi(memberToken);
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('no_access');
    expect(api.accessCache.stats.loads).toBe(loads);
    expect(api.accessCache.stats.hits).toBe(hits + 1);
  });

  it('shows a change written straight in the database on the next call once the database tells of it', async () => {
    await writeHeard(() => api.db('plan_members').where({ plan_id: planId }).update({ kpi: 'can_view' }));
    expect((await readKpi(memberToken)).status).toBe(200);
    // The owner drops to Free: the KPI area is tier-locked for everyone at once.
    await writeHeard(() => setTier(api.db, ownerId, 'free', null, now));
    for (let i = 0; i < 2; i++) {
      const locked = await readKpi(ownerToken);
      expect(locked.status).toBe(403);
      expect(locked.body.code).toBe('tier_lock');
    }
    await writeHeard(() => setTier(api.db, ownerId, 'team', null, now));
    expect((await readKpi(ownerToken)).status).toBe(200);
  });

  it('follows a new plan version written straight in the database once the database tells of it', async () => {
    const read = async () =>
      (await api.call('GET', '/pl/retrieve', { token: ownerToken, query: { business_plan_id: planId } })).text;
    const before = await read();
    expect(await read()).toBe(before);
    await writeHeard(() =>
      api
        .db('business_plans')
        .where({ id: planId })
        .update({ arr: 200_000_000, version: api.db.raw('version + 1') }),
    );
    const after = await read();
    expect(after).not.toBe(before);
    expect(JSON.parse(after).data).toEqual(expect.anything());
  });

  it('keeps what it holds across edits of a plan’s inputs, and reads each edit on the next call', async () => {
    const read = () => api.call('GET', '/pl/retrieve', { token: memberToken, query: { business_plan_id: planId } });
    const caseId = (await api.db('cases').where({ plan_id: planId }).first()).id;
    // Both callers' access kept, once the notifications of the earlier tests' changes have come in.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ownerRead = await api.call('GET', '/pl/retrieve', { token: ownerToken, query: { business_plan_id: planId } });
    expect(ownerRead.status).toBe(200);
    const before = await read();
    expect(before.status).toBe(200);
    const loads = api.accessCache.stats.loads;
    for (const value of [0.41, 0.42]) {
      const edit = await api.call('POST', '/case/edit', {
        token: ownerToken,
        body: { business_plan_id: planId, case_id: caseId, year: 1, key: 'cogs_rate', value },
      });
      expect(edit.status).toBe(200);
      const after = await read();
      expect(after.headers.get('Plan-Version')).toBe(edit.headers.get('Plan-Version'));
      expect(after.text).not.toBe(before.text);
    }
    // Neither the edits nor the reads after them went back to the database for access.
    expect(api.accessCache.stats.loads).toBe(loads);
  });

  it('refuses a signed-out token on the next call', async () => {
    const { token } = await api.user('cache-signout@example.com', 'team');
    const own = (await api.call('POST', '/business-plan/create', { token, form: planForm() })).body.data
      .business_plan_id;
    const read = () => api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: own } });
    expect((await read()).status).toBe(200);
    expect((await api.call('POST', '/user/signout', { token })).status).toBe(200);
    expect((await read()).status).toBe(401);
  });

  it('reads the database on every call while it cannot listen for changes', async () => {
    api.accessCache.lost();
    try {
      const before = api.accessCache.stats.loads;
      for (let i = 0; i < 3; i++) expect((await readKpi(memberToken)).status).toBe(200);
      expect(api.accessCache.stats.loads).toBe(before + 3);
    } finally {
      api.accessCache.changed();
    }
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'shows a change made by another process once PostgreSQL tells of it',
    async () => {
      expect((await readKpi(memberToken)).status).toBe(200);
      const other = openDb({
        databaseUrl: process.env.TEST_DATABASE_URL,
        ...(api.schema ? { schema: api.schema } : {}),
      });
      try {
        await other('plan_members').where({ plan_id: planId }).update({ kpi: 'no_access' });
      } finally {
        await other.destroy();
      }
      let status = 200;
      for (let i = 0; i < 50 && status === 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await readKpi(memberToken)).status;
      }
      expect(status).toBe(403);
    },
  );

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'follows a version moved by another process once PostgreSQL tells of it, keeping what it holds',
    async () => {
      const read = () => api.call('GET', '/pl/retrieve', { token: ownerToken, query: { business_plan_id: planId } });
      const before = await read();
      expect(before.status).toBe(200);
      const loads = api.accessCache.stats.loads;
      const other = openDb({
        databaseUrl: process.env.TEST_DATABASE_URL,
        ...(api.schema ? { schema: api.schema } : {}),
      });
      let version: number;
      try {
        const caseId = (await other('cases').where({ plan_id: planId }).first()).id;
        version = await other.transaction(async (trx) => {
          await trx('case_year_inputs')
            .insert({ case_id: caseId, year: 2, key: 'cogs_rate', value: 0.12 })
            .onConflict(['case_id', 'year', 'key'])
            .merge();
          const [row] = await trx('business_plans')
            .where({ id: planId })
            .update({ version: trx.raw('version + 1') })
            .returning('version');
          return Number(row.version);
        });
      } finally {
        await other.destroy();
      }
      let after = before;
      for (let i = 0; i < 50 && after.headers.get('Plan-Version') !== String(version); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        after = await read();
      }
      expect(after.headers.get('Plan-Version')).toBe(String(version));
      expect(after.text).not.toBe(before.text);
      expect(api.accessCache.stats.loads).toBe(loads);
    },
  );
});
