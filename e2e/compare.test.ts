import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './axe';
import { newPage, type Stack, startStack } from './browser';
import { signIn } from './screensHelpers';

/**
 * Cases side by side on the P&L, for a Free owner (comparison is open to every tier): the table of every case with
 * its differences from the base case, the chart of the chosen measure under a title naming it, the CSV, and axe-core's
 * WCAG A and AA rules. Figures are the three-cases fixture's, worked out by hand in
 * engine/src/read/caseComparison.test.ts.
 */
let stack: Stack;
let context: BrowserContext;
let page: Page;
let planId: number;
let token: string;
const errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  const owner = await stack.api.user('compare-owner@example.com', 'free');
  token = owner.token;
  const plan = JSON.parse(readFileSync(new URL('../fixtures/plans/three-cases.json', import.meta.url), 'utf8'));
  const imported = await stack.api.call('POST', '/business-plan/import', { token: owner.token, body: { plan } });
  expect(imported.status).toBe(201);
  planId = imported.body.data.business_plan_id;
  ({ context, page } = await newPage(stack, { locale: 'en-US', width: 1440, height: 900 }));
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, owner.token);
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

/** The texts of a comparison row's year cells. */
const row = (key: string, caseIndex: number, kind: string) =>
  page
    .locator(`[data-test="compare-table"] tr[data-row="${key}"][data-case="${caseIndex}"][data-kind="${kind}"] td`)
    .allTextContents();

/** The title Plotly drew over the P&L chart. */
const chartTitle = () => page.locator('[data-test="pl-chart"] .gtitle').textContent();

describe('cases side by side in the browser', () => {
  it('shows every case with its differences, and charts the chosen measure', async () => {
    await page.goto(`/business-plans/${planId}/pl`);
    await page.locator('[data-test="compare-toggle"]').check();
    await page.locator('[data-test="compare-table"]').waitFor();

    // Revenue Y1: base 54,166,667; ideal twice it (+54,166,667, +100.0 %); prudent half (-50.0 %).
    expect((await row('revenue', 0, 'value'))[0]).toBe('54,166,667');
    expect((await row('revenue', 1, 'value'))[0]).toBe('108,333,333');
    expect((await row('revenue', 1, 'difference'))[0]).toBe('54,166,667');
    expect((await row('revenue', 1, 'difference_rate'))[0]).toBe('100.0%');
    expect((await row('revenue', 2, 'difference_rate'))[0]).toBe('-50.0%');
    // Operating income Y1: the ideal case's +33,583,333 over the base's loss of 28,166,667: +119.2 %. In Y2 the base
    // breaks even: the rate of a zero base is a dash.
    expect((await row('operating_pl', 1, 'difference_rate')).slice(0, 2)).toEqual(['119.2%', '–']);
    const dash = page.locator(
      '[data-test="compare-table"] tr[data-row="operating_pl"][data-case="1"][data-kind="difference_rate"] td',
    );
    expect(await dash.nth(1).getAttribute('data-dash')).toBe('zero_base');
    expect(await dash.nth(1).getAttribute('title')).toContain('zero');
    // Every case's row of every figure, and a runway per case.
    for (const key of [
      'gross_profit_rate',
      'customers',
      'employees',
      'ending_cash',
      'required_cash',
      'burn_multiple',
    ]) {
      expect(await row(key, 2, 'value')).toHaveLength(6);
    }
    await expect.poll(() => page.locator('[data-test="compare-table"] tr[data-row="runway"]').count()).toBe(3);

    // The chart draws the chosen measure, one line per case, under a title naming it.
    await expect.poll(chartTitle).toBe('ARR by case (millions)');
    await page.locator('[data-test="compare-measure"]').getByRole('tab', { name: 'Revenue' }).click();
    await expect.poll(chartTitle).toBe('Revenue by case (millions)');
    const plottedY1 = () =>
      page.evaluate(() => {
        const gd = document.querySelector('[data-test="pl-chart"] .js-plotly-plot') as unknown as {
          data: { y: (number | null)[] }[];
        };
        return gd.data.map((trace) => Math.round((trace.y[0] ?? 0) * 100) / 100);
      });
    // Y1 revenue in millions: 54.17, 108.33, 27.08.
    await expect.poll(plottedY1).toEqual([54.17, 108.33, 27.08]);
    await page.locator('[data-test="compare-measure"]').getByRole('tab', { name: 'Ending cash' }).click();
    await expect.poll(chartTitle).toBe('Ending cash by case (millions)');

    // The comparison's own parts (the colour swatches below are chips beside their names, with no text on them).
    const parts = ['[data-test="compare-table"]', '[data-test="compare-measure"]', '[data-test="pl-chart"]'];
    expect(await accessibilityViolations(page, parts)).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('downloads the comparison as CSV and XLSX', async () => {
    const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('[data-test="compare-csv"]').click()]);
    expect(csv.suggestedFilename()).toMatch(/_compare_\d{8}\.csv$/);
    const text = readFileSync((await csv.path()) ?? '', 'utf8');
    expect(text).toContain('revenue,Revenue,Ideal case,difference rate,100.0%');
    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-test="compare-xlsx"]').click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/_compare_\d{8}\.xlsx$/);
    expect(errors).toEqual([]);
  }, 120_000);

  it('shows the comparison in Japanese, a negative with ▲', async () => {
    const ja = await newPage(stack, { locale: 'ja-JP', width: 1440, height: 900 });
    try {
      await signIn(ja.page, token);
      await ja.page.goto(`/business-plans/${planId}/pl`);
      await ja.page.locator('[data-test="compare-toggle"]').check();
      const table = ja.page.locator('[data-test="compare-table"]');
      await table.waitFor();
      expect(await table.locator('caption').textContent()).toBe('ケース比較');
      // The prudent case's Y1 revenue is 27,083,333 below the base's.
      const cells = table.locator('tr[data-row="revenue"][data-case="2"][data-kind="difference"] td');
      expect(await cells.first().textContent()).toBe('▲27,083,333');
      await ja.page.locator('[data-test="compare-measure"]').getByRole('tab', { name: '営業利益' }).click();
      await expect
        .poll(() => ja.page.locator('[data-test="pl-chart"] .gtitle').textContent())
        .toBe('ケース別の営業利益(百万)');
    } finally {
      await ja.context.close();
    }
  }, 120_000);
});
