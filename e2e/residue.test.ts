/**
 * The residue rule on screen (engine/DECISIONS.md, "Residue"), in headless Chromium: a rate whose base is zero shows a
 * dash whose title says why, in English and in Japanese.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './browser';
import { ownerWithPlan } from './screensHelpers';

let stack: Stack;
let owner: { token: string };
let planId: number;
let context: BrowserContext;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  ({ owner, planId, context, page, errors } = await ownerWithPlan(stack, {
    email: 'residue-owner@example.com',
    planName: 'Residue plan',
  }));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

describe('a rate over a zero base in headless Chromium', () => {
  it('shows the churn rate of the first month, which no customer starts, as a dash titled with why', async () => {
    // April 2026, the plan's first month, entered: 12 new customers, none churned. It starts with no customers, so
    // its churn rate (churned / customers at the start) has a base of 0: no rate.
    const saved = await stack.api.call('POST', '/pl/monthly/edit', {
      token: owner.token,
      body: { business_plan_id: planId, year: 1, month: 1, order: 12, churn: 0, arpa: 50_000 },
    });
    expect(saved.status).toBe(200);
    const churn = page.locator('[data-test="metric-churn_cvr"] [data-test="latest-churn_cvr"]');
    for (const [language, title] of [
      ['en', 'No rate: the figure it is taken over is zero, so any percentage would be meaningless.'],
      ['ja', '率なし：基準となる値がゼロのため、比率を計算しても意味がありません。'],
    ] as const) {
      await page.addInitScript((lang) => window.localStorage.setItem('topline.lang', lang), language);
      await page.goto(`/business-plans/${planId}/`);
      await page.locator('section[data-screen="dashboard"]').waitFor();
      await churn.waitFor();
      expect(((await churn.textContent()) ?? '').trim(), language).toBe('-');
      expect(await churn.getAttribute('title'), language).toBe(title);
      expect(await churn.getAttribute('data-dash')).toBe('zero_base');
      // Its explanation says the same.
      await churn.click();
      const why = page.locator('[data-test="explain-dash"]');
      await why.waitFor();
      expect(((await why.textContent()) ?? '').trim(), language).toBe(title);
      await page.keyboard.press('Escape');
      // A rate with a base is a number and has no such title: new customers per meeting.
      const order = page.locator('[data-test="metric-order_cvr"] [data-test="latest-order_cvr"]');
      expect(((await order.textContent()) ?? '').trim()).toMatch(/%$/);
      expect(await order.getAttribute('data-dash')).toBeNull();
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('shows the same churn rate as a dash titled with why in the monthly grid, and the months with a base as rates', async () => {
    for (const [language, tab, title] of [
      ['en', 'Enter actuals', 'No rate: the figure it is taken over is zero, so any percentage would be meaningless.'],
      ['ja', '実績入力', '率なし：基準となる値がゼロのため、比率を計算しても意味がありません。'],
    ] as const) {
      await page.addInitScript((lang) => window.localStorage.setItem('topline.lang', lang), language);
      await page.goto(`/business-plans/${planId}/monthly_pl`);
      await page.getByRole('tab', { name: tab, exact: true }).click();
      const cell = (row: string, column: string) =>
        page.locator(`[data-test="monthly-grid"] .ag-row[row-id="${row}"] .ag-cell[col-id="${column}"]`).first();
      const dash = cell('churn_cvr', 'M1').locator('[data-dash="zero_base"]');
      await dash.waitFor();
      expect(((await dash.textContent()) ?? '').trim(), language).toBe('-');
      expect(await dash.getAttribute('title'), language).toBe(title);
      // May starts with April's 12 customers: its churn rate has a base, and is a number.
      expect(await cell('churn_cvr', 'M2').locator('[data-dash]').count()).toBe(0);
      expect(((await cell('churn_cvr', 'M2').textContent()) ?? '').trim()).toMatch(/%$/);
    }
    expect(errors).toEqual([]);
  }, 120_000);
});
