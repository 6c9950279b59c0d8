/**
 * Writes under an `Idempotency-Key`: applied once, whatever the number of tries and however they arrive (one after
 * the other, or together); a retry is answered what the first try was; a key is its user's, for one request, for a
 * day; a retry is checked against the caller's rights again.
 */
import { IDEMPOTENCY_KEY_HEADER, PLAN_VERSION_HEADER } from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costItem, createPlan, planForm, rolesAt, startTestApi, type TestApi } from '../testing/harness';

let api: TestApi;
let ownerToken: string;
let ownerId: number;
let editorToken: string;
let planId: number;
let caseId: number;

beforeAll(async () => {
  api = await startTestApi();
  const owner = await api.user('keyed-owner@example.com', 'team');
  ownerToken = owner.token;
  ownerId = owner.user.id;
  ({ planId, caseId } = await createPlan(api, ownerToken));
  const add = await api.call('POST', '/authority/add', {
    token: ownerToken,
    body: { business_plan_id: planId, email: 'keyed-editor@example.com', ...rolesAt('can_edit') },
  });
  expect(add.status).toBe(200);
  editorToken = (await api.user('keyed-editor@example.com', 'free')).token;
});
afterAll(async () => {
  await api.close();
});

const create = (key: string | null, name: string, token = ownerToken) =>
  api.call('POST', '/cost/create', {
    token,
    body: { business_plan_id: planId, case_id: caseId, item: costItem({ item_name: name }) },
    ...(key === null ? {} : { headers: { [IDEMPOTENCY_KEY_HEADER]: key } }),
  });
const itemsNamed = async (name: string) => (await api.db('cost_items').where({ item_name: name })).length;

describe('a write under an Idempotency-Key', () => {
  it('is applied once when sent again, and the retry is answered what the first try was', async () => {
    const first = await create('key-one-after-the-other', 'Keyed once');
    expect(first.status).toBe(200);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const again = await create('key-one-after-the-other', 'Keyed once');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get(PLAN_VERSION_HEADER)).toBe(first.headers.get(PLAN_VERSION_HEADER));
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await itemsNamed('Keyed once')).toBe(1);
  });

  it('is applied once when its tries arrive together, and each try gets the same answer', async () => {
    const tries = await Promise.all(Array.from({ length: 8 }, () => create('key-together', 'Keyed together')));
    expect(tries.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    const ids = new Set(tries.map((answer) => answer.body.data.cost_id));
    expect(ids.size).toBe(1);
    expect(await itemsNamed('Keyed together')).toBe(1);
    expect(tries.filter((answer) => answer.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(7);
  });

  it('is applied again under a new key, and without a key every time', async () => {
    expect((await create('key-a', 'Keyed twice')).status).toBe(200);
    expect((await create('key-b', 'Keyed twice')).status).toBe(200);
    expect((await create(null, 'Keyed twice')).status).toBe(200);
    expect((await create(null, 'Keyed twice')).status).toBe(200);
    expect(await itemsNamed('Keyed twice')).toBe(4);
  });

  it('refuses a key sent again with another request, naming the header, and writes nothing', async () => {
    expect((await create('key-reused', 'Keyed first')).status).toBe(200);
    const reused = await create('key-reused', 'Keyed second');
    expect(reused.status).toBe(400);
    expect(reused.body.errors[IDEMPOTENCY_KEY_HEADER]).toMatch(/another request/);
    expect(await itemsNamed('Keyed second')).toBe(0);
  });

  it('refuses a key that is not 1 to 255 visible characters, and writes nothing', async () => {
    for (const key of ['has space', 'x'.repeat(256), 'ünïcode']) {
      const refused = await create(key, 'Keyed badly');
      expect(refused.status).toBe(400);
      expect(refused.body.errors[IDEMPOTENCY_KEY_HEADER]).toMatch(/1 to 255 visible ASCII/);
    }
    expect(await itemsNamed('Keyed badly')).toBe(0);
  });

  it("is the caller's own: another user's write under the same key is applied", async () => {
    expect((await create('key-shared-string', 'Keyed by owner')).status).toBe(200);
    const editor = await create('key-shared-string', 'Keyed by editor', editorToken);
    expect(editor.status).toBe(200);
    expect(editor.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await itemsNamed('Keyed by editor')).toBe(1);
  });

  it('is applied afresh once the key is a day old', async () => {
    expect((await create('key-old', 'Keyed yesterday')).status).toBe(200);
    await api
      .db('idempotency_keys')
      .where({ user_id: ownerId, key: 'key-old' })
      .update({ created_at: api.db.raw("now() - interval '25 hours'") });
    const later = await create('key-old', 'Keyed yesterday');
    expect(later.status).toBe(200);
    expect(later.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await itemsNamed('Keyed yesterday')).toBe(2);
  });

  it('says the write was applied when its answer is not kept, and applies nothing more', async () => {
    expect((await create('key-lost', 'Keyed and lost')).status).toBe(200);
    // As after a process that committed the write and stopped before it recorded the answer.
    await api.db('idempotency_keys').where({ user_id: ownerId, key: 'key-lost' }).update({ answer: null });
    const retry = await create('key-lost', 'Keyed and lost');
    expect(retry.status).toBe(409);
    expect(retry.body.message).toMatch(/saved already/);
    expect(await itemsNamed('Keyed and lost')).toBe(1);
  });

  it("checks the caller's rights again before it answers a retry", async () => {
    const add = await api.call('POST', '/authority/add', {
      token: ownerToken,
      body: { business_plan_id: planId, email: 'keyed-leaver@example.com', ...rolesAt('can_edit') },
    });
    expect(add.status).toBe(200);
    const member = await api.user('keyed-leaver@example.com', 'free');
    expect((await create('key-leaver', 'Keyed by leaver', member.token)).status).toBe(200);
    const removed = await api.call('POST', '/authority/delete', {
      token: ownerToken,
      body: { business_plan_id: planId, email: 'keyed-leaver@example.com' },
    });
    expect(removed.status).toBe(200);
    const retry = await create('key-leaver', 'Keyed by leaver', member.token);
    expect(retry.status).toBe(404);
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('makes one plan of a plan creation sent twice', async () => {
    const before = (await api.db('business_plans').where({ owner_id: ownerId })).length;
    const headers = { [IDEMPOTENCY_KEY_HEADER]: 'key-plan-create' };
    const first = await api.call('POST', '/business-plan/create', { token: ownerToken, form: planForm(), headers });
    const again = await api.call('POST', '/business-plan/create', { token: ownerToken, form: planForm(), headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await api.db('business_plans').where({ owner_id: ownerId })).length).toBe(before + 1);
  });
});
