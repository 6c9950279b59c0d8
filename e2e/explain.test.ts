import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, screenshot, startStack } from './browser';
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
    email: 'explain-owner@example.com',
    planName: 'Explain plan',
  }));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

const panel = () => page.locator('[data-test="explain-panel"]');
const input = (key: string) => panel().locator(`[data-test="explain-input"][data-key="${key}"]`);
const numberOf = async (locator: ReturnType<Page['locator']>) => Number(await locator.getAttribute('data-value'));
const cell = (rowId: string, colId: string) =>
  page.locator(`[data-test="monthly-grid"] .ag-row[row-id="${rowId}"] .ag-cell[col-id="${colId}"]`).first();

describe('explain in headless Chromium', () => {
  it('explains a monthly revenue cell down to an assumption and where it is edited', async () => {
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await cell('revenue', 'M3').waitFor();
    await cell('revenue', 'M3').click();
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('Revenue');
    expect(await panel().locator('[data-test="explain-formula"]').textContent()).toBe(
      'Revenue = MRR + Professional services',
    );
    // The inputs add up to the figure, and the figure is the cell's.
    const value = await numberOf(panel().locator('[data-test="explain-value"]'));
    const mrr = await numberOf(input('mrr'));
    const services = await numberOf(input('professional_service'));
    expect(mrr + services).toBeCloseTo(value, 6);
    expect(Number((await cell('revenue', 'M3').textContent())?.replace(/[^\d.-]/g, ''))).toBe(Math.round(value));
    await screenshot(page, 'explain-revenue');

    // Each input opens its own explanation: MRR, then the year's target ARR, then the case rate the user set.
    await input('mrr').locator('button.explain-open').click();
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('MRR');
    await input('assumption.arr').first().locator('button.explain-open').click();
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('Target ARR');
    expect(await panel().locator('[data-test="explain-formula"]').textContent()).toBe(
      'Target ARR = Target ARR of the plan × Case rate (x base case)',
    );
    // T_1 = A x r = 100,000,000 x 1.
    expect(await numberOf(panel().locator('[data-test="explain-value"]'))).toBe(100_000_000);
    expect(await numberOf(input('plan.target_arr'))).toBe(100_000_000);
    expect(await input('assumption.case_rate').getAttribute('data-source')).toBe('assumption');
    await screenshot(page, 'explain-assumption');

    // Back goes up the trail; the case rate leads to the P&L screen, where it is edited.
    await panel().locator('[data-test="explain-back"]').click();
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('MRR');
    await input('assumption.arr').first().locator('button.explain-open').click();
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('Target ARR');
    await input('assumption.case_rate').locator('[data-test="explain-edit"]').click();
    await page.waitForURL(`**/business-plans/${planId}/pl`);
    await page.locator('section[data-screen="pl"]').waitFor();
    expect(await panel().count()).toBe(0);
  }, 120_000);

  it('opens from the keyboard and closes with Escape', async () => {
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await cell('sm', 'M3').waitFor();
    await cell('sm', 'M2').click();
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('Sales & marketing');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel().count()).toBe(0);
    // Focus went back to the cell; the arrow keys move it and Enter explains the next month.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('Sales & marketing');
    expect(await panel().locator('[data-test="explain-formula"]').textContent()).toBe(
      'Sales & marketing = Revenue × S&M / revenue',
    );
    // S&M of month 3 is its revenue times the year's S&M share (38% by default).
    const revenue = await numberOf(input('revenue'));
    const share = await numberOf(input('assumption.sm_rate'));
    expect(share).toBe(0.38);
    expect(revenue * share).toBeCloseTo(await numberOf(panel().locator('[data-test="explain-value"]')), 6);
    expect(errors).toEqual([]);
  }, 60_000);

  it('explains the annual P&L table and the dashboard figures', async () => {
    await page.goto(`/business-plans/${planId}/pl`);
    const plCell = page.locator('[data-test="pl-table"] .ag-row[row-id="revenue"] .ag-cell[col-id="c1"]').first();
    await plCell.waitFor();
    await plCell.click();
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('Revenue');
    // Year 2's revenue is the sum of its four quarters.
    const quarters = await panel()
      .locator('[data-test="explain-input"]')
      .evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-key'), Number(row.getAttribute('data-value'))]));
    expect(quarters.map(([key]) => key)).toEqual(['revenue', 'revenue', 'revenue', 'revenue']);
    const year2 = await numberOf(panel().locator('[data-test="explain-value"]'));
    expect(quarters.reduce((s, [, v]) => s + Number(v), 0)).toBeCloseTo(year2, 6);
    await page.keyboard.press('Escape');
    // A cell the owner edits explains with Alt held, and no editor stays open.
    const rate = page.locator('[data-test="pl-table"] .ag-row[row-id="cogs_rate"] .ag-cell[col-id="c0"]').first();
    await rate.click({ modifiers: ['Alt'] });
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('COGS / revenue');
    expect(await panel().locator('[data-test="explain-formula"]').textContent()).toBe(
      'COGS / revenue = COGS ÷ Revenue (blank when it cannot be computed)',
    );
    await expect.poll(() => page.locator('[data-test="pl-table"] .ag-cell-inline-editing').count()).toBe(0);
    await page.keyboard.press('Escape');

    // A month of actuals gives the dashboard its latest figures: 20 customers won in month 1.
    const saved = await stack.api.call('POST', '/pl/monthly/edit', {
      token: owner.token,
      body: { business_plan_id: planId, year: 1, month: 1, order: 20, churn: 0 },
    });
    expect(saved.status).toBe(200);
    await page.goto(`/business-plans/${planId}/`);
    const latest = page.locator('[data-test="latest-mrr"]');
    await latest.waitFor();
    await latest.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('MRR');
    expect(await panel().locator('[data-test="explain-formula"]').textContent()).toBe('MRR = Customers × ARPA');
    const customers = await numberOf(input('cumulative'));
    const arpa = await numberOf(input('arpa'));
    expect(customers).toBe(20);
    // The plan's ARPA of 50,000 a month: 20 x 50,000 = 1,000,000.
    expect(arpa).toBe(50_000);
    expect(await numberOf(panel().locator('[data-test="explain-value"]'))).toBe(1_000_000);
    await screenshot(page, 'explain-dashboard');
    expect(errors).toEqual([]);
  }, 90_000);
});
