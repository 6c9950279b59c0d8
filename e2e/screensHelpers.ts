/**
 * Helpers for the working-screen browser tests: a signed-in page, the plan's engine workbook built from the API's
 * plan file (the numbers a screen must show), and reading AG Grid cells.
 */
import { asOfMonth } from '@topline/contract';
import { PlanWorkbook } from '@topline/engine';
import type { Page } from 'playwright-core';
import { TOKEN_KEY } from '../web/src/api/client';
import type { Stack } from './browser';

export async function signIn(page: Page, token: string): Promise<void> {
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key ?? '', value ?? ''), [TOKEN_KEY, token]);
}

/** The workbook the screens are checked against, built by the engine from the stored inputs. */
export async function engineOf(stack: Stack, token: string, planId: number): Promise<PlanWorkbook> {
  const answer = await stack.api.call('GET', '/business-plan/file', { token, query: { business_plan_id: planId } });
  if (answer.status !== 200) throw new Error(`plan file: ${answer.status}`);
  return PlanWorkbook.build(answer.body.data.plan, { asOf: asOfMonth(new Date()) });
}

/** The text of one AG Grid cell, by row id and column id. */
export async function cellText(page: Page, grid: string, rowId: string, colId: string): Promise<string> {
  const cell = page.locator(`[data-test="${grid}"] .ag-row[row-id="${rowId}"] .ag-cell[col-id="${colId}"]`).first();
  await cell.waitFor();
  return ((await cell.textContent()) ?? '').trim();
}

/** Types into an editable AG Grid cell and commits with Enter. */
export async function enterCell(page: Page, grid: string, rowId: string, colId: string, value: string) {
  const cell = page.locator(`[data-test="${grid}"] .ag-row[row-id="${rowId}"] .ag-cell[col-id="${colId}"]`);
  await cell.click();
  const input = cell.locator('input');
  await input.waitFor();
  await input.fill(value);
  await input.press('Enter');
}

/** Waits until a cell shows the expected text. */
export async function waitForCell(page: Page, grid: string, rowId: string, colId: string, expected: string) {
  const selector = `[data-test="${grid}"] .ag-row[row-id="${rowId}"] .ag-cell[col-id="${colId}"]`;
  await page.waitForFunction(
    ([sel, text]) => (document.querySelector(sel ?? '')?.textContent ?? '').trim() === text,
    [selector, expected],
    { timeout: 10_000 },
  );
}
