import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a1, monthColumn } from '../layout';
import { type PlanFile, parsePlanFile } from '../schema';
import { PlanWorkbook } from '../workbook';
import {
  actualInputColumn,
  actualInputKeys,
  actualInputRows,
  actualInputsSheetName,
  cellErrorText,
  readActualInputs,
  type SheetValues,
} from './actualInputs';
import { exportXlsx } from './xlsx';
import { readActualInputsXlsx, xlsxSheetValues } from './xlsxRead';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/plans');
const AS_OF = { year: 2026, month: 9 };

async function fixture(file: string): Promise<PlanFile> {
  return parsePlanFile(JSON.parse(await readFile(join(FIXTURES, file), 'utf8')));
}

/** A copy of the sheets whose cells can be set. */
function editable(sheets: SheetValues): Record<string, (string | number | boolean | null)[][]> {
  return Object.fromEntries(Object.entries(sheets).map(([k, rows]) => [k, rows.map((r) => [...(r ?? [])])]));
}

describe('the actual-inputs sheets', () => {
  let plan: PlanFile;
  let wb: PlanWorkbook;
  let bytes: Uint8Array;

  beforeAll(async () => {
    plan = await fixture('actuals-revisions.json');
    wb = PlanWorkbook.build(plan, { asOf: AS_OF });
    bytes = await exportXlsx(wb, { planId: 42 });
  });
  afterAll(() => wb.destroy());

  it('lays out one row per actual input of the template and one column per plan month, headed YYYY/MM', async () => {
    const sheets = await xlsxSheetValues(bytes);
    const grid = sheets['C1 Actuals'] ?? [];
    expect(grid[0]?.slice(0, 4)).toEqual(['Actual input', 'key', '2026/01', '2026/02']);
    expect(grid[0]?.[73]).toBe('2031/12');
    expect(grid.slice(1).map((r) => r?.[1])).toEqual([
      'session',
      'lead',
      'meeting',
      'order',
      'churn',
      'arpa',
      'professional_service',
      'cogs',
      'sm',
      'rd',
      'ga',
      'employees',
      'beginning_cash_balance',
      'equity_raised',
      'debt_raised',
      'debt_payment',
      'other',
    ]);
    // Month 1 of case 1 as the fixture holds it: 1,000 sessions, ARPA 100,000, opening cash 30,000,000.
    expect(grid[1]?.[2]).toBe(1000);
    expect(grid[6]?.[2]).toBe(100000);
    expect(grid[13]?.[2]).toBe(30_000_000);
    expect(sheets['C2 Actuals']).toBeDefined();
    expect(sheets.Topline?.[0]).toEqual(['business_plan_id', '42']);
    expect(actualInputKeys('selfserve').slice(0, 3)).toEqual(['session', 'registration', 'order']);
  });

  it('reads an unchanged export as no change', async () => {
    const reading = await readActualInputsXlsx(plan, bytes, { planId: 42 });
    expect(reading).toEqual({ ok: true, changes: [], months: [new Map(), new Map()] });
  });

  it('lists every change: a new value, a changed one, an emptied cell, a new month, an emptied month', async () => {
    const sheets = editable(await xlsxSheetValues(bytes));
    const s = sheets['C1 Actuals'] ?? [];
    const rows = actualInputRows('saas');
    const set = (key: string, t: number, v: string | number | null) => {
      const row = s[rows[key] ?? 0] ?? [];
      row[actualInputColumn(t)] = v;
    };
    set('session', 1, 1500); // was 1000
    set('lead', 2, null); // was 77
    set('order', 3, ' 3 '); // was 2; text that is a number
    const before = plan.cases[0]?.actuals['9'];
    expect(before).toBeUndefined();
    set('sm', 9, '1,250,000'); // month 9 had no actuals
    // Month 4 emptied whole.
    for (const key of actualInputKeys('saas')) set(key, 4, '');
    const reading = readActualInputs(plan, sheets, { planId: '42' });
    if (!reading.ok) throw new Error(reading.errors.map(cellErrorText).join('\n'));
    const month4 = plan.cases[0]?.actuals['4'] ?? {};
    const removed = actualInputKeys('saas').filter((k) => month4[k] !== undefined);
    expect(reading.changes.filter((c) => c.month !== 4)).toEqual([
      {
        caseIndex: 0,
        caseName: plan.cases[0]?.case_name,
        month: 1,
        yearMonth: '2026/01',
        key: 'session',
        old: 1000,
        new: 1500,
      },
      {
        caseIndex: 0,
        caseName: plan.cases[0]?.case_name,
        month: 2,
        yearMonth: '2026/02',
        key: 'lead',
        old: 77,
        new: null,
      },
      {
        caseIndex: 0,
        caseName: plan.cases[0]?.case_name,
        month: 3,
        yearMonth: '2026/03',
        key: 'order',
        old: 2,
        new: 3,
      },
      {
        caseIndex: 0,
        caseName: plan.cases[0]?.case_name,
        month: 9,
        yearMonth: '2026/09',
        key: 'sm',
        old: null,
        new: 1250000,
      },
    ]);
    expect(reading.changes.filter((c) => c.month === 4).map((c) => c.key)).toEqual(removed);
    expect(removed.length).toBeGreaterThan(5);
    expect(reading.months[0]?.get(4)).toBeUndefined();
    expect(reading.months[0]?.has(4)).toBe(true);
    expect(reading.months[0]?.get(9)).toEqual({ sm: 1250000, status: 'ACT' });
    expect(reading.months[0]?.get(2)?.lead).toBeUndefined();
    expect(reading.months[0]?.get(2)?.session).toBe(1100);
    expect(reading.months[1]?.size).toBe(0);
  });

  it('names every cell that is wrong and writes nothing', async () => {
    const sheets = editable(await xlsxSheetValues(bytes));
    const s = sheets['C1 Actuals'] ?? [];
    const rows = actualInputRows('saas');
    const at = (key: string) => s[rows[key] ?? 0] ?? [];
    at('session')[actualInputColumn(3)] = 'abc'; // E2
    at('order')[actualInputColumn(1)] = 1.5; // C5: not whole
    at('arpa')[actualInputColumn(2)] = 0; // D7: ARPA is at least a cent
    at('cogs')[actualInputColumn(5)] = 2e12; // G9
    at('employees')[actualInputColumn(6)] = true; // H13
    delete sheets['C2 Actuals'];
    const reading = readActualInputs(plan, sheets, { planId: 7 });
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.errors.map(cellErrorText)).toEqual([
      'Topline!B1: the file was exported from another business plan',
      'C1 Actuals!C5: must be a whole number from 0 to 1,000,000,000',
      'C1 Actuals!D7: must be a number from 0.01 to 1,000,000,000',
      'C1 Actuals!E2: not a number',
      'C1 Actuals!G9: must be a number from -1,000,000,000,000 to 1,000,000,000,000, 0 or at least 0.01 in size',
      'C1 Actuals!H13: not a number',
      'C2 Actuals: the sheet is missing',
    ]);
  });

  it('refuses a file without the plan marker, a wrong month header and a missing key row', async () => {
    const sheets = editable(await xlsxSheetValues(bytes));
    delete sheets.Topline;
    const s = sheets['C1 Actuals'] ?? [];
    (s[0] ?? [])[actualInputColumn(2)] = '2025/02';
    s.splice(actualInputRows('saas').churn ?? 0, 1);
    const reading = readActualInputs(plan, sheets, { planId: 42 });
    expect(reading.ok ? [] : reading.errors.map(cellErrorText)).toEqual([
      'Topline!B1: the file was not exported from a business plan',
      'C1 Actuals!D1: must be the month 2026/02',
      'C1 Actuals!B: the row of churn is missing',
    ]);
  });

  it('makes the Actual sheet read its entered values from the actual-inputs sheet', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const c = wb.caseLayout(0);
    const actual = book.getWorksheet(c.sheets.actual ?? '');
    const sessionJan = actual?.getCell(a1(c.rowOf.session ?? 0, 1));
    // Without an entered value the month keeps what the engine puts there (here the plan's sessions).
    expect(sessionJan?.formula).toMatch(/^IF\('C1 Actuals'!C2="",C1_Estimate!B\d+,'C1 Actuals'!C2\)$/);
    const orderJan = actual?.getCell(a1(c.rowOf.order ?? 0, 1));
    expect(orderJan?.formula).toMatch(/^IF\('C1 Actuals'!C5="",.+,'C1 Actuals'!C5\)$/);
    expect(orderJan?.result).toBe(1);
    expect(sessionJan?.result).toBe(1000);
    const arpaJan = actual?.getCell(a1(c.rowOf.arpa ?? 0, 1));
    expect(arpaJan?.formula).toMatch(/^IF\('C1 Actuals'!C7="",C1_Estimate!B\d+,'C1 Actuals'!C7\)$/);
    expect(book.getWorksheet('Topline')?.state).toBe('hidden');
    expect(actualInputsSheetName(2)).toBe('C3 Actuals');
  });
});

const SOFFICE = ['/usr/bin/soffice', '/usr/lib/libreoffice/program/soffice'].find((p) => existsSync(p));

/**
 * A number typed into the actual-inputs sheet recomputes the workbook in LibreOffice Calc: over an ACT month's value,
 * and into a forecast month, which then turns ACT in the actual view. The Actual sheet Calc computes is compared with
 * the engine's after the same actuals are saved.
 */
/** Types values into the exported actual-inputs sheet of case 1, lets Calc recompute, and reads its Actual sheet. */
async function typedInCalc(wb: PlanWorkbook, typed: { key: string; t: number; value: number }[]): Promise<string[][]> {
  const sheet = 'C1_Actual';
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await exportXlsx(wb, { cachedValues: false })) as unknown as ArrayBuffer);
  const inputs = book.getWorksheet('C1 Actuals');
  if (!inputs) throw new Error('no actual-inputs sheet');
  const rows = actualInputRows(wb.plan.template);
  for (const { key, t, value } of typed) inputs.getCell((rows[key] ?? 0) + 1, actualInputColumn(t) + 1).value = value;
  const dir = await mkdtemp(join(tmpdir(), 'topline-actual-inputs-'));
  try {
    const path = join(dir, 'typed.xlsx');
    await writeFile(path, new Uint8Array(await book.xlsx.writeBuffer()));
    await mkdir(join(dir, 'profile', 'user'), { recursive: true });
    await writeFile(
      join(dir, 'profile', 'user', 'registrymodifications.xcu'),
      `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`,
    );
    await promisify(execFile)(
      SOFFICE ?? 'soffice',
      [
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--headless',
        '--norestore',
        '--convert-to',
        'csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,false,false,false,-1',
        '--outdir',
        dir,
        path,
      ],
      { timeout: 120_000 },
    );
    return (await readFile(join(dir, `typed-${sheet}.csv`), 'utf8'))
      .split('\n')
      .map((line) => line.replace(/\r$/, '').split(','));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Cells of the engine's Actual sheet of case 1 that Calc computed otherwise, over every period column. */
function differences(engine: PlanWorkbook, calc: string[][]): string[] {
  const c = engine.caseLayout(0);
  const sheet = c.sheets.actual ?? '';
  const problems: string[] = [];
  const keys = ['order', 'cumulative', 'mrr', 'arr', 'revenue', 'sm', 'operating_income', 'ending_cash_balance'];
  for (const key of keys) {
    const row = c.rowOf[key] ?? 0;
    for (let column = 1; column <= 17 * 6; column++) {
      const want = engine.value(sheet, row, column);
      const got = calc[row]?.[column] ?? '';
      if (typeof want !== 'number') continue;
      if (Math.abs(Number(got) - want) > 1e-6 * Math.max(1, Math.abs(want))) {
        problems.push(`${key} ${a1(row, column)}: Calc ${got}, engine ${want}`);
      }
    }
  }
  return problems;
}

/**
 * A number typed into the actual-inputs sheet recomputes the workbook in LibreOffice Calc: over an ACT month's value,
 * and into a forecast month, which then turns ACT in the actual view, also in a case that had no ACT month. The
 * Actual sheet Calc computes is compared with the engine's after the same actuals are saved.
 */
describe.skipIf(!SOFFICE)('typing into the actual-inputs sheet in LibreOffice Calc (skipped without soffice)', () => {
  it('recomputes the Actual sheet as the engine does after saving the same actuals', async () => {
    const plan = await fixture('actuals-revisions.json');
    const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
    const c = wb.caseLayout(0);
    const estMonth = [10, 11, 12].find((t) => !c.act.includes(t) && !c.revised.includes(t)) ?? 10;
    const calc = await typedInCalc(wb, [
      { key: 'order', t: 2, value: 4 }, // an ACT month's value changed
      { key: 'order', t: estMonth, value: 7 }, // a forecast month typed: it turns ACT
      { key: 'sm', t: estMonth, value: 450_000 },
    ]);
    const edited = PlanWorkbook.build(plan, { asOf: AS_OF });
    edited.apply([
      { type: 'actual', caseIndex: 0, month: 2, values: { order: 4 } },
      { type: 'actual', caseIndex: 0, month: estMonth, values: { order: 7, sm: 450_000 } },
    ]);
    expect(differences(edited, calc).slice(0, 10)).toEqual([]);
    // The typed month is ACT: 7 new customers, not the plan's.
    expect(Number(calc[c.rowOf.order ?? 0]?.[monthColumn(estMonth)])).toBe(7);
    expect(wb.value(c.sheets.actual ?? '', c.rowOf.order ?? 0, monthColumn(estMonth))).not.toBe(7);
    edited.destroy();
    wb.destroy();
  }, 180_000);

  it('gives a case without actuals an Actual sheet that a typed month turns ACT in', async () => {
    const plan = await fixture('saas-jpy-t2d3.json');
    const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
    expect(wb.caseLayout(0).sheets.actual).toBeUndefined();
    const calc = await typedInCalc(wb, [
      { key: 'order', t: 3, value: 5 },
      { key: 'arpa', t: 3, value: 60_000 },
    ]);
    const edited = PlanWorkbook.build(plan, { asOf: AS_OF });
    edited.apply({ type: 'actual', caseIndex: 0, month: 3, values: { order: 5, arpa: 60_000 } });
    expect(differences(edited, calc).slice(0, 10)).toEqual([]);
    const c = edited.caseLayout(0);
    // March: 5 new customers at 60,000 each.
    expect(Number(calc[c.rowOf.order ?? 0]?.[monthColumn(3)])).toBe(5);
    expect(Number(calc[c.rowOf.arpa ?? 0]?.[monthColumn(3)])).toBe(60_000);
    edited.destroy();
    wb.destroy();
  }, 180_000);
});
