import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AREAS, asOfMonth, engineEdits, type PlanChange, planChangesIn } from '@topline/contract';
import { PlanWorkbook } from '@topline/engine';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, startTestApi, type TestApi } from '../testing/harness';

const SOFFICE = ['/usr/bin/soffice', '/usr/lib/libreoffice/program/soffice'].find((p) => existsSync(p));
/**
 * The round trip through Calc runs on the embedded database only: the file Calc writes is the same whichever database
 * serves the API, and the import of a typed file runs on both in the tests before it. A run of Calc takes 15 s here.
 */
const CALC_ROUND_TRIP = SOFFICE !== undefined && !process.env.TEST_DATABASE_URL;

let api: TestApi;
let owner: string;
let planId: number;
let otherPlanId: number;
let caseId: number;

// A plan that starts in April 2026, read on 2026-10-15.
const today = new Date('2026-10-15T09:00:00Z');

beforeAll(async () => {
  api = await startTestApi({ now: () => today });
  ({ token: owner } = await api.user('xlsx-owner@example.com', 'team'));
  planId = (await api.call('POST', '/business-plan/create', { token: owner, form: planForm() })).body.data
    .business_plan_id;
  otherPlanId = (
    await api.call('POST', '/business-plan/create', {
      token: owner,
      form: planForm({ business_plan_name: 'Other plan' }),
    })
  ).body.data.business_plan_id;
  caseId = (await api.db('cases').where({ plan_id: planId }).first()).id;
});
afterAll(async () => {
  await api.close();
});

/** The XLSX download as bytes (the harness reads answers as text). */
async function download(token: string, id = planId): Promise<{ status: number; bytes: Uint8Array; headers: Headers }> {
  const url = new URL(`/api/v1/business-plan/xlsx?business_plan_id=${id}`, api.url);
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'x' } });
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()), headers: response.headers };
}

async function load(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book;
}

async function save(book: ExcelJS.Workbook): Promise<Uint8Array> {
  return new Uint8Array(await book.xlsx.writeBuffer());
}

function upload(token: string, bytes: Uint8Array | undefined, id = planId) {
  const form = new FormData();
  form.set('business_plan_id', String(id));
  if (bytes) form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), 'plan.xlsx');
  return api.call('POST', '/business-plan/xlsx/import', { token, form });
}

async function actualRows() {
  const inputs = await api
    .db('monthly_inputs')
    .where({ case_id: caseId, layer: 'actual' })
    .orderBy(['month', 'key'])
    .select('month', 'key', 'value');
  const statuses = await api.db('monthly_status').where({ case_id: caseId }).orderBy('month').select('month', 'status');
  return {
    inputs: inputs.map((r) => ({ month: Number(r.month), key: r.key, value: Number(r.value) })),
    statuses: statuses.map((r) => ({ month: Number(r.month), status: r.status })),
  };
}

async function member(email: string, roles: Record<string, string>) {
  await api.db('plan_members').insert({
    plan_id: planId,
    email,
    status: 'yet',
    ...Object.fromEntries(AREAS.map((a) => [a, roles[a] ?? roles['*'] ?? 'no_access'])),
  });
  return (await api.user(email)).token;
}

describe('GET /business-plan/xlsx', () => {
  it('gives the owner the workbook with live formulas, an actual-inputs sheet per case and the plan named', async () => {
    const answer = await download(owner);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('spreadsheetml');
    expect(answer.headers.get('content-disposition')).toContain('Acme_plan_Base_case_workbook_20261015.xlsx');
    const book = await load(answer.bytes);
    expect(book.getWorksheet('Base case Estimate')?.getCell('B5').formula).toBeTruthy();
    const inputs = book.getWorksheet('Base case Actuals');
    expect(inputs?.getCell('A1').value).toBe('Actual input');
    expect(inputs?.getCell('C1').value).toBe('2026/04');
    expect(inputs?.getCell('B2').value).toBe('session');
    const marker = book.getWorksheet('Topline');
    expect(marker?.state).toBe('hidden');
    expect(marker?.getCell('B1').value).toBe(String(planId));
  });

  it('gives it to a member who may view every area, and refuses one who may not with a message', async () => {
    const viewer = await member('xlsx-viewer@example.com', { '*': 'can_view' });
    expect((await download(viewer)).status).toBe(200);
    const partial = await member('xlsx-partial@example.com', { '*': 'can_view', ga: 'no_access' });
    const refused = await api.call('GET', '/business-plan/xlsx', {
      token: partial,
      query: { business_plan_id: planId },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBeTruthy();
    const { token: stranger } = await api.user('xlsx-stranger@example.com', 'team');
    expect((await download(stranger)).status).toBe(404);
  });
});

// Each import reads the file on a worker of its own: on a busy host, a test of a few takes minutes.
describe('POST /business-plan/xlsx/import', { timeout: 240_000 }, () => {
  it('saves the typed actuals in one go and lists every change; the screens recompute', async () => {
    const book = await load((await download(owner)).bytes);
    const sheet = book.getWorksheet('Base case Actuals');
    if (!sheet) throw new Error('no actual-inputs sheet');
    // Rows: 2 session, 3 lead, 4 meeting, 5 order, 6 churn, 7 arpa, ... 10 sm; columns C = 2026/04, D = 2026/05.
    sheet.getCell('C2').value = 1200;
    sheet.getCell('C5').value = 3;
    sheet.getCell('C7').value = 48000;
    sheet.getCell('D10').value = 500000;
    const versionBefore = (await api.db('business_plans').where({ id: planId }).first()).version;
    const answer = await upload(owner, await save(book));
    expect(answer.status).toBe(200);
    expect(answer.body.data.changes).toEqual([
      { case_id: caseId, month: '2026/04', key: 'session', old: null, new: 1200 },
      { case_id: caseId, month: '2026/04', key: 'order', old: null, new: 3 },
      { case_id: caseId, month: '2026/04', key: 'arpa', old: null, new: 48000 },
      { case_id: caseId, month: '2026/05', key: 'sm', old: null, new: 500000 },
    ]);
    expect(await actualRows()).toEqual({
      inputs: [
        { month: 1, key: 'arpa', value: 48000 },
        { month: 1, key: 'order', value: 3 },
        { month: 1, key: 'session', value: 1200 },
        { month: 2, key: 'sm', value: 500000 },
      ],
      statuses: [
        { month: 1, status: 'ACT' },
        { month: 2, status: 'ACT' },
      ],
    });
    // One write: the version moved by one.
    expect((await api.db('business_plans').where({ id: planId }).first()).version).toBe(versionBefore + 1);
    // The monthly P&L's actual view: April has 3 customers at 48,000 each, MRR 144,000.
    const monthly = await api.call('GET', '/pl/monthly/retrieve', {
      token: owner,
      query: { business_plan_id: planId, case_id: caseId, year: 1 },
    });
    expect(monthly.status).toBe(200);
    const text = JSON.stringify(monthly.body.data);
    expect(text).toContain('144000');
  });

  it('answers no change for the file it just exported, and removes an emptied cell and an emptied month', async () => {
    const again = await upload(owner, (await download(owner)).bytes);
    expect(again.status).toBe(200);
    expect(again.body.data.changes).toEqual([]);
    const book = await load((await download(owner)).bytes);
    const sheet = book.getWorksheet('Base case Actuals');
    if (!sheet) throw new Error('no actual-inputs sheet');
    sheet.getCell('C5').value = null; // April's order
    sheet.getCell('D10').value = null; // May's only value: the month goes back to EST
    const file = await api.call('GET', '/business-plan/file', { token: owner, query: { business_plan_id: planId } });
    const answer = await upload(owner, await save(book));
    expect(answer.status).toBe(200);
    expect(answer.body.data.changes).toEqual([
      { case_id: caseId, month: '2026/04', key: 'order', old: 3, new: null },
      { case_id: caseId, month: '2026/05', key: 'sm', old: 500000, new: null },
    ]);
    expect(await actualRows()).toEqual({
      inputs: [
        { month: 1, key: 'arpa', value: 48000 },
        { month: 1, key: 'session', value: 1200 },
      ],
      statuses: [
        { month: 1, status: 'ACT' },
        { month: 2, status: 'EST' },
      ],
    });
    // The answer's change set: each changed month whole (every key, null where empty), May then back to EST. A
    // workbook that follows it (the browser's) answers what one built from the stored inputs answers.
    const changes = planChangesIn(answer.body) ?? [];
    expect(changes.map((c) => [c.type, 'month' in c ? c.month : null])).toEqual([
      ['actual', 1],
      ['actual', 2],
      ['reverse', 2],
    ]);
    const [april, may] = changes as Extract<PlanChange, { type: 'actual' }>[];
    expect(april?.values).toMatchObject({ session: 1200, order: null, arpa: 48000, sm: null });
    expect(Object.values(may?.values ?? {}).every((value) => value === null)).toBe(true);
    const asOf = asOfMonth(today);
    const follower = PlanWorkbook.build(file.body.data.plan, { asOf });
    follower.apply(engineEdits(changes, file.body.data.case_ids));
    const stored = await api.call('GET', '/business-plan/file', { token: owner, query: { business_plan_id: planId } });
    const built = PlanWorkbook.build(stored.body.data.plan, { asOf });
    expect(follower.monthlyPl(0, 1)).toEqual(built.monthlyPl(0, 1));
    expect(follower.annualPl(0)).toEqual(built.annualPl(0));
    follower.destroy();
    built.destroy();
  });

  it('lists every wrong cell as a 400 and writes nothing', async () => {
    const before = await actualRows();
    const version = (await api.db('business_plans').where({ id: planId }).first()).version;
    const book = await load((await download(owner)).bytes);
    const sheet = book.getWorksheet('Base case Actuals');
    if (!sheet) throw new Error('no actual-inputs sheet');
    sheet.getCell('E7').value = 'abc'; // June ARPA
    sheet.getCell('C5').value = -1; // April orders
    sheet.getCell('F2').value = 100; // a valid value beside them is not saved either
    const answer = await upload(owner, await save(book));
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual({
      'Base case Actuals!C5': 'must be a whole number from 0 to 1,000,000,000',
      'Base case Actuals!E7': 'not a number',
    });
    expect(answer.body.message).toBe(
      'Base case Actuals!C5: must be a whole number from 0 to 1,000,000,000\nBase case Actuals!E7: not a number',
    );
    expect(await actualRows()).toEqual(before);
    expect((await api.db('business_plans').where({ id: planId }).first()).version).toBe(version);
  });

  it('refuses a file without the actual-inputs sheet, another plan’s file, and something that is not XLSX', async () => {
    const book = await load((await download(owner)).bytes);
    const sheet = book.getWorksheet('Base case Actuals');
    if (sheet) book.removeWorksheet(sheet.id);
    const missing = await upload(owner, await save(book));
    expect(missing.status).toBe(400);
    // With no sheet of the file named after a case left to read, the sheet is named as the workbook names it.
    expect(missing.body.errors).toEqual({ 'C1 Actuals': 'the sheet is missing' });

    const other = await upload(owner, (await download(owner, otherPlanId)).bytes);
    expect(other.status).toBe(400);
    expect(other.body.errors['Topline!B1']).toBe('the file was exported from another business plan');

    const text = await upload(owner, new TextEncoder().encode('session,order\n1,2\n'));
    expect(text.status).toBe(400);
    expect(text.body.errors).toEqual({ file: 'the file is not an XLSX workbook' });
    const none = await upload(owner, undefined);
    expect(none.status).toBe(400);
    expect(Object.keys(none.body.errors)).toEqual(['file']);
  });

  it('needs can_edit on actuals', async () => {
    const bytes = (await download(owner)).bytes;
    const viewer = await member('xlsx-actuals-viewer@example.com', { '*': 'can_view' });
    expect((await upload(viewer, bytes)).status).toBe(403);
    const editor = await member('xlsx-actuals-editor@example.com', { actuals: 'can_edit' });
    const answer = await upload(editor, bytes);
    expect(answer.status).toBe(200);
    expect(answer.body.data.changes).toEqual([]);
  });

  it.skipIf(!CALC_ROUND_TRIP)(
    'reads a file saved again by LibreOffice Calc after a value was typed (on PGlite; skipped without soffice)',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'topline-xlsx-import-'));
      try {
        const book = await load((await download(owner)).bytes);
        const sheet = book.getWorksheet('Base case Actuals');
        if (!sheet) throw new Error('no actual-inputs sheet');
        sheet.getCell('C6').value = 2; // April churn
        const input = join(dir, 'edited.xlsx');
        await writeFile(input, await save(book));
        const out = join(dir, 'out');
        await mkdir(join(dir, 'profile'), { recursive: true });
        await promisify(execFile)(
          SOFFICE ?? 'soffice',
          [
            `-env:UserInstallation=file://${join(dir, 'profile')}`,
            '--headless',
            '--norestore',
            '--convert-to',
            'xlsx:Calc MS Excel 2007 XML',
            '--outdir',
            out,
            input,
          ],
          { timeout: 120_000 },
        );
        const answer = await upload(owner, new Uint8Array(await readFile(join(out, 'edited.xlsx'))));
        expect(answer.status).toBe(200);
        expect(answer.body.data.changes).toEqual([
          { case_id: caseId, month: '2026/04', key: 'churn', old: null, new: 2 },
        ]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
