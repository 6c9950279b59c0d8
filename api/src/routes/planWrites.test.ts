/**
 * Writes to one plan that arrive together (`planWrite`): each is a transaction of its own under the plan's lock, with
 * its own version, its own change in the history (who, which call) and its own answer, and a write that is refused
 * takes nothing of the others with it.
 */
import { PLAN_VERSION_HEADER } from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, costItem, createPlan, rolesAt, startTestApi, type TestApi } from '../testing/harness';

const WRITES = 20;

let api: TestApi;
let ownerToken: string;
let ownerId: number;
let editorToken: string;
let editorId: number;
let planId: number;
let caseId: number;

beforeAll(async () => {
  api = await startTestApi();
  const owner = await api.user('group-owner@example.com', 'team');
  ownerToken = owner.token;
  ownerId = owner.user.id;
  ({ planId, caseId } = await createPlan(api, ownerToken));
  const add = await api.call('POST', '/authority/add', {
    token: ownerToken,
    body: { business_plan_id: planId, email: 'group-editor@example.com', ...rolesAt('can_edit') },
  });
  expect(add.status).toBe(200);
  const editor = await api.user('group-editor@example.com', 'free');
  editorToken = editor.token;
  editorId = editor.user.id;
});
afterAll(async () => {
  await api.close();
});

const post = (token: string, path: string, body: Record<string, unknown>) =>
  api.call('POST', path, { token, body: { business_plan_id: planId, ...body } });
const versionOf = (answer: Answer) => Number(answer.headers.get(PLAN_VERSION_HEADER));
const planVersion = async () => Number((await api.db('business_plans').where({ id: planId }).first('version')).version);
const changesSince = (id: number) =>
  api.db('plan_changes').where({ plan_id: planId }).andWhere('id', '>', id).orderBy('id');
const lastChange = async () =>
  Number((await api.db('plan_changes').where({ plan_id: planId }).max<{ id: string }[]>('id as id'))[0]?.id ?? 0);

/** Both callers' access kept in memory, as for anyone who has opened the plan: their writes queue at once. */
async function warm(): Promise<void> {
  for (const token of [ownerToken, editorToken]) {
    const read = await api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: planId } });
    expect(read.status).toBe(200);
  }
}

describe('writes to one plan arriving together', () => {
  it('are committed one by one, each with its own version, change, transaction and values', async () => {
    await warm();
    const before = await planVersion();
    const since = await lastChange();
    // Owner and editor at once: each writes the equity raised of a month of its own (months 1 to 20).
    const answers = await Promise.all(
      Array.from({ length: WRITES }, (_, i) =>
        post(i % 2 === 0 ? ownerToken : editorToken, '/pl/monthly/cashflow/edit', {
          case_id: caseId,
          year: 1 + Math.floor(i / 12),
          month: 1 + (i % 12),
          equity_raised: (i + 1) * 1_000_000,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(WRITES).fill(200));
    // Every write its own version, none lost or shared.
    expect(answers.map(versionOf).sort((a, b) => a - b)).toEqual(
      Array.from({ length: WRITES }, (_, i) => before + 1 + i),
    );
    expect(await planVersion()).toBe(before + WRITES);

    const changes = await changesSince(since);
    expect(changes).toHaveLength(WRITES);
    for (const change of changes) expect(change.action).toBe('/pl/monthly/cashflow/edit');
    expect(changes.filter((c) => c.user_id === ownerId)).toHaveLength(WRITES / 2);
    expect(changes.filter((c) => c.user_id === editorId)).toHaveLength(WRITES / 2);
    // Each change holds exactly its own write's row, attributed to the one who made it.
    for (const change of changes) {
      const rows = await api.db('plan_change_rows').where({ change_id: change.id });
      expect(rows).toHaveLength(1);
      const written = rows[0].new_row as { value: number };
      const i = Math.round(Number(written.value) / 1_000_000) - 1;
      expect(change.user_id).toBe(i % 2 === 0 ? ownerId : editorId);
    }
    // One transaction per write.
    expect(new Set(changes.map((c) => String(c.txid))).size).toBe(WRITES);

    // The plan still answers, and every value written is stored.
    const monthly = await api.call('GET', '/pl/monthly/retrieve', {
      token: ownerToken,
      query: { business_plan_id: planId, case_id: caseId },
    });
    expect(monthly.status).toBe(200);
    const stored = await api.db('monthly_inputs').where({ case_id: caseId, key: 'equity_raised', layer: 'estimate' });
    expect(stored.map((r) => Number(r.value)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: WRITES }, (_, i) => (i + 1) * 1_000_000),
    );
  });

  it('answer a refused write with its own error and keep every other', async () => {
    const item = costItem();
    const created = await post(ownerToken, '/cost/create', { case_id: caseId, item });
    expect(created.status).toBe(200);
    const costId: number = created.body.data.cost_id;
    const since = await lastChange();
    await warm();
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        post(editorToken, '/case/edit', { case_id: caseId, year: 1 + i, key: 'cogs_rate', value: 0.2 + i / 100 }),
      ),
      // An edit made on a version that was never read: refused as stale.
      post(ownerToken, '/cost/edit', { case_id: caseId, cost_id: costId, version: 7, ...item, price: 1 }),
      // A case that is not this plan's.
      post(ownerToken, '/case/edit', { case_id: caseId + 10_000, year: 1, key: 'cogs_rate', value: 0.5 }),
      ...Array.from({ length: 6 }, (_, i) =>
        post(ownerToken, '/pl/monthly/cashflow/edit', {
          case_id: caseId,
          year: 3,
          month: 1 + i,
          other: 1_000 * (i + 1),
        }),
      ),
    ]);
    expect(answers.map((a) => a.status)).toEqual([...Array(6).fill(200), 409, 404, ...Array(6).fill(200)]);
    expect(answers[6]?.body.code).toBe('conflict');
    const changes = await changesSince(since);
    expect(changes).toHaveLength(12);
    const rates = await api.db('case_year_inputs').where({ case_id: caseId, key: 'cogs_rate' }).orderBy('year');
    expect(rates.map((r) => Number(r.value))).toEqual(Array.from({ length: 6 }, (_, i) => 0.2 + i / 100));
    expect(await api.db('cost_items').where({ id: costId }).first()).toMatchObject({ price: 300_000, version: 1 });
  });

  it('see the cases an earlier write added or removed', async () => {
    const created = await post(ownerToken, '/case/create', { case_name: 'Downside', case_rate: 0.7 });
    expect(created.status).toBe(200);
    const doomed = Number(created.body.data.new_case_id);
    await warm();
    const since = await lastChange();
    const edit = (id: number, year: number) =>
      post(editorToken, '/case/edit', { case_id: id, year, key: 'cogs_rate', value: 0.3 });
    const [first, deleted, second, other] = await Promise.all([
      edit(doomed, 1),
      post(ownerToken, '/case/delete', { case_id: doomed }),
      edit(doomed, 2),
      edit(caseId, 6),
    ]);
    expect([deleted?.status, other?.status]).toEqual([200, 200]);
    // In whatever order they came: an edit of the case before its deletion is kept (until the deletion takes it),
    // one after it is refused as a case the plan no longer has.
    const changes = await changesSince(since);
    const deletedAt = changes.findIndex((c) => c.action === '/case/delete');
    const kept = changes.filter((c) => c.action === '/case/edit' && c.user_id === editorId);
    for (const answer of [first, second]) expect([200, 404]).toContain(answer?.status);
    const editsKept = [first, second].filter((a) => a?.status === 200).length;
    expect(kept).toHaveLength(editsKept + 1);
    expect(changes).toHaveLength(editsKept + 2);
    // Every kept edit of the doomed case came before its deletion.
    const afterDeletion = changes.slice(deletedAt + 1).map((c) => c.id);
    const rowsAfter = await api.db('plan_change_rows').whereIn('change_id', afterDeletion);
    for (const row of rowsAfter) expect((row.new_row as { case_id?: number } | null)?.case_id).not.toBe(doomed);
    expect(await api.db('case_year_inputs').where({ case_id: doomed })).toHaveLength(0);
    expect(await api.db('cases').where({ id: doomed })).toHaveLength(0);
  });
});
