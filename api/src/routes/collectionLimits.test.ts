/**
 * The cost items a case may hold (`COLLECTION_LIMITS`): refused with a 400 naming the limit on the plan-file import,
 * on the Cost screen's create (also when creates race for the last places) and on a restore from history.
 */
import { readFileSync } from 'node:fs';
import { COLLECTION_LIMITS } from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../testing/harness';

const MAX = COLLECTION_LIMITS.costItemsPerCase;
let api: TestApi;
let token: string;

beforeAll(async () => {
  api = await startTestApi({ now: () => new Date('2026-10-15T09:00:00Z') });
  ({ token } = await api.user('collection-limits@example.com', 'team'));
});
afterAll(async () => {
  await api.close();
});

const item = (i: number) => ({
  item_title: 'ga_other',
  item_name: `Item ${i + 1}`,
  price: 1000 + i,
  start_year: 2026,
  start_month: 4,
  end_year: 2027,
  end_month: 3,
});

function planFile(items: number): unknown {
  const file = JSON.parse(readFileSync(new URL('../../../fixtures/plans/saas-jpy-t2d3.json', import.meta.url), 'utf8'));
  file.cases[0].cost_items = Array.from({ length: items }, (_, i) => item(i));
  return file;
}

describe('cost items per case', () => {
  it('refuses a plan file over the limit, and a create past it, also when creates race', async () => {
    const over = await api.call('POST', '/business-plan/import', { token, body: { plan: planFile(MAX + 1) } });
    expect(over.status).toBe(400);
    expect(over.body.code).toBe('limit');
    expect(over.body.limit).toEqual({ name: 'cost_items', max: MAX, value: MAX + 1 });
    expect(Object.keys(over.body.errors)).toEqual(['cases.0.cost_items']);

    const atLimit = await api.call('POST', '/business-plan/import', { token, body: { plan: planFile(MAX) } });
    expect(atLimit.status).toBe(201);
    const planId = atLimit.body.data.business_plan_id as number;
    const caseId = (await api.db('cases').where({ plan_id: planId }).first()).id as number;
    const create = (i: number) =>
      api.call('POST', '/cost/create', { token, body: { business_plan_id: planId, case_id: caseId, item: item(i) } });
    const past = await create(MAX);
    expect(past.status).toBe(400);
    expect(past.body.limit).toEqual({ name: 'cost_items', max: MAX, value: MAX + 1 });

    // Two places free, five creates at once: two are saved, three refused, never more than the limit.
    const ids = (await api.db('cost_items').where({ case_id: caseId }).orderBy('id').limit(2).select('id')).map(
      (r) => r.id as number,
    );
    for (const costId of ids) {
      const deleted = await api.call('POST', '/cost/delete', {
        token,
        body: { business_plan_id: planId, case_id: caseId, cost_id: costId },
      });
      expect(deleted.status).toBe(200);
    }
    const raced = await Promise.all(Array.from({ length: 5 }, (_, i) => create(MAX + i)));
    expect(raced.map((a) => a.status).sort()).toEqual([200, 200, 400, 400, 400]);
    for (const refused of raced.filter((a) => a.status === 400)) expect(refused.body.limit.name).toBe('cost_items');
    const [row] = await api.db('cost_items').where({ case_id: caseId }).count({ count: '*' });
    expect(Number(row?.count)).toBe(MAX);
  }, 120_000);

  it('refuses a restore to a point that held more than the limit', async () => {
    const imported = await api.call('POST', '/business-plan/import', { token, body: { plan: planFile(MAX) } });
    const planId = imported.body.data.business_plan_id as number;
    const caseId = (await api.db('cases').where({ plan_id: planId }).first()).id as number;
    const newest = async () =>
      (await api.call('GET', '/history', { token, query: { business_plan_id: planId } })).body.data.changes[0].id;
    // A row written outside the app (as before the limit was lowered) is a change of the history too.
    await api.db('cost_items').insert({ case_id: caseId, ...item(MAX) });
    const over = await newest();
    const costId = (await api.db('cost_items').where({ case_id: caseId }).orderBy('id', 'desc').first()).id;
    const deleted = await api.call('POST', '/cost/delete', {
      token,
      body: { business_plan_id: planId, case_id: caseId, cost_id: costId },
    });
    expect(deleted.status).toBe(200);
    const restore = await api.call('POST', '/history/restore', { token, body: { business_plan_id: planId, at: over } });
    expect(restore.status).toBe(400);
    expect(restore.body.limit).toEqual({ name: 'cost_items', max: MAX, value: MAX + 1 });
    const [row] = await api.db('cost_items').where({ case_id: caseId }).count({ count: '*' });
    expect(Number(row?.count)).toBe(MAX);
  }, 120_000);
});
