import { readFileSync } from 'node:fs';
import { a1, monthColumn } from '@topline/engine';
import ExcelJS from 'exceljs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './browser';
import { cellText, engineOf, ownerWithPlan, waitForCell } from './screensHelpers';

let stack: Stack;
let owner: { token: string };
let planId: number;
let context: BrowserContext;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  ({ owner, planId, context, page, errors } = await ownerWithPlan(stack, {
    email: 'xlsx-e2e@example.com',
    planName: 'Workbook plan',
  }));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

describe('the spreadsheet downloads in headless Chromium', () => {
  it('downloads the XLSX workbook from the P&L: live formulas, the actual-inputs sheet and the plan named', async () => {
    await page.goto(`/business-plans/${planId}/pl`);
    await page.locator('section[data-screen="pl"]').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-test="xlsx-download"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Workbook_plan_Base_case_workbook_\d{8}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync((await download.path()) ?? '') as unknown as ArrayBuffer);
    const wb = await engineOf(stack, owner.token, planId);
    const c = wb.caseLayout(0);
    // The case's sheets carry its name in the file.
    const mrr = book.getWorksheet('Base case Estimate')?.getCell(a1(c.rowOf.mrr ?? 0, monthColumn(12)));
    expect(mrr?.formula).toBeTruthy();
    // Target ARR 100,000,000 reached at month 12: MRR 8,333,333.33, as the engine computes it.
    expect(Number(mrr?.result)).toBeCloseTo(100_000_000 / 12, 2);
    expect(Number(mrr?.result)).toBeCloseTo(Number(wb.value(c.sheets.estimate, c.rowOf.mrr ?? 0, monthColumn(12))), 6);
    expect(book.getWorksheet('Base case Actuals')?.getCell('C1').value).toBe('2026/04');
    expect(book.getWorksheet('Topline')?.getCell('B1').value).toBe(String(planId));
    wb.destroy();
    expect(errors).toEqual([]);
  }, 120_000);

  it('downloads the workbook and the CSV of the view on screen from the monthly P&L', async () => {
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await page.locator('section[data-screen="monthly_pl"]').waitFor();
    const [workbook] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-test="xlsx-download"]').click(),
    ]);
    expect(workbook.suggestedFilename()).toMatch(/\.xlsx$/);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('[data-test="monthly-csv"]').click()]);
    expect(csv.suggestedFilename()).toMatch(/^Workbook_plan_Base_case_monthly-estimate-Y1_\d{8}\.csv$/);
    const text = readFileSync((await csv.path()) ?? '', 'utf8');
    const mrr = text.split('\r\n').find((line) => line.startsWith('mrr,'));
    // April 2026: (100,000,000 / 12) x 1 / 12 = 694,444.
    expect(mrr?.split(',')[2]).toBe('694444');
    expect(errors).toEqual([]);
  }, 120_000);

  it('imports actuals typed into the downloaded workbook: the month turns ACT with the value', async () => {
    // The actual view builds the browser's workbook from the plan file, once: it follows the import's answer.
    let planFileReads = 0;
    page.on('request', (request) => {
      if (request.method() === 'GET' && request.url().includes('/api/v1/business-plan/file')) planFileReads++;
    });
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await page.locator('section[data-screen="monthly_pl"]').waitFor();
    await page.getByRole('tab', { name: 'Enter actuals' }).click();
    await page.locator('section[data-screen="monthly_pl"][data-engine="ready"]').waitFor();
    expect(planFileReads).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-test="xlsx-download"]').click(),
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync((await download.path()) ?? '') as unknown as ArrayBuffer);
    const inputs = book.getWorksheet('Base case Actuals');
    if (!inputs) throw new Error('no actual-inputs sheet');
    // April 2026 (column C): 4 new customers (row 5), ARPA 50,000 (row 7).
    inputs.getCell('C5').value = 4;
    inputs.getCell('C7').value = 50_000;
    const saved = page.waitForResponse((r) => r.url().includes('/business-plan/xlsx/import') && r.status() === 200);
    await page.locator('[data-test="xlsx-import-file"]').setInputFiles({
      name: 'typed.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await book.xlsx.writeBuffer()),
    });
    const answer = await (await saved).json();
    expect(answer.data.changes).toEqual([
      expect.objectContaining({ month: '2026/04', key: 'order', old: null, new: 4 }),
      expect.objectContaining({ month: '2026/04', key: 'arpa', old: null, new: 50000 }),
    ]);
    expect(answer.plan_changes).toEqual([
      expect.objectContaining({ type: 'actual', month: 1, values: expect.objectContaining({ order: 4, arpa: 50000 }) }),
    ]);
    await page.locator('[data-test="control-M1"] .ws-status.act').waitFor();
    // 4 customers x 50,000 = MRR 200,000 in April's actual.
    await waitForCell(page, 'monthly-grid', 'mrr', 'M1', '200,000');
    expect(await cellText(page, 'monthly-grid', 'order', 'M1')).toBe('4');
    await page.waitForLoadState('networkidle');
    expect(planFileReads).toBe(1);
    expect(errors).toEqual([]);
  }, 120_000);
});
