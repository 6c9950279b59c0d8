/**
 * Every metric row of the exported Estimate and Actual sheets, checked in the XLSX file against the period rules of
 * MODEL.md section 4, written out here from the text of that section: each quarter and CY value against the values of
 * its months in the same file.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERIODS, monthColumn, periodColumn } from '../layout';
import { PlanWorkbook } from '../workbook';
import { xlsxSheetName } from './sheetNames';
import { exportXlsx } from './xlsx';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/plans');

/** MODEL.md section 4: flows are summed. */
const FLOWS = [
  'session',
  'lead',
  'meeting',
  'registration',
  'order',
  'churn',
  'revenue',
  'professional_service',
  'cogs',
  'sm',
  'rd',
  'ga',
  'operating_expense',
  'gross_profit',
  'operating_income',
  'equity_raised',
  'debt_raised',
  'debt_payment',
  'other',
  'net_cash_movement',
];
/** Stocks take the period's last month; running totals are stocks too. */
const LAST = [
  'mrr',
  'arr',
  'cumulative',
  'employees',
  'ending_cash_balance',
  'cumulative_revenue',
  'cumulative_operating_income',
  'cash_out_month',
];
/** Stocks at the start of a month take the period's first: the beginning cash, the customers at the start. */
const FIRST = ['beginning_cash_balance', 'cumulative_prev'];
/** Rates recomputed from the period's own figures: [numerator, denominator] where the rule is a plain ratio. */
const RATIOS: Record<string, [string, string]> = {
  arpa: ['mrr', 'cumulative'],
  lead_cvr: ['lead', 'session'],
  cogs_rate: ['cogs', 'revenue'],
  sm_rate: ['sm', 'revenue'],
  rd_rate: ['rd', 'revenue'],
  ga_rate: ['ga', 'revenue'],
  gross_profit_rate: ['gross_profit', 'revenue'],
  operating_expense_rate: ['operating_expense', 'revenue'],
  operating_income_rate: ['operating_income', 'revenue'],
  professional_service_rate: ['professional_service', 'revenue'],
  cac: ['sm', 'order'],
  arr_per_headcount: ['arr', 'employees'],
  revenue_per_headcount: ['revenue', 'employees'],
};
/** Recomputed by rules of their own (checked by the engine's tests), never a sum of their months. */
const OTHER_RATES = [
  'churn_cvr',
  'meeting_cvr',
  'order_cvr',
  'registration_cvr',
  'revenue_rate',
  'ltv',
  'ltv_cac',
  'burn_multiple',
  'required_cash',
  'arr_progress',
];
const LABELS = ['t', 'month_of_year', 'segment'];

type Values = Map<string, (number | string | null)[]>;

async function sheetRows(book: ExcelJS.Workbook, sheet: string, rowOf: Record<string, number>): Promise<Values> {
  const ws = book.getWorksheet(sheet);
  if (!ws) throw new Error(`no sheet ${sheet}`);
  const out: Values = new Map();
  for (const [key, row] of Object.entries(rowOf)) {
    const values: (number | string | null)[] = [];
    for (let c = 0; c <= periodColumn({ kind: 'year', year: 6, months: [] }); c++) {
      const v = ws.getCell(row + 1, c + 1).value;
      // A formula, its own or shared from a cell above or to its left, is read by its cached result.
      const plain = v !== null && typeof v === 'object' && ('formula' in v || 'sharedFormula' in v) ? v.result : v;
      values.push(typeof plain === 'number' || typeof plain === 'string' ? plain : null);
    }
    out.set(key, values);
  }
  return out;
}

const num = (v: number | string | null | undefined) => (typeof v === 'number' ? v : 0);
/** ExcelJS reads a cached result of 0 back as no result: a blank compares as 0, text never. */
const close = (got: number | string | null | undefined, want: number) =>
  typeof got !== 'string' && Math.abs(num(got) - want) <= 1e-6 * Math.max(1, Math.abs(want));

describe('the period rules of the XLSX export (MODEL.md section 4)', () => {
  const checked: { file: string; sheet: string; values: Values }[] = [];

  beforeAll(async () => {
    for (const file of ['actuals-revisions.json', 'selfserve-usd-custom.json']) {
      const plan = JSON.parse(await readFile(join(FIXTURES, file), 'utf8'));
      const wb = PlanWorkbook.build(plan, { asOf: { year: 2026, month: 9 } });
      const book = new ExcelJS.Workbook();
      await book.xlsx.load((await exportXlsx(wb)) as unknown as ArrayBuffer);
      const c = wb.caseLayout(0);
      for (const sheet of [c.sheets.estimate, c.sheets.actual]) {
        if (sheet) checked.push({ file, sheet, values: await sheetRows(book, xlsxSheetName(wb.plan, sheet), c.rowOf) });
      }
      wb.destroy();
    }
  });

  it('knows every row of the sheets', () => {
    const known = new Set([...FLOWS, ...LAST, ...FIRST, ...Object.keys(RATIOS), ...OTHER_RATES, ...LABELS]);
    for (const { values } of checked) expect([...values.keys()].filter((k) => !known.has(k))).toEqual([]);
    expect(checked.length).toBe(3);
  });

  it('carries every quarter and CY from its months by the row’s rule', () => {
    const problems: string[] = [];
    let compared = 0;
    for (const { file, sheet, values } of checked) {
      const at = (key: string, t: number) => values.get(key)?.[monthColumn(t)];
      for (const p of ALL_PERIODS) {
        if (p.kind === 'month') continue;
        const column = periodColumn(p);
        const first = p.months[0] ?? 1;
        const last = p.months.at(-1) ?? 1;
        const sum = (key: string) => p.months.reduce((s, t) => s + num(at(key, t)), 0);
        const where = (key: string) =>
          `${file} ${sheet} ${key} ${p.kind === 'year' ? `Y${p.year}` : `Y${p.year}Q${p.quarter}`}`;
        for (const [key, row] of values) {
          const got = row[column];
          let want: number | undefined;
          if (FLOWS.includes(key)) want = sum(key);
          else if (LAST.includes(key)) want = num(at(key, last));
          else if (FIRST.includes(key)) want = num(at(key, first));
          else if (key in RATIOS) {
            const [n, d] = RATIOS[key] as [string, string];
            const den = num(values.get(d)?.[column]);
            if (den === 0) continue;
            want = num(values.get(n)?.[column]) / den;
          } else if (key === 'churn_cvr') {
            // Sum of churn over the sum of the customers at the start of each month.
            const den = sum('cumulative_prev');
            if (den === 0) continue;
            want = sum('churn') / den;
          } else continue;
          compared++;
          if (!close(got, want)) problems.push(`${where(key)}: ${got} instead of ${want}`);
        }
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(compared).toBeGreaterThan(3 * 30 * 30);
  });

  it('never sums a rate or a stock: customers at the start of a quarter are its first month’s', () => {
    const { values } = checked[0] ?? { values: new Map() };
    const row = values.get('cumulative_prev') ?? [];
    // Q2 of year 1 (plan months 4..6) starts with the customers at the start of month 4.
    const q2 = periodColumn({ kind: 'quarter', year: 1, quarter: 2, months: [4, 5, 6] });
    expect(row[q2]).toBe(row[monthColumn(4)]);
    expect(num(row[monthColumn(5)])).toBeGreaterThan(0);
  });
});
