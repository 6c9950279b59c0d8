/**
 * The XLSX import's bounds (`XLSX_IMPORT_LIMITS`): a file is read only for a caller who may import into the plan,
 * on a worker that is ended after it, and a file over a bound is a 400 naming it; imports at once are limited.
 */
import { XLSX_IMPORT_LIMITS } from '@topline/contract';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xlsxWorkers } from '../services/spreadsheets/xlsxReader';
import { planForm, startTestApi, type TestApi } from '../testing/harness';

let api: TestApi;
let owner: string;
let planIds: number[];
let exported: Uint8Array;

beforeAll(async () => {
  api = await startTestApi({ now: () => new Date('2026-10-15T09:00:00Z') });
  ({ token: owner } = await api.user('xlsx-bounds@example.com', 'team'));
  planIds = [];
  for (const name of ['First', 'Second', 'Third']) {
    const form = planForm({ business_plan_name: name });
    planIds.push((await api.call('POST', '/business-plan/create', { token: owner, form })).body.data.business_plan_id);
  }
  exported = await download(planIds[0] as number);
});
afterAll(async () => {
  await api.close();
});

async function download(id: number): Promise<Uint8Array> {
  const url = new URL(`/api/v1/business-plan/xlsx?business_plan_id=${id}`, api.url);
  const response = await fetch(url, { headers: { Authorization: `Bearer ${owner}`, 'X-Requested-With': 'x' } });
  return new Uint8Array(await response.arrayBuffer());
}

function upload(token: string, bytes: Uint8Array, id = planIds[0] as number) {
  const form = new FormData();
  form.set('business_plan_id', String(id));
  form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), 'plan.xlsx');
  return api.call('POST', '/business-plan/xlsx/import', { token, form });
}

/** The plan's own export with one more part: what a hostile file hides beside the sheets an import reads. */
async function withPart(name: string, xml: string): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(exported);
  zip.file(name, xml);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

const sheetXml = (rows: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;

/** Waits for every worker the import started to be ended. */
async function workersEnded(): Promise<number> {
  for (let i = 0; i < 100 && xlsxWorkers().live > 0; i++) await new Promise((r) => setTimeout(r, 50));
  return xlsxWorkers().live;
}

describe('POST /business-plan/xlsx/import bounds', () => {
  it('refuses a caller who may not import into the plan before reading the file', async () => {
    const { token: stranger } = await api.user('xlsx-stranger@example.com', 'free');
    const started = xlsxWorkers().started;
    const answer = await upload(stranger, exported);
    expect(answer.status).toBe(404);
    expect(xlsxWorkers().started).toBe(started);
  });

  it('refuses more cells, more rows and a longer text than the bounds, naming each, and ends the worker', async () => {
    const { cells, rows, stringLength } = XLSX_IMPORT_LIMITS;
    const row = `<row>${'<c><v>1</v></c>'.repeat(1000)}</row>`;
    const manyCells = await withPart('xl/worksheets/sheet90.xml', sheetXml(row.repeat(cells / 1000 + 1)));
    const manyRows = await withPart('xl/worksheets/sheet91.xml', sheetXml('<row><c><v>1</v></c></row>'.repeat(rows)));
    const text = `<row><c t="inlineStr"><is><t>${'x'.repeat(stringLength + 1)}</t></is></c></row>`;
    const longText = await withPart('xl/worksheets/sheet92.xml', sheetXml(text));
    for (const [bytes, name, max] of [
      [manyCells, 'xlsx_cells', cells],
      [manyRows, 'xlsx_rows', rows],
      [longText, 'xlsx_string_length', stringLength],
    ] as const) {
      const answer = await upload(owner, bytes);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('limit');
      expect(answer.body.limit).toMatchObject({ name, max });
      expect(answer.body.limit.value).toBeGreaterThan(max);
      expect(answer.body.errors.file).toBe(answer.body.message);
    }
    expect(await workersEnded()).toBe(0);
  });

  it('refuses a file that inflates past the bound from its zip directory, before inflating it', async () => {
    const max = XLSX_IMPORT_LIMITS.uncompressedBytes;
    const zeros = await withPart('xl/media/zeros.bin', '0'.repeat(max + 1));
    expect(zeros.length).toBeLessThan(1_000_000);
    const answer = await upload(owner, zeros);
    expect(answer.status).toBe(400);
    expect(answer.body.limit).toEqual({ name: 'xlsx_uncompressed_bytes', max, value: expect.any(Number) });
    expect(answer.body.limit.value).toBeGreaterThan(max);
    expect(await workersEnded()).toBe(0);
  });

  it('answers a date cell out of the date range as a 400 naming the cell', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported as unknown as ArrayBuffer);
    const cell = book.getWorksheet('Base case Actuals')?.getCell('E7');
    if (!cell) throw new Error('no actual-inputs sheet');
    cell.value = 1e12;
    cell.numFmt = 'yyyy-mm-dd';
    const answer = await upload(owner, new Uint8Array(await book.xlsx.writeBuffer()));
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual({ 'Base case Actuals!E7': 'the date is out of range' });
  });

  it('runs one import of a plan at a time and a few of a user', async () => {
    const files = await Promise.all(planIds.map((id) => download(id)));
    const samePlan = await Promise.all([upload(owner, exported), upload(owner, exported)]);
    expect(samePlan.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = samePlan.find((a) => a.status === 409);
    expect(refused?.body.limit).toEqual({ name: 'imports_per_plan', max: 1, value: 2 });

    const three = await Promise.all(planIds.map((id, i) => upload(owner, files[i] as Uint8Array, id)));
    expect(three.map((a) => a.status).sort()).toEqual([200, 200, 429]);
    const limited = three.find((a) => a.status === 429);
    expect(limited?.body.limit).toEqual({ name: 'imports_per_user', max: 2, value: 3 });
    // Once they have ended, the plan takes an import again.
    expect((await upload(owner, exported)).status).toBe(200);
    expect(await workersEnded()).toBe(0);
  }, 240_000);
});
