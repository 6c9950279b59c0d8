/**
 * Helpers for the working-screen browser tests: a signed-in page, the plan's engine workbook built from the API's
 * plan file (the numbers a screen must show), and reading AG Grid cells.
 */
import { asOfMonth } from '@topline/contract';
import { PlanWorkbook } from '@topline/engine';
import type { BrowserContext, Page } from 'playwright-core';
import { planForm } from '../api/src/testing/harness';
import { TOKEN_KEY } from '../web/src/api/client';
import { newPage, type Stack } from './browser';

export async function signIn(page: Page, token: string): Promise<void> {
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key ?? '', value ?? ''), [TOKEN_KEY, token]);
}

/** A Team owner, their new plan (the default wizard inputs, from 2026/04) and an English page signed in as them. */
export interface OwnerWithPlan {
  owner: { token: string };
  planId: number;
  context: BrowserContext;
  page: Page;
  /** The page's uncaught errors, which a test expects to stay empty. */
  errors: string[];
}

export async function ownerWithPlan(
  stack: Stack,
  options: { email: string; planName: string; width?: number; height?: number },
): Promise<OwnerWithPlan> {
  const owner = await stack.api.user(options.email, 'team');
  const created = await stack.api.call('POST', '/business-plan/create', {
    token: owner.token,
    form: planForm({ business_plan_name: options.planName, start_year: '2026', start_month: '4' }),
  });
  const planId = created.body.data.business_plan_id;
  const { context, page } = await newPage(stack, {
    locale: 'en-US',
    width: options.width ?? 1440,
    height: options.height ?? 900,
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, owner.token);
  return { owner, planId, context, page, errors };
}

/** The workbook the screens are checked against, built by the engine from the stored inputs. */
export async function engineOf(stack: Stack, token: string, planId: number): Promise<PlanWorkbook> {
  const answer = await stack.api.call('GET', '/business-plan/file', { token, query: { business_plan_id: planId } });
  if (answer.status !== 200) throw new Error(`plan file: ${answer.status}`);
  return PlanWorkbook.build(answer.body.data.plan, { asOf: asOfMonth(new Date()) });
}

/** The selector of one AG Grid cell of a screen's grid (`monthly-grid`, `pl-table`...), by row id and column id. */
const cellSelector = (grid: string, rowId: string, colId: string) =>
  `[data-test="${grid}"] .ag-row[row-id="${rowId}"] .ag-cell[col-id="${colId}"]`;

/** One AG Grid cell, by row id and column id. */
export const gridCell = (page: Page, grid: string, rowId: string, colId: string) =>
  page.locator(cellSelector(grid, rowId, colId)).first();

/** Puts the keyboard on a grid cell (the grid's focus, as a click would, without a click's explanation). */
export async function focusGridCell(page: Page, grid: string, rowId: string, colId: string): Promise<void> {
  await gridCell(page, grid, rowId, colId).focus();
  await page.waitForFunction(
    ([r, c]) =>
      document.activeElement?.closest('.ag-row')?.getAttribute('row-id') === r &&
      document.activeElement?.getAttribute('col-id') === c,
    [rowId, colId],
  );
}

/** The text of one AG Grid cell, by row id and column id. */
export async function cellText(page: Page, grid: string, rowId: string, colId: string): Promise<string> {
  const cell = gridCell(page, grid, rowId, colId);
  await cell.waitFor();
  return ((await cell.textContent()) ?? '').trim();
}

/** Types into an editable AG Grid cell and commits with Enter. */
export async function enterCell(page: Page, grid: string, rowId: string, colId: string, value: string) {
  const cell = page.locator(cellSelector(grid, rowId, colId));
  await cell.click();
  const input = cell.locator('input');
  await input.waitFor();
  await input.fill(value);
  await input.press('Enter');
}

/** Waits until a cell shows the expected text. */
export async function waitForCell(page: Page, grid: string, rowId: string, colId: string, expected: string) {
  const selector = cellSelector(grid, rowId, colId);
  await page.waitForFunction(
    ([sel, text]) => (document.querySelector(sel ?? '')?.textContent ?? '').trim() === text,
    [selector, expected],
    { timeout: 10_000 },
  );
}

/** Opens a plan's screen and waits for it; the dashboard is the plan's root path (`''` or `'dashboard'`). */
export async function openScreen(page: Page, planId: number, screen: string): Promise<void> {
  const shown = screen === '' ? 'dashboard' : screen;
  await page.goto(`/business-plans/${planId}/${shown === 'dashboard' ? '' : shown}`);
  await page.locator(`section[data-screen="${shown}"]`).waitFor();
}

/** A new plan of the user's, created through the API with `fields` over the wizard's defaults; its id. */
export async function createPlan(stack: Stack, token: string, fields: Record<string, string>): Promise<number> {
  const created = await stack.api.call('POST', '/business-plan/create', { token, form: planForm(fields) });
  if (created.status !== 201) throw new Error(`plan not created: ${JSON.stringify(created.body)}`);
  return created.body.data.business_plan_id;
}
