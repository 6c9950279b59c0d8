import { randomBytes } from 'node:crypto';
import { HISTORY_PAGE_SIZE } from '@topline/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costItem, planForm, rolesAt, startTestApi, type TestApi } from '../testing/harness';

/**
 * A plan's history (contract `history.ts`): every input change recorded with who, which call and old and new values;
 * the P&L of any moment rebuilt from the inputs of that moment, checked against what `/pl/retrieve` answered then;
 * restores recorded as changes that can themselves be undone. Runs on PGlite and on PostgreSQL.
 */
const TODAY = new Date('2026-07-15T09:00:00Z');
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ now: () => TODAY });
});
afterAll(async () => {
  await api.close();
});

async function ownerPlan(tag: string) {
  const owner = await api.user(`owner-${tag}@example.com`, 'team');
  const created = await api.call('POST', '/business-plan/create', { token: owner.token, form: planForm() });
  expect(created.status).toBe(201);
  const planId: number = created.body.data.business_plan_id;
  const [base] = await api.db('cases').where({ plan_id: planId });
  const post = (path: string, body: Record<string, unknown>, token = owner.token) =>
    api.call('POST', path, { token, body: { business_plan_id: planId, ...body } });
  const get = (path: string, query: Record<string, string | number> = {}, token = owner.token) =>
    api.call('GET', path, { token, query: { business_plan_id: planId, ...query } });
  const newest = async () => (await get('/history')).body.data.changes[0];
  const pl = async () => (await get('/pl/retrieve')).body.data.values;
  return { owner, planId, baseId: Number(base.id), post, get, newest, pl };
}

/** The P&L of a history point as `/pl/retrieve` shapes it (case head and annual rows). */
const plOf = (point: { values: unknown[] }) => point.values;
const plainPl = (values: { case_id: number; case_name: string; case_rate: number; pl: unknown[] }[]) =>
  values.map(({ case_id, case_name, case_rate, pl }) => ({ case_id, case_name, case_rate, pl }));

describe('history', () => {
  it('records each change with who, the call, and old and new values, newest first', async () => {
    const p = await ownerPlan('record');
    expect((await p.post('/case/edit', { case_id: p.baseId, year: 2, key: 'churn_rate', value: 0.015 })).status).toBe(
      200,
    );
    expect((await p.post('/case/edit', { case_id: p.baseId, year: 2, key: 'churn_rate', value: 0.02 })).status).toBe(
      200,
    );
    expect((await p.post('/casename/edit', { case_id: p.baseId, case_name: 'Plan A' })).status).toBe(200);

    const page = await p.get('/history');
    expect(page.status).toBe(200);
    const { changes, next_cursor, can_restore } = page.body.data;
    expect(can_restore).toBe(true);
    expect(next_cursor).toBeNull();
    expect(changes.map((c: { action: string }) => c.action)).toEqual([
      '/casename/edit',
      '/case/edit',
      '/case/edit',
      'plan.create',
    ]);
    // The wizard's form names the owner.
    expect(changes.every((c: { by: string }) => c.by === 'Hana Sato')).toBe(true);
    expect(changes[0].items).toEqual([
      {
        kind: 'case',
        op: 'change',
        key: 'name',
        case_id: p.baseId,
        case_name: 'Plan A',
        year: null,
        month: null,
        detail: null,
        old: 'Base case',
        new: 'Plan A',
        hidden: false,
      },
    ]);
    expect(changes[1].items).toEqual([
      expect.objectContaining({ kind: 'assumption', op: 'change', key: 'churn_rate', year: 2, old: 0.015, new: 0.02 }),
    ]);
    expect(changes[2].items).toEqual([
      expect.objectContaining({ kind: 'assumption', op: 'add', key: 'churn_rate', year: 2, old: null, new: 0.015 }),
    ]);
    // Creation: the plan, its base case and its colour sets.
    const creation = changes[3];
    expect(creation.items[0]).toMatchObject({ kind: 'plan', op: 'add', key: 'name', new: 'Acme plan' });
    expect(creation.items.map((i: { kind: string }) => i.kind)).toEqual(expect.arrayContaining(['case', 'color']));
    expect(creation.item_count).toBe(creation.items.length);
    const ids = changes.map((c: { id: number }) => c.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('answers the P&L of any moment as /pl/retrieve answered it then, rebuilt from that moment’s inputs', async () => {
    const p = await ownerPlan('point');
    const seen: { at: number; pl: unknown }[] = [{ at: (await p.newest()).id, pl: plainPl(await p.pl()) }];
    const edits: [string, Record<string, unknown>][] = [
      ['/case/edit', { case_id: p.baseId, year: 1, key: 'cogs_rate', value: 0.4 }],
      ['/case/create', { case_name: 'Upside', case_rate: 1.5 }],
      ['/case/edit', { case_id: p.baseId, year: 3, key: 'arpa', value: 90_000 }],
      ['/case/edit', { case_id: p.baseId, year: 1, key: 'case_rate', value: 1.2 }],
    ];
    for (const [path, body] of edits) {
      expect((await p.post(path, body)).status).toBe(200);
      seen.push({ at: (await p.newest()).id, pl: plainPl(await p.pl()) });
    }
    for (const { at, pl } of seen) {
      const point = await p.get('/history/plan', { at });
      expect(point.status).toBe(200);
      expect(point.body.data.at).toBe(at);
      expect(plOf(point.body.data)).toEqual(pl);
    }
    // The moments differ, so the check above can fail.
    expect(seen[0]?.pl).not.toEqual(seen[1]?.pl);
    expect(seen[1]?.pl).toHaveLength(1);
    expect(seen[2]?.pl).toHaveLength(2);

    const compare = await p.get('/history/compare', { from: seen[0]?.at as number, to: seen[4]?.at as number });
    expect(compare.status).toBe(200);
    expect(compare.body.data.from.values).toEqual(seen[0]?.pl);
    expect(compare.body.data.to.values).toEqual(seen[4]?.pl);
    const inputs = compare.body.data.inputs as { kind: string; key: string; old: unknown; new: unknown }[];
    expect(inputs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'assumption', key: 'cogs_rate', old: null, new: 0.4 }),
        expect.objectContaining({ kind: 'assumption', key: 'arpa', old: null, new: 90_000 }),
        expect.objectContaining({ kind: 'case', key: 'rate', old: 1, new: 1.2 }),
        expect.objectContaining({ kind: 'case', op: 'add', key: 'name', new: 'Upside' }),
      ]),
    );
  });

  it('restores every input as it stood after a change, as one new change that can itself be undone', async () => {
    const p = await ownerPlan('restore');
    const start = { at: (await p.newest()).id, pl: plainPl(await p.pl()) };
    expect((await p.post('/case/edit', { case_id: p.baseId, year: 1, key: 'sm_rate', value: 0.5 })).status).toBe(200);
    const created = await p.post('/case/create', { case_name: 'Downside', case_rate: 0.7 });
    const downside: number = created.body.data.new_case_id;
    expect((await p.post('/case/edit', { case_id: downside, year: 2, key: 'churn_rate', value: 0.03 })).status).toBe(
      200,
    );
    const full = { at: (await p.newest()).id, pl: plainPl(await p.pl()) };
    expect(full.pl).toHaveLength(2);
    // Deleting the case takes its inputs with it; a restore brings both back.
    expect((await p.post('/case/delete', { case_id: downside })).status).toBe(200);
    expect(await p.pl()).toHaveLength(1);

    const back = await p.post('/history/restore', { at: full.at });
    expect(back.status).toBe(200);
    expect(plainPl(await p.pl())).toEqual(full.pl);
    const churn = await api.db('case_year_inputs').where({ case_id: downside, year: 2, key: 'churn_rate' }).first();
    expect(Number(churn.value)).toBe(0.03);
    const restore = await p.newest();
    expect(restore).toMatchObject({ id: back.body.data.id, action: 'history.restore', restored_from: full.at });

    // To the plan as created: the extra case and both assumptions go.
    expect((await p.post('/history/restore', { at: start.at })).status).toBe(200);
    expect(plainPl(await p.pl())).toEqual(start.pl);
    expect(await api.db('cases').where({ id: downside })).toHaveLength(0);
    // Undo that restore: back to the full plan.
    const before = (await p.get('/history')).body.data.changes[1];
    expect(before.action).toBe('history.restore');
    expect((await p.post('/history/restore', { at: before.id })).status).toBe(200);
    expect(plainPl(await p.pl())).toEqual(full.pl);
    // Nothing to restore: a field message, nothing written.
    const count = (await p.get('/history')).body.data.changes.length;
    const same = await p.post('/history/restore', { at: (await p.newest()).id });
    expect(same.status).toBe(400);
    expect(same.body.errors.at).toMatch(/already/);
    expect((await p.get('/history')).body.data.changes).toHaveLength(count);
  });

  it('restores a cost item as a new version and leaves the members as they are', async () => {
    const p = await ownerPlan('costs');
    const item = costItem();
    const created = await p.post('/cost/create', { case_id: p.baseId, item });
    expect(created.status).toBe(200);
    const costId: number = created.body.data.cost_id;
    const before = (await p.newest()).id;
    expect(
      (await p.post('/cost/edit', { case_id: p.baseId, cost_id: costId, version: 1, ...item, price: 100_000 })).status,
    ).toBe(200);
    expect((await p.post('/authority/add', { email: 'stays@example.com', ...rolesAt('can_view') })).status).toBe(200);

    expect((await p.post('/history/restore', { at: before })).status).toBe(200);
    const row = await api.db('cost_items').where({ id: costId }).first();
    expect(row).toMatchObject({ price: 300_000, item_name: 'Search ads', version: 3 });
    // An edit made on either version read before the restore is refused: it would silently undo the restore.
    const stale = await p.post('/cost/edit', { case_id: p.baseId, cost_id: costId, version: 2, ...item, price: 5 });
    expect(stale.status).toBe(409);
    expect(await api.db('plan_members').where({ plan_id: p.planId, email: 'stays@example.com' })).toHaveLength(1);
    const restore = await p.newest();
    expect(restore.items).toEqual([
      expect.objectContaining({ kind: 'cost_item', op: 'change', key: 'price', old: 100_000, new: 300_000 }),
    ]);
  });

  it('lets the owner and editors read it, hides what an area role hides, and keeps each plan’s to itself', async () => {
    const p = await ownerPlan('roles');
    const invite = async (email: string, r: Record<string, string>) => {
      expect((await p.post('/authority/add', { email, ...r })).status).toBe(200);
      return (await api.user(email, 'free')).token;
    };
    const viewer = await invite('viewer-roles@example.com', rolesAt('can_view'));
    const costs = await invite('costs-roles@example.com', rolesAt('no_access', { cogs: 'can_edit', pl: 'can_view' }));
    const kpiEditor = await invite('kpi-roles@example.com', rolesAt('no_access', { kpi: 'can_edit' }));
    expect((await p.post('/case/edit', { case_id: p.baseId, year: 1, key: 'churn_rate', value: 0.01 })).status).toBe(
      200,
    );
    const at = (await p.newest()).id;

    expect((await p.get('/history', {}, viewer)).status).toBe(403);
    const seenByCosts = await p.get('/history', {}, costs);
    expect(seenByCosts.status).toBe(200);
    expect(seenByCosts.body.data.can_restore).toBe(false);
    const [edit] = seenByCosts.body.data.changes;
    // Churn is a KPI input: a member without the KPI area learns only that something changed they may not see.
    expect(edit).toMatchObject({ action: null, item_count: 1, items: [{ hidden: true }] });
    const ownersView = (await p.get('/history')).body.data.changes;
    // Members are the owner's to see: the invitations (and their acceptance) are hidden entries alone.
    const memberChanges = ownersView.filter((c: { items: { kind: string }[] }) =>
      c.items.every((i) => i.kind === 'member'),
    );
    expect(memberChanges.filter((c: { action: string }) => c.action === '/authority/add')).toHaveLength(3);
    for (const { id } of memberChanges) {
      expect(seenByCosts.body.data.changes.find((c: { id: number }) => c.id === id)).toMatchObject({
        action: null,
        items: [{ hidden: true }],
      });
    }
    expect(seenByCosts.text).not.toContain('kpi-roles@example.com');
    expect(ownersView.find((c: { action: string }) => c.action === '/authority/add').items[0]).toMatchObject({
      kind: 'member',
      op: 'add',
      key: 'email',
      new: 'kpi-roles@example.com',
      hidden: false,
    });
    expect((await p.get('/history/plan', { at }, costs)).status).toBe(200);
    // No P&L area: no P&L of a moment.
    expect((await p.get('/history/plan', { at }, kpiEditor)).status).toBe(403);
    expect((await p.post('/history/restore', { at }, costs)).status).toBe(403);

    // Another plan's change, or a stranger: not found.
    const other = await ownerPlan('roles-other');
    const otherAt = (await other.newest()).id;
    expect((await p.get('/history/plan', { at: otherAt })).status).toBe(404);
    expect((await p.post('/history/restore', { at: otherAt })).status).toBe(404);
    expect((await p.get('/history', {}, other.owner.token)).status).toBe(404);
  });

  it('records every kind of input change under the call that made it', async () => {
    const p = await ownerPlan('kinds');
    const caseId = p.baseId;
    const steps: [string, Record<string, unknown>, string][] = [
      ['/case/edit', { case_id: caseId, year: 1, key: 'churn_rate', value: 0.01 }, 'assumption'],
      ['/model/edit', { case_id: caseId, model: { name: 'custom', rates: [2, 2, 2, 1.5, 1.5] } }, 'case'],
      ['/pl/monthly/cashflow/edit', { case_id: caseId, year: 1, month: 1, equity_raised: 5_000_000 }, 'monthly'],
      ['/pl/monthly/edit', { case_id: caseId, year: 1, month: 1, order: 3 }, 'status'],
      ['/pl/monthly/adjust/edit', { case_id: caseId, year: 1, pattern: 'downward' }, 'revision'],
      [
        '/pl/monthly/comment/edit',
        { case_id: caseId, year: 1, column_name: 1, section: 'actual', content: 'Launch' },
        'comment',
      ],
      [
        '/cost/create',
        { case_id: caseId, ...costItem({ item_name: 'Ads', price: 1000, end_year: 2026, end_month: 9 }) },
        'cost_item',
      ],
      ['/business-plan/theme-color', { theme_color: 'black' }, 'plan'],
      ['/pl/color', { colors: [{ arr: '#AABBCC', pl: '#112233', gross_profit: '#445566' }] }, 'color'],
      ['/authority/add', { email: 'member-kinds@example.com', ...rolesAt('can_view') }, 'member'],
      ['/home/edit', { kpi_title: 'meeting', value: 4, date: '2026-07-14' }, 'daily'],
    ];
    for (const [path, body, kind] of steps) {
      const answer = await p.post(path, body);
      expect([200, 201], `${path}: ${answer.text}`).toContain(answer.status);
      const change = await p.newest();
      expect(change.action).toBe(path);
      expect(change.items.map((i: { kind: string }) => i.kind)).toContain(kind);
    }
    const actual = (await p.get('/history')).body.data.changes.find(
      (c: { action: string }) => c.action === '/pl/monthly/edit',
    );
    expect(actual.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'monthly', key: 'order', year: 1, month: 1, detail: 'actual', new: 3 }),
        expect.objectContaining({ kind: 'status', key: 'status', year: 1, month: 1, new: 'ACT' }),
      ]),
    );
  });

  it('records a plan with an icon by its hash, and a write to its inputs as that write only', async () => {
    const owner = await api.user('owner-icon@example.com', 'team');
    // A PNG of about 1 MB (random grey pixels); the plan keeps it re-encoded, in `plan_icons`.
    const pixels = { raw: { width: 1024, height: 1024, channels: 1 as const } };
    const icon = new Uint8Array(
      await sharp(randomBytes(1024 * 1024), pixels)
        .toColourspace('b-w')
        .png()
        .toBuffer(),
    );
    const created = await api.call('POST', '/business-plan/create', {
      token: owner.token,
      form: planForm({}, { bytes: icon, name: 'icon.png' }),
    });
    expect(created.status).toBe(201);
    const planId: number = created.body.data.business_plan_id;
    const caseId = Number((await api.db('cases').where({ plan_id: planId }).first()).id);
    const rowsOf = (changeId: number) => api.db('plan_change_rows').where({ change_id: changeId }).orderBy('id');
    const changes = () => api.db('plan_changes').where({ plan_id: planId }).orderBy('id');

    const [creation] = await changes();
    const planRows = (await rowsOf(Number(creation.id))).filter((r) => r.table_name === 'business_plans');
    expect(planRows).toHaveLength(1);
    const { icon_hash } = await api.db('business_plans').where({ id: planId }).first();
    expect(icon_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(planRows[0].new_row).toMatchObject({ id: planId, name: 'Acme plan', icon_hash, icon_type: 'image/webp' });
    expect(planRows[0].new_row).not.toHaveProperty('icon');

    const edit = await api.call('POST', '/case/edit', {
      token: owner.token,
      body: { business_plan_id: planId, case_id: caseId, year: 1, key: 'cogs_rate', value: 0.33 },
    });
    expect(edit.status).toBe(200);
    const afterEdit = await changes();
    expect(afterEdit).toHaveLength(2);
    // The version bump that went with it is not a change of the plan's row.
    expect((await rowsOf(Number(afterEdit[1].id))).map((r) => r.table_name)).toEqual(['case_year_inputs']);

    const form = new FormData();
    form.set('business_plan_id', String(planId));
    form.set('business_plan_name', 'Renamed');
    const renamed = await api.call('POST', '/business-plan/edit', { token: owner.token, form });
    expect(renamed.status).toBe(200);
    const afterRename = await changes();
    expect(afterRename).toHaveLength(3);
    const [renameRow] = await rowsOf(Number(afterRename[2].id));
    expect(renameRow).toMatchObject({ table_name: 'business_plans' });
    expect(renameRow.old_row).toMatchObject({ name: 'Acme plan', icon_hash });
    expect(renameRow.new_row).toMatchObject({ name: 'Renamed', icon_hash });
    expect(renameRow.new_row).not.toHaveProperty('icon');
    expect(renameRow.new_row).not.toHaveProperty('version');
  });

  it('keeps parallel writes apart: each change holds its own edit only', async () => {
    const p = await ownerPlan('parallel');
    const values = Array.from({ length: 10 }, (_, i) => (i + 1) / 1000);
    const answers = await Promise.all(
      values.map((value, i) =>
        p.post('/case/edit', { case_id: p.baseId, year: 1 + (i % 6), key: i < 6 ? 'churn_rate' : 'cogs_rate', value }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(values.map(() => 200));
    const changes = (await p.get('/history')).body.data.changes.filter(
      (c: { action: string }) => c.action === '/case/edit',
    );
    expect(changes).toHaveLength(10);
    for (const change of changes) expect(change.items).toHaveLength(1);
    expect(changes.map((c: { items: { new: number }[] }) => c.items[0]?.new).sort()).toEqual(values);
  });

  it('records a write made outside the app as unattributed, and pages a long history', async () => {
    const p = await ownerPlan('pages');
    await api.db('case_year_inputs').insert({ case_id: p.baseId, year: 4, key: 'employees', value: 12 });
    const outside = await p.newest();
    expect(outside).toMatchObject({ action: 'unattributed', by: null });
    expect(outside.items[0]).toMatchObject({ kind: 'assumption', key: 'employees', year: 4, new: 12 });

    for (let i = 0; i < HISTORY_PAGE_SIZE + 5; i++) {
      await p.post('/case/edit', { case_id: p.baseId, year: 1, key: 'arpa', value: 50_000 + i });
    }
    const first = (await p.get('/history')).body.data;
    expect(first.changes).toHaveLength(HISTORY_PAGE_SIZE);
    expect(first.changes[0].items[0].new).toBe(50_000 + HISTORY_PAGE_SIZE + 4);
    const second = (await p.get('/history', { cursor: first.next_cursor })).body.data;
    // 5 more edits, the write from outside and the creation.
    expect(second.changes).toHaveLength(7);
    expect(second.next_cursor).toBeNull();
    expect(second.changes.at(-1).action).toBe('plan.create');
    const all = [...first.changes, ...second.changes].map((c: { id: number }) => c.id);
    expect(new Set(all).size).toBe(all.length);
  });
});
