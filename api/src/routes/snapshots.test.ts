import { SNAPSHOT_LIMIT, SNAPSHOT_NAME_MAX } from '@topline/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, rolesAt, startTestApi, type TestApi } from '../testing/harness';

/** A plan's snapshots over HTTP: who may do what, the limit under parallel saves, the XLSX and the restore. */
const TODAY = new Date('2026-07-15T09:00:00Z');
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ now: () => TODAY });
});
afterAll(async () => {
  await api.close();
});

/** A Team owner's plan with an editor of the monthly P&L, a viewer, a member without it, and a stranger. */
async function sharedPlan(tag: string) {
  const owner = await api.user(`owner-${tag}@example.com`, 'team');
  const created = await api.call('POST', '/business-plan/create', { token: owner.token, form: planForm() });
  expect(created.status).toBe(201);
  const planId: number = created.body.data.business_plan_id;
  const invite = async (email: string, r: Record<string, string>) => {
    const added = await api.call('POST', '/authority/add', {
      token: owner.token,
      body: { business_plan_id: planId, email, ...r },
    });
    expect(added.status).toBe(200);
    return (await api.user(email, 'free')).token;
  };
  const editor = await invite(`editor-${tag}@example.com`, rolesAt('can_view', { monthly_pl: 'can_edit' }));
  const viewer = await invite(`viewer-${tag}@example.com`, rolesAt('can_view'));
  const blind = await invite(`blind-${tag}@example.com`, rolesAt('can_view', { monthly_pl: 'no_access' }));
  const stranger = (await api.user(`stranger-${tag}@example.com`, 'team')).token;
  const caseId: number = (await api.db('cases').where({ plan_id: planId }).first()).id;
  return { planId, caseId, owner: owner.token, editor, viewer, blind, stranger };
}

type Plan = Awaited<ReturnType<typeof sharedPlan>>;

const post = (p: Plan, token: string, path: string, body: Record<string, unknown> = {}) =>
  api.call('POST', path, { token, body: { business_plan_id: p.planId, ...body } });
const save = (p: Plan, token: string, name: string) => post(p, token, '/snapshot/create', { name });
const list = (p: Plan, token: string) =>
  api.call('GET', '/snapshot/list', { token, query: { business_plan_id: p.planId } });
const planFile = async (p: Plan) => {
  const answer = await api.call('GET', '/business-plan/file', {
    token: p.owner,
    query: { business_plan_id: p.planId },
  });
  expect(answer.status).toBe(200);
  return answer.body.data.plan as unknown;
};
const version = async (p: Plan) => Number((await api.db('business_plans').where({ id: p.planId }).first()).version);

/** A download's bytes (the harness reads answers as text). */
async function download(token: string, path: string, query: Record<string, number>) {
  const url = new URL(
    `/api/v1${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
    api.url,
  );
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'x' } });
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()), headers: response.headers };
}

/** Every non-empty cell of every sheet, by sheet and address: what the workbook says, not how the file is zipped. */
async function cells(bytes: Uint8Array): Promise<Record<string, unknown>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: Record<string, unknown> = {};
  book.eachSheet((sheet) => {
    sheet.eachRow((row) => {
      row.eachCell((cell) => {
        out[`${sheet.name}!${cell.address}`] = cell.value;
      });
    });
  });
  return out;
}

describe('snapshots', () => {
  it('follow the monthly P&L role: editors save and rename, viewers list, the owner deletes, strangers see nothing', async () => {
    const p = await sharedPlan('roles');
    const before = await version(p);
    const first = await save(p, p.owner, '  Board plan FY2026  ');
    expect(first.status).toBe(201);
    expect(first.body.data.snapshot).toMatchObject({ name: 'Board plan FY2026', created_by: 'Hana Sato' });
    // When: the database's clock, as the history's.
    expect(Math.abs(Date.parse(first.body.data.snapshot.created_at) - Date.now())).toBeLessThan(60_000);
    // Saving is no change of the inputs: the plan's version stays, and the history records nothing.
    expect(await version(p)).toBe(before);
    const second = await save(p, p.editor, 'Editor draft');
    expect(second.status).toBe(201);
    expect(second.body.data.snapshot.created_by).toBe('editor-roles');
    expect((await save(p, p.viewer, 'x')).status).toBe(403);
    expect((await save(p, p.blind, 'x')).status).toBe(403);
    expect((await save(p, p.stranger, 'x')).status).toBe(404);

    for (const token of [p.owner, p.editor, p.viewer]) {
      const answer = await list(p, token);
      expect(answer.status).toBe(200);
      expect(answer.body.data.snapshots.map((s: { name: string }) => s.name)).toEqual([
        'Editor draft',
        'Board plan FY2026',
      ]);
    }
    expect((await list(p, p.owner)).body.data).toMatchObject({
      can_edit: true,
      can_delete: true,
      can_restore: true,
      can_download: true,
    });
    expect((await list(p, p.editor)).body.data).toMatchObject({
      can_edit: true,
      can_delete: false,
      can_restore: false,
    });
    expect((await list(p, p.viewer)).body.data).toMatchObject({
      can_edit: false,
      can_delete: false,
      can_download: true,
    });
    expect((await list(p, p.blind)).status).toBe(403);
    expect((await list(p, p.stranger)).status).toBe(404);

    const id: number = first.body.data.snapshot.id;
    const renamed = await post(p, p.editor, '/snapshot/rename', { snapshot_id: id, name: 'Board plan FY2026 v2' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.snapshot).toMatchObject({ id, name: 'Board plan FY2026 v2' });
    expect((await post(p, p.viewer, '/snapshot/rename', { snapshot_id: id, name: 'x' })).status).toBe(403);
    expect((await post(p, p.stranger, '/snapshot/rename', { snapshot_id: id, name: 'x' })).status).toBe(404);

    // The viewers and the editor download; a member who may not see every area does not.
    expect((await download(p.viewer, '/snapshot/xlsx', { business_plan_id: p.planId, snapshot_id: id })).status).toBe(
      200,
    );
    expect((await download(p.blind, '/snapshot/xlsx', { business_plan_id: p.planId, snapshot_id: id })).status).toBe(
      403,
    );
    expect((await download(p.stranger, '/snapshot/xlsx', { business_plan_id: p.planId, snapshot_id: id })).status).toBe(
      404,
    );

    // A restore rewrites every area: not the monthly P&L's editor's to make.
    expect((await post(p, p.editor, '/snapshot/restore', { snapshot_id: id })).status).toBe(403);
    expect((await post(p, p.viewer, '/snapshot/restore', { snapshot_id: id })).status).toBe(403);

    for (const token of [p.editor, p.viewer, p.blind]) {
      expect((await post(p, token, '/snapshot/delete', { snapshot_id: id })).status).toBe(403);
    }
    expect((await post(p, p.stranger, '/snapshot/delete', { snapshot_id: id })).status).toBe(404);
    expect((await post(p, p.owner, '/snapshot/delete', { snapshot_id: id })).status).toBe(200);
    expect((await post(p, p.owner, '/snapshot/delete', { snapshot_id: id })).status).toBe(404);
    expect((await list(p, p.owner)).body.data.snapshots).toHaveLength(1);

    // Another plan's snapshot is not this plan's to touch.
    const other = await sharedPlan('roles-other');
    const foreign = second.body.data.snapshot.id;
    expect((await post(other, other.owner, '/snapshot/rename', { snapshot_id: foreign, name: 'x' })).status).toBe(404);
    expect((await post(other, other.owner, '/snapshot/delete', { snapshot_id: foreign })).status).toBe(404);
    expect((await post(other, other.owner, '/snapshot/restore', { snapshot_id: foreign })).status).toBe(404);
  });

  it('take a single-line name of at most the limit, and need Basic or Team', async () => {
    const p = await sharedPlan('names');
    expect((await save(p, p.owner, '   ')).status).toBe(400);
    expect((await save(p, p.owner, 'Board\nplan')).status).toBe(400);
    expect((await save(p, p.owner, 'x'.repeat(SNAPSHOT_NAME_MAX + 1))).status).toBe(400);
    expect((await save(p, p.owner, 'x'.repeat(SNAPSHOT_NAME_MAX))).status).toBe(201);

    const free = await api.user('owner-free@example.com', 'free');
    const created = await api.call('POST', '/business-plan/create', { token: free.token, form: planForm() });
    const freePlan = { ...p, planId: created.body.data.business_plan_id as number };
    const locked = await save(freePlan, free.token, 'Board plan');
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('tier_lock');
    expect((await list(freePlan, free.token)).status).toBe(403);
  });

  it(`hold at most ${SNAPSHOT_LIMIT} per plan, under parallel saves too, and the refusal names the limit`, async () => {
    const p = await sharedPlan('limit');
    const answers = await Promise.all(
      Array.from({ length: SNAPSHOT_LIMIT + 5 }, (_, i) => save(p, i % 2 ? p.editor : p.owner, `Plan ${i}`)),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(SNAPSHOT_LIMIT);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(5);
    for (const answer of refused) {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('limit');
      expect(answer.body.limit).toEqual({ name: 'snapshots', max: SNAPSHOT_LIMIT, value: SNAPSHOT_LIMIT + 1 });
      expect(answer.body.errors.name).toContain(String(SNAPSHOT_LIMIT));
    }
    const [row] = await api.db('plan_snapshots').where({ plan_id: p.planId }).count({ count: '*' });
    expect(Number(row?.count)).toBe(SNAPSHOT_LIMIT);
    // Deleting one makes room for one.
    const oldest = (await list(p, p.owner)).body.data.snapshots.at(-1).id;
    expect((await post(p, p.owner, '/snapshot/delete', { snapshot_id: oldest })).status).toBe(200);
    expect((await save(p, p.owner, 'One more')).status).toBe(201);
    expect((await save(p, p.owner, 'One too many')).status).toBe(400);
  });

  it('download as the plan stood when saved, and restore its inputs as one recorded change', async () => {
    const p = await sharedPlan('restore');
    const query = { business_plan_id: p.planId };
    const exportBefore = await download(p.owner, '/business-plan/xlsx', query);
    expect(exportBefore.status).toBe(200);
    const fileBefore = await planFile(p);
    const saved = await save(p, p.owner, 'Board plan FY2026');
    const id: number = saved.body.data.snapshot.id;

    const edit = { case_id: p.caseId, year: 2, key: 'churn_rate', value: 0.031 };
    expect((await post(p, p.owner, '/case/edit', edit)).status).toBe(200);
    const fileEdited = await planFile(p);
    expect(fileEdited).not.toEqual(fileBefore);

    const snapshotXlsx = await download(p.viewer, '/snapshot/xlsx', { ...query, snapshot_id: id });
    expect(snapshotXlsx.status).toBe(200);
    expect(snapshotXlsx.headers.get('content-disposition')).toContain('.xlsx');
    const exportAfter = await download(p.owner, '/business-plan/xlsx', query);
    expect(await cells(snapshotXlsx.bytes)).toEqual(await cells(exportBefore.bytes));
    expect(await cells(exportAfter.bytes)).not.toEqual(await cells(exportBefore.bytes));

    const versionBefore = await version(p);
    const restored = await post(p, p.owner, '/snapshot/restore', { snapshot_id: id });
    expect(restored.status).toBe(200);
    expect(restored.body.data.version).toBe(versionBefore + 1);
    expect(await planFile(p)).toEqual(fileBefore);
    // Once more is nothing to do.
    const again = await post(p, p.owner, '/snapshot/restore', { snapshot_id: id });
    expect(again.status).toBe(400);
    expect(again.body.errors.snapshot_id).toBeDefined();

    const history = await api.call('GET', '/history', { token: p.owner, query });
    expect(history.status).toBe(200);
    const [latest] = history.body.data.changes;
    expect(latest).toMatchObject({ id: restored.body.data.id, action: 'history.restore' });
    expect(latest.restored_from).toBe(Number((await api.db('plan_snapshots').where({ id }).first()).change_id));
    // The edit is undone: the year's churn rate it added is gone again.
    expect(latest.items).toContainEqual(expect.objectContaining({ key: 'churn_rate', year: 2, old: 0.031 }));
  });
});
