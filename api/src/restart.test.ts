import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedIfEmpty } from './seed';
import { importPlanFile } from './services/plans/planFile';
import { startTestApi } from './testing/harness';

const FIXTURES = resolve(import.meta.dirname, '..', '..', 'fixtures');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe('a restart', () => {
  it('seeds an empty database once and loses nothing across a restart', async () => {
    const first = await startTestApi();
    const seed = await seedIfEmpty(first.db, FIXTURES, importPlanFile, new Date());
    expect(seed.seeded).toBe(true);
    expect(seed.planIds.length).toBeGreaterThan(0);
    const signin = await first.call('POST', '/users/email-signin', {
      body: { email: seed.demo.email, password: seed.demo.password },
    });
    expect(signin.status).toBe(200);
    const token: string = signin.body.app_token;
    const planId = seed.planIds[0] ?? 0;
    const caseId = (await first.db('cases').where({ plan_id: planId }).orderBy('position').first()).id;
    const edit = await first.call('POST', '/case/edit', {
      token,
      body: { business_plan_id: planId, case_id: caseId, year: 2, key: 'sm_rate', value: 0.5 },
    });
    expect(edit.status).toBe(200);
    const me = (await first.call('GET', '/user/me', { token })).body;
    const pl = (await first.call('GET', '/pl/retrieve', { token, query: { business_plan_id: planId } })).body;
    const monthly = (
      await first.call('GET', '/pl/monthly/retrieve', { token, query: { business_plan_id: planId, case_id: caseId } })
    ).body;
    await first.stop();

    const second = await startTestApi({ reuse: { dataDir: first.dataDir, schema: first.schema } });
    cleanups.push(() => second.close());
    expect((await seedIfEmpty(second.db, FIXTURES, importPlanFile, new Date())).seeded).toBe(false);
    expect((await second.call('GET', '/user/me', { token })).body).toEqual(me);
    expect((await second.call('GET', '/pl/retrieve', { token, query: { business_plan_id: planId } })).body).toEqual(pl);
    const monthlyAgain = await second.call('GET', '/pl/monthly/retrieve', {
      token,
      query: { business_plan_id: planId, case_id: caseId },
    });
    expect(monthlyAgain.body).toEqual(monthly);
    const again = await second.call('POST', '/users/email-signin', {
      body: { email: seed.demo.email, password: seed.demo.password },
    });
    expect(again.status).toBe(200);
  });
});
