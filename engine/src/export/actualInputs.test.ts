import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a1 } from '../layout';
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
    const grid = sheets['Upward Actuals'] ?? [];
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
    // Column A says which sign each row takes.
    expect(grid[8]?.[0]).toBe('COGS (cost: 0 or positive)');
    expect(grid[16]?.[0]).toBe('Debt payment (repayment: 0 or positive)');
    expect(grid[17]?.[0]).toBe('Other cash movements (positive or negative)');
    expect(grid[1]?.[0]).toBe('Sessions');
    // The XLSX file names each case's sheet after the case (sheetNames.ts).
    expect(sheets['Downward Actuals']).toBeDefined();
    expect(sheets.Topline?.[0]).toEqual(['business_plan_id', '42']);
    expect(actualInputKeys('selfserve').slice(0, 3)).toEqual(['session', 'registration', 'order']);
  });

  it('reads an unchanged export as no change', async () => {
    const reading = await readActualInputsXlsx(plan, bytes, { planId: 42 });
    expect(reading).toEqual({ ok: true, changes: [], months: [new Map(), new Map()] });
  });

  it('lists every change: a new value, a changed one, an emptied cell, a new month, an emptied month', async () => {
    const sheets = editable(await xlsxSheetValues(bytes));
    const s = sheets['Upward Actuals'] ?? [];
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
    const s = sheets['Upward Actuals'] ?? [];
    const rows = actualInputRows('saas');
    const at = (key: string) => s[rows[key] ?? 0] ?? [];
    at('session')[actualInputColumn(3)] = 'abc'; // E2
    at('order')[actualInputColumn(1)] = 1.5; // C5: not whole
    at('arpa')[actualInputColumn(2)] = 0; // D7: ARPA is at least a cent
    at('cogs')[actualInputColumn(5)] = 2e12; // G9
    at('employees')[actualInputColumn(6)] = true; // H13
    at('sm')[actualInputColumn(4)] = -500; // F10: a negative cost
    at('debt_payment')[actualInputColumn(2)] = '-1,000'; // D17: a negative repayment
    at('other')[actualInputColumn(2)] = -1000; // D18: other movements take either sign
    delete sheets['Downward Actuals'];
    const reading = readActualInputs(plan, sheets, { planId: 7 });
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.errors.map(cellErrorText)).toEqual([
      'Topline!B1: the file was exported from another business plan',
      'Upward Actuals!C5: must be a whole number from 0 to 1,000,000,000',
      'Upward Actuals!D7: must be a number from 0.01 to 1,000,000,000',
      'Upward Actuals!D17: must be 0 or positive: repayment is entered as a positive amount here',
      'Upward Actuals!E2: not a number',
      'Upward Actuals!F10: must be 0 or positive: a cost is entered as a positive amount here',
      'Upward Actuals!G9: must be a number from -1,000,000,000,000 to 1,000,000,000,000, 0 or at least 0.01 in size',
      'Upward Actuals!H13: not a number',
      'Downward Actuals: the sheet is missing',
    ]);
  });

  it('refuses a file without the plan marker, a wrong month header and a missing key row', async () => {
    const sheets = editable(await xlsxSheetValues(bytes));
    delete sheets.Topline;
    const s = sheets['Upward Actuals'] ?? [];
    (s[0] ?? [])[actualInputColumn(2)] = '2025/02';
    s.splice(actualInputRows('saas').churn ?? 0, 1);
    const reading = readActualInputs(plan, sheets, { planId: 42 });
    expect(reading.ok ? [] : reading.errors.map(cellErrorText)).toEqual([
      'Topline!B1: the file was not exported from a business plan',
      'Upward Actuals!D1: must be the month 2026/02',
      'Upward Actuals!B: the row of churn is missing',
    ]);
  });

  it('makes the Actual sheet read its entered values from the actual-inputs sheet', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const c = wb.caseLayout(0);
    const actual = book.getWorksheet('Upward Actual');
    const sessionJan = actual?.getCell(a1(c.rowOf.session ?? 0, 1));
    // January is ACT while its flag in C1_ActMonths!B2 is 1, else EST again (emptied whole): each side is computed
    // in a hidden sheet of its own, only while the flag chooses it (blank otherwise). As ACT, a cell without an
    // entered value keeps what the engine puts there (here the plan's sessions).
    const session = a1(c.rowOf.session ?? 0, 1);
    expect(sessionJan?.formula).toBe(`IF(C1_ActMonths!$B$2=1,C1_Actual_ACT!${session},C1_Actual_EST!${session})`);
    const asAct = book.getWorksheet('C1_Actual_ACT');
    expect(asAct?.getCell(session).formula).toMatch(
      /^IF\(C1_ActMonths!\$B\$2=1,IF\('Upward Actuals'!C2="",'Upward Estimate'!B\d+,'Upward Actuals'!C2\),""\)$/,
    );
    const orderJan = actual?.getCell(a1(c.rowOf.order ?? 0, 1));
    expect(asAct?.getCell(a1(c.rowOf.order ?? 0, 1)).formula).toMatch(
      /^IF\(C1_ActMonths!\$B\$2=1,IF\('Upward Actuals'!C5="",.+,'Upward Actuals'!C5\),""\)$/,
    );
    expect(orderJan?.result).toBe(1);
    expect(sessionJan?.result).toBe(1000);
    expect(asAct?.getCell(a1(c.rowOf.arpa ?? 0, 1)).formula).toMatch(
      /^IF\(C1_ActMonths!\$B\$2=1,IF\('Upward Actuals'!C7="",'Upward Estimate'!B\d+,'Upward Actuals'!C7\),""\)$/,
    );
    // The EST side of January, which is ACT at export, is blank until the flag turns it EST.
    const asEst = book.getWorksheet('C1_Actual_EST');
    expect(asEst?.getCell(session).formula).toMatch(/^IF\(C1_ActMonths!\$B\$2=1,"",/);
    expect(asEst?.getCell(session).result ?? '').toBe('');
    expect(asAct?.getCell(session).result).toBe(1000);
    expect(asAct?.state).toBe('hidden');
    const flags = book.getWorksheet('C1_ActMonths');
    expect(flags?.state).toBe('hidden');
    expect(flags?.getCell('B2').formula).toBe("IF(COUNT('Upward Actuals'!$C$2:$C$18)>0,1,0)");
    expect(flags?.getCell('B2').result).toBe(1);
    // Month 7 has no actuals: EST, and the latest ACT month is 6.
    expect(flags?.getCell('H2').result).toBe(0);
    expect(flags?.getCell('B3').result).toBe(6);
    expect(book.getWorksheet('Topline')?.state).toBe('hidden');
    expect(actualInputsSheetName(2)).toBe('C3 Actuals');
  });
});
