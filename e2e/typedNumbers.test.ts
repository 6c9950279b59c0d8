/**
 * Typed numbers in the grids: what a cell cannot take is refused with a message at the cell and nothing is sent;
 * what it takes is stored exactly as typed (thousands separators and full-width digits included). A month of actuals
 * the server refuses keeps its typed values and shows the server's message at the field; a month with some values
 * entered keeps the others at the forecast, marked so.
 */
import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNumber } from '../web/src/format/numbers';
import { type Stack, screenshot, startStack } from './browser';
import { cellText, engineOf, enterCell, ownerWithPlan, waitForCell } from './screensHelpers';

let stack: Stack;
let owner: { token: string };
let planId: number;
let context: BrowserContext;
let page: Page;
let errors: string[] = [];
/** The write calls the page sent, by path. */
const writes: string[] = [];
/** How often the page read the whole plan file. */
let planFileReads = 0;

beforeAll(async () => {
  stack = await startStack();
  ({ owner, planId, context, page, errors } = await ownerWithPlan(stack, {
    email: 'typed-owner@example.com',
    planName: 'Typed numbers',
  }));
  page.on('request', (request: Request) => {
    if (request.method() === 'POST') writes.push(new URL(request.url()).pathname.replace('/api/v1', ''));
    if (request.method() === 'GET' && request.url().includes('/api/v1/business-plan/file')) planFileReads++;
  });
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

/** The plan file as the API stores it: case 1. */
async function storedCase() {
  const answer = await stack.api.call('GET', '/business-plan/file', {
    token: owner.token,
    query: { business_plan_id: planId },
  });
  return answer.body.data.plan.cases[0] as {
    years: Record<string, Record<string, number>>;
    actuals: Record<string, Record<string, number | string>>;
  };
}

/** A message at a cell of a grid: in the box that holds the grid and its cells' messages. */
const message = (grid: string, rowId: string, colId: string) =>
  page.locator(
    `.ws-cell-messages:has([data-test="${grid}"]) > [data-test="cell-message"][data-row="${rowId}"][data-col="${colId}"]`,
  );

describe('typed numbers', () => {
  it('refuses -20, 1e20 and ten in the COGS rate with a message at the cell, and stores 25.5 as typed', async () => {
    const readsAtStart = planFileReads;
    await page.goto(`/business-plans/${planId}/pl`);
    await page.locator('[data-test="pl-table"] .ag-row[row-id="cogs_rate"]').waitFor();
    // The browser's workbook is not built for the screen's first paint: the plan file is read once the user reaches
    // into the screen (a click on a cell here).
    await page.waitForLoadState('networkidle');
    expect(planFileReads).toBe(readsAtStart);
    const before = await cellText(page, 'pl-table', 'cogs_rate', 'c0');
    expect(before).toBe('30.0%');
    const cases: [string, string][] = [
      ['-20', 'This value cannot be negative: “-20”.'],
      ['1e20', 'Not a number: “1e20”.'],
      ['ten', 'Not a number: “ten”.'],
    ];
    for (const [typed, why] of cases) {
      writes.length = 0;
      await enterCell(page, 'pl-table', 'cogs_rate', 'c0', typed);
      await expect.poll(() => planFileReads).toBe(readsAtStart + 1);
      const shown = message('pl-table', 'cogs_rate', 'c0');
      await shown.waitFor();
      // The reason, and what the cell takes with its bounds.
      expect(await shown.textContent()).toBe(
        `${why} Allowed: a percentage with at most 1 decimal place, from 0% to 1,000% (0, or at least 0.01% in size).×`,
      );
      await page.waitForTimeout(300);
      expect(writes.filter((path) => path === '/case/edit')).toEqual([]);
      expect(await cellText(page, 'pl-table', 'cogs_rate', 'c0')).toBe('30.0%');
      expect((await storedCase()).years['1']?.cogs_rate).toBeUndefined();
      await screenshot(page, `typed-pl-${typed}`);
    }
    // No "Success" for a refused value.
    expect(await page.getByText('Success').count()).toBe(0);
    // A value the cell takes is stored as typed, and the message goes.
    const saved = page.waitForResponse((r) => r.url().includes('/case/edit') && r.status() === 200);
    const readsBefore = planFileReads;
    await enterCell(page, 'pl-table', 'cogs_rate', 'c0', '25.5');
    await saved;
    await waitForCell(page, 'pl-table', 'cogs_rate', 'c0', '25.5%');
    expect(await message('pl-table', 'cogs_rate', 'c0').count()).toBe(0);
    expect((await storedCase()).years['1']?.cogs_rate).toBe(0.255);
    // The save's edit is the browser workbook's already: the plan file is not read again.
    await page.waitForTimeout(300);
    expect(planFileReads).toBe(readsBefore);
  }, 120_000);

  it('refuses 12abc, 1,5 and abc in the monthly grid, stores １２，０００ as 12000 and keeps the rest at the forecast', async () => {
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await page.locator('[data-test="monthly-grid"] .ag-row[row-id="meeting"]').waitFor();
    await page.getByRole('tab', { name: 'Enter actuals' }).click();
    await page.locator('[data-test="edit-M1"]').click();
    for (const [typed, why] of [
      ['12abc', 'Not a number: “12abc”.'],
      ['1,5', 'Not a number: “1,5”.'],
      ['abc', 'Not a number: “abc”.'],
    ] as const) {
      writes.length = 0;
      await enterCell(page, 'monthly-grid', 'meeting', 'M1', typed);
      const shown = message('monthly-grid', 'meeting', 'M1');
      await shown.waitFor();
      expect(await shown.textContent()).toBe(`${why} Allowed: a whole number, from 0 to 1,000,000,000.×`);
      expect(writes).toEqual([]);
    }
    await screenshot(page, 'typed-monthly-refused');
    // Nothing typed was taken: saving sends nothing and stores nothing.
    await page.locator('[data-test="save-M1"]').click();
    await page.waitForTimeout(500);
    expect(writes.filter((path) => path === '/pl/monthly/edit')).toEqual([]);
    expect((await storedCase()).actuals['1']).toBeUndefined();

    // Full-width digits and a full-width comma, as a Japanese keyboard types them.
    const estimate = (await engineOf(stack, owner.token, planId)).monthlyGrid(0, 1, 'estimate');
    await page.locator('[data-test="edit-M1"]').click();
    await enterCell(page, 'monthly-grid', 'session', 'M1', '１２，０００');
    // No churn in the first month, as the forecast says: typed, so entered (and kept at 0 if the forecast moves).
    expect(estimate[0]?.values.churn).toBe(0);
    await enterCell(page, 'monthly-grid', 'churn', 'M1', '0');
    const saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/edit') && r.status() === 200);
    const readsBefore = planFileReads;
    await page.locator('[data-test="save-M1"]').click();
    await saved;
    await page.locator('[data-test="control-M1"] .ws-status.act').waitFor();
    const stored = (await storedCase()).actuals['1'];
    // Only what was typed is stored: no meeting, order or cost saved as 0.
    expect(stored).toEqual({ session: 12000, churn: 0, status: 'ACT' });
    await waitForCell(page, 'monthly-grid', 'session', 'M1', '12,000');
    // Meetings and new customers not entered show the month's forecast (the estimate), marked as such.
    expect(await cellText(page, 'monthly-grid', 'meeting', 'M1')).toBe(formatNumber(estimate[0]?.values.meeting));
    expect(await cellText(page, 'monthly-grid', 'order', 'M1')).toBe(formatNumber(estimate[0]?.values.order));
    expect(Number(estimate[0]?.values.order)).toBeGreaterThan(0);
    const cell = (row: string) =>
      page.locator(`[data-test="monthly-grid"] .ag-row[row-id="${row}"] .ag-cell[col-id="M1"]`).first();
    await page.waitForFunction(() =>
      document
        .querySelector('[data-test="monthly-grid"] .ag-row[row-id="session"] .ag-cell[col-id="M1"]')
        ?.classList.contains('ws-entered'),
    );
    expect(await cell('meeting').getAttribute('class')).toContain('ws-from-forecast');
    expect(await cell('session').getAttribute('class')).not.toContain('ws-from-forecast');
    expect(await cell('churn').getAttribute('class')).toContain('ws-entered');
    expect(await cell('meeting').locator('[data-source]').getAttribute('title')).toBe(
      'Not entered: the forecast for this month',
    );
    expect(await cell('session').locator('[data-source]').getAttribute('title')).toBe('Entered actual');
    // The browser's workbook took the saved month as the API did: the plan file is not read again.
    expect(planFileReads).toBe(readsBefore);
    await screenshot(page, 'typed-monthly-entered');
  }, 120_000);

  it("keeps a refused month's typed values and shows the server's message at the field", async () => {
    // The server is the last word on a field: a request it refuses (here one the page's check would have refused,
    // altered on its way) comes back with a message per field.
    await page.route('**/api/v1/pl/monthly/edit', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}');
      await route.continue({ postData: JSON.stringify({ ...body, meeting: -3 }) });
    });
    await page.locator('[data-test="edit-M2"]').click();
    await enterCell(page, 'monthly-grid', 'meeting', 'M2', '7');
    await enterCell(page, 'monthly-grid', 'session', 'M2', '300');
    const refused = page.waitForResponse((r) => r.url().includes('/pl/monthly/edit') && r.status() === 400);
    await page.locator('[data-test="save-M2"]').click();
    const answer = await refused;
    const serverMessage = (await answer.json()).errors.meeting as string;
    expect(serverMessage).toBe('meeting must be a whole number from 0 to 1000000000');
    const shown = message('monthly-grid', 'meeting', 'M2');
    await shown.waitFor();
    expect(await shown.textContent()).toBe(`${serverMessage}×`);
    // Still in edit mode, every typed value kept.
    await page.locator('[data-test="save-M2"]').waitFor();
    expect(await cellText(page, 'monthly-grid', 'meeting', 'M2')).toBe('7');
    expect(await cellText(page, 'monthly-grid', 'session', 'M2')).toBe('300');
    expect((await storedCase()).actuals['2']).toBeUndefined();
    await screenshot(page, 'typed-monthly-server-refused');
    // Corrected (here: sent as typed), the same column saves.
    await page.unroute('**/api/v1/pl/monthly/edit');
    const saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/edit') && r.status() === 200);
    await page.locator('[data-test="save-M2"]').click();
    await saved;
    await page.locator('[data-test="control-M2"] .ws-status.act').waitFor();
    expect(await message('monthly-grid', 'meeting', 'M2').count()).toBe(0);
    expect((await storedCase()).actuals['2']).toEqual({ meeting: 7, session: 300, status: 'ACT' });
    expect(errors).toEqual([]);
  }, 120_000);
});
