/**
 * The monthly P&L against the entered actuals, in headless Chromium: three months typed into the grid, the progress
 * and variance views, a revision from the latest actual, the cash flow recomputed on screen, the dashboard from the
 * actuals, and the question before leaving a column in edit mode. Each step builds on the plan the one before left.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNumber, formatPercent } from '../web/src/format/numbers';
import { formatMetric } from '../web/src/screens/dashboard/metrics';
import { type Stack, screenshot, startStack } from './browser';
import { cellText, engineOf, enterCell, openScreen, ownerWithPlan, waitForCell } from './screensHelpers';

let stack: Stack;
let owner: { token: string };
let planId: number;
let context: BrowserContext;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  ({ owner, planId, context, page, errors } = await ownerWithPlan(stack, {
    email: 'actuals-owner@example.com',
    planName: 'Actuals plan',
  }));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

const open = (screen: string) => openScreen(page, planId, screen);

describe('the monthly P&L with actuals in headless Chromium', () => {
  it('takes three months of actuals in the grid and shows progress and variance', async () => {
    await open('monthly_pl');
    await page.getByRole('tab', { name: 'Enter actuals' }).click();
    for (const [k, order] of [
      [1, '20'],
      [2, '22'],
      [3, '25'],
    ] as const) {
      await page.locator(`[data-test="edit-M${k}"]`).click();
      await enterCell(page, 'monthly-grid', 'order', `M${k}`, order);
      // A cost is typed as the row shows it: negative (a positive figure would be a negative cost, refused).
      await enterCell(page, 'monthly-grid', 'sm', `M${k}`, '-1500000');
      // The equity planned for M1 was not raised: entered as 0 (a value left empty is the month's forecast).
      if (k === 1) await enterCell(page, 'monthly-grid', 'equity_raised', 'M1', '0');
      const saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/edit') && r.status() === 200);
      await page.locator(`[data-test="save-M${k}"]`).click();
      await saved;
      await page.locator(`[data-test="control-M${k}"] .ws-status.act`).waitFor();
    }
    const wb = await engineOf(stack, owner.token, planId);
    const actual = wb.monthlyGrid(0, 1, 'actual');
    await waitForCell(page, 'monthly-grid', 'cumulative', 'M3', formatNumber(actual[2]?.values.cumulative));
    // Costs show with their sign inverted: S&M of 1,500,000 reads -1,500,000 in red (English shows a minus sign).
    expect(await cellText(page, 'monthly-grid', 'sm', 'M1')).toBe('-1,500,000');
    await screenshot(page, 'screen-monthly-actuals');

    await page.getByRole('tab', { name: 'Progress' }).click();
    const progress = wb.monthlyGrid(0, 1, 'progress');
    await waitForCell(page, 'monthly-grid', 'order', 'M2', formatPercent(progress[1]?.values.order));
    await page.locator('[data-test="display-quarters"]').check();
    expect(await cellText(page, 'monthly-grid', 'mrr', 'Q1')).toBe(formatPercent(progress[3]?.values.mrr));
    await screenshot(page, 'screen-monthly-progress');

    await page.getByRole('tab', { name: 'Variance' }).click();
    const rate = wb.monthlyGrid(0, 1, 'difference_rate');
    await waitForCell(page, 'monthly-grid', 'order', 'M1', formatPercent(rate[0]?.values.order));
    await page.getByRole('tab', { name: 'Value' }).click();
    const value = wb.monthlyGrid(0, 1, 'difference_value');
    await waitForCell(page, 'monthly-grid', 'order', 'M3', formatNumber(value[2]?.values.order));
    await screenshot(page, 'screen-monthly-variance');

    // Never all display items off.
    await page.locator('[data-test="display-months"]').uncheck();
    await page.locator('[data-test="display-quarters"]').uncheck();
    await page.locator('[data-test="display-cy"]').click();
    expect(await page.locator('[data-test="display-cy"]').isChecked()).toBe(true);
    await page.locator('[data-test="display-months"]').check();
  }, 120_000);

  it('revises the budget upward from the latest actual', async () => {
    await open('monthly_pl');
    await page.getByRole('tab', { name: 'Revise budget' }).click();
    const estimate = (await engineOf(stack, owner.token, planId)).monthlyGrid(0, 1, 'estimate');
    const saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/adjust/edit') && r.status() === 200);
    await page.locator('[data-test="revise-submit"]').click();
    await page.locator('[data-test="confirm-ok"]').click();
    await saved;
    const forecast = (await engineOf(stack, owner.token, planId)).monthlyGrid(0, 1, 'forecast');
    // M5 is the sixth column; the revised MRR differs from the plan's.
    expect(forecast[5]?.values.mrr).not.toBeCloseTo(estimate[5]?.values.mrr ?? 0, 0);
    await waitForCell(page, 'monthly-grid', 'mrr', 'M5', formatNumber(forecast[5]?.values.mrr));
    await screenshot(page, 'screen-monthly-revised');
  }, 60_000);

  it('recomputes the cash flow on screen at once and saves it', async () => {
    // The plan file comes slowly: the value is typed before the browser's workbook is there (it is built on demand,
    // from the first click into the screen), and goes into it when it comes.
    let served = () => {};
    const fileServed = new Promise<void>((resolve) => {
      served = resolve;
    });
    await page.route('**/api/v1/business-plan/file*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await route.continue();
      served();
    });
    await open('monthly_pl');
    await page.locator('[data-test="edit-M1"]').click();
    const before = await cellText(page, 'monthly-grid', 'ending_cash_balance', 'M2');
    await enterCell(page, 'monthly-grid', 'equity_raised', 'M1', '50000000');
    expect(await page.locator('section[data-screen="monthly_pl"]').getAttribute('data-engine')).toBe('waiting');
    await fileServed;
    await page.unroute('**/api/v1/business-plan/file*');
    // Before any save: the browser engine has moved the ending balance of M1 and every month after it.
    await page.waitForFunction(
      ([text]) =>
        (
          document.querySelector(
            '[data-test="monthly-grid"] .ag-row[row-id="ending_cash_balance"] .ag-cell[col-id="M2"]',
          )?.textContent ?? ''
        ).trim() !== text,
      [before],
    );
    // The grid showed the recomputed rows ahead of the screen's render; the screen's state holds them too, so rows
    // built again (the KPI section collapsed and opened) and new columns (quarters shown) keep them.
    const local = await cellText(page, 'monthly-grid', 'ending_cash_balance', 'M2');
    await page.locator('[data-test="section-kpi"]').click();
    await page.locator('[data-test="monthly-grid"] .ag-row[row-id="mrr"]').waitFor({ state: 'detached' });
    await page.locator('[data-test="section-kpi"]').click();
    await page.locator('[data-test="display-quarters"]').check();
    await page.locator('[data-test="monthly-grid"] .ag-header-cell[col-id="Q1"]').waitFor();
    expect(await cellText(page, 'monthly-grid', 'ending_cash_balance', 'M2')).toBe(local);
    await page.locator('[data-test="display-quarters"]').uncheck();
    const saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/cashflow/edit') && r.status() === 200);
    await page.locator('[data-test="save-M1"]').click();
    await saved;
    const estimate = (await engineOf(stack, owner.token, planId)).monthlyGrid(0, 1, 'estimate');
    expect(estimate[0]?.values.equity_raised).toBe(50_000_000);
    await waitForCell(
      page,
      'monthly-grid',
      'ending_cash_balance',
      'M2',
      formatNumber(estimate[1]?.values.ending_cash_balance),
    );
  }, 60_000);

  it('shows the dashboard from the entered actuals: latest values, averages, runway, MRR progress', async () => {
    const board = (await engineOf(stack, owner.token, planId)).dashboard(0);
    await open('');
    const text = async (selector: string) => ((await page.locator(selector).first().textContent()) ?? '').trim();
    // Three ACT months, entered above: orders 20, 22, 25 and S&M 1,500,000 each. The latest value is M3's; a
    // 3-month average of a flow is its mean, and CAC's is recomputed from the means (1,500,000 / (67 / 3)).
    expect(board.latest_actual_month).toBe(3);
    expect(board.metrics.order?.latest_value).toBe(25);
    expect(board.metrics.order?.ave_three_monthes).toBeCloseTo(67 / 3, 9);
    expect(await text('[data-test="metric-order"] [data-test="latest-order"]')).toBe('25');
    expect(await text('[data-test="metric-cac"] [data-test="ave-3"]')).toBe('67,164');
    for (const name of ['customers', 'cac', 'order', 'order_cvr', 'ltv_cac']) {
      const series = board.metrics[name];
      const card = `[data-test="metric-${name}"]`;
      expect(await text(`${card} [data-test="latest-${name}"]`)).toBe(formatMetric(name, series?.latest_value ?? null));
      expect(await text(`${card} [data-test="ave-3"]`)).toBe(formatMetric(name, series?.ave_three_monthes ?? null));
      expect(await text(`${card} [data-test="ave-12"]`)).toBe(formatMetric(name, series?.ave_twelve_monthes ?? null));
    }
    expect(await text('[data-test="latest-cash_balance"]')).toBe(
      formatNumber(board.metrics.cash_balance?.latest_value ?? null),
    );
    const runway = page.locator('[data-test="cash-out"]');
    // M1's planned equity was entered as 0 (not raised), so the actual months spend from a zero balance: M1 ends
    // below zero, which makes it the cash-out month (MODEL.md section 3), already behind the latest actual month.
    expect(board.cash_out).toMatchObject({ t: 1, year: 2026, month: 4 });
    expect(board.forecast_monthes).toBe(0);
    expect(await runway.getAttribute('data-color')).toBe('red');
    expect(await text('[data-test="cash-out"]')).toBe('Cash fell below zero in 2026/04');
    expect(await text('[data-test="mrr-progress-values"]')).toBe(
      `Now: ${formatNumber(board.mrr_progress.as_is)} / Goal: ${formatNumber(board.mrr_progress.goal)}`,
    );
    expect(await page.locator('[data-test="mrr-gauge"]').getAttribute('aria-label')).toBe(
      `${board.mrr_progress.progress_percent?.toFixed(1)}%`,
    );
    // The MRR/ARR switch, and hiding the estimate lines leaves only the actual bars.
    await page.locator('[data-test="trend-arr"]').click();
    expect(await text('[data-test="latest-arr"]')).toBe(formatNumber(board.metrics.arr?.latest_value ?? null));
    const legend = page.locator('[data-test="chart-customers"] .legendtext');
    await legend.first().waitFor();
    expect(await legend.allTextContents()).toEqual(['Actual', 'Estimate']);
    await page.locator('[data-test="hide-estimate"]').check();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-test="chart-customers"] .legendtext').length <= 1,
    );
    expect(await page.locator('[data-test="chart-customers"] .scatterlayer .trace').count()).toBe(0);
    await screenshot(page, 'screen-dashboard-actuals');
  }, 60_000);

  it('asks before leaving a column in edit mode', async () => {
    await open('monthly_pl');
    await page.getByRole('tab', { name: 'Enter actuals' }).click();
    await page.locator('[data-test="edit-M4"]').click();
    await page.locator('a.menu-item[data-screen="pl"]').click();
    await page.locator('[data-test="confirm"]').waitFor();
    await page.locator('[data-test="confirm-ok"]').click();
    await page.waitForURL(/\/pl$/);
    // No step of the file met an uncaught error in the page.
    expect(errors).toEqual([]);
  }, 60_000);
});
