/**
 * Charts read against zero, the dashboard of a new plan, and counts that foot on screen, in headless Chromium. The
 * axis ranges are Plotly's own: the graph div keeps its computed layout in `_fullLayout`.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, screenshot, startStack } from './browser';
import { cellText, openScreen, ownerWithPlan } from './screensHelpers';

let stack: Stack;
let owner: { token: string };
let planId: number;
let context: BrowserContext;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  // ARR 100,000,000 JPY, ARPA 50,000 (2% churn), from April 2026.
  ({ owner, planId, context, page, errors } = await ownerWithPlan(stack, {
    email: 'charts-owner@example.com',
    planName: 'Charts plan',
    width: 2400,
    height: 1000,
  }));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

/** Opens a working screen; the dashboard is the plan's own address. */
const open = (screen: string) => openScreen(page, planId, screen);

interface Plotted {
  y: [number, number];
  y2: [number, number] | null;
  /** The smallest and largest value the traces plot on each axis. */
  values: { y: number[]; y2: number[] };
}

/** The vertical axis ranges Plotly computed for the chart `testId`, and the values its traces plot. */
async function plotted(testId: string): Promise<Plotted> {
  const selector = `[data-test="${testId}"] .js-plotly-plot`;
  await page.waitForFunction(
    (sel) => (document.querySelector(sel) as unknown as { _fullLayout?: unknown } | null)?._fullLayout !== undefined,
    selector,
  );
  return page.evaluate((sel) => {
    const gd = document.querySelector(sel) as unknown as {
      _fullLayout: { yaxis: { range: [number, number] }; yaxis2?: { range: [number, number] } };
      data: { y?: (number | null)[]; yaxis?: string }[];
    };
    const values = { y: [] as number[], y2: [] as number[] };
    for (const trace of gd.data) {
      const on = trace.yaxis === 'y2' ? values.y2 : values.y;
      for (const v of trace.y ?? []) if (typeof v === 'number') on.push(v);
    }
    return {
      y: [...gd._fullLayout.yaxis.range] as [number, number],
      y2: gd._fullLayout.yaxis2 ? ([...gd._fullLayout.yaxis2.range] as [number, number]) : null,
      values,
    };
  }, selector);
}

/** An axis that starts at zero (or ends there, for figures below zero) and shows every plotted value. */
function expectFromZero(range: [number, number] | null, values: number[]): void {
  expect(range).not.toBeNull();
  const [low, high] = range ?? [Number.NaN, Number.NaN];
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  if (min === 0) expect(low).toBe(0);
  else expect(low).toBeLessThanOrEqual(min);
  if (max === 0 && min < 0) expect(high).toBe(0);
  else expect(high).toBeGreaterThanOrEqual(max);
  expect(high).toBeGreaterThan(low);
}

const number = (text: string) => Number(text.replaceAll(',', ''));

describe('charts and the dashboard of a new plan in headless Chromium', () => {
  it("tells a new plan's dashboard what to enter, and draws its charts from zero", async () => {
    await open('dashboard');
    const notice = page.locator('[data-test="no-actuals"]');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('No actual results yet');
    expect(await notice.textContent()).toContain('sessions, leads, opportunities, new customers and churn');
    // No rows of dashes: no latest value or average is shown without an actual month.
    expect(await page.locator('[data-test^="latest-"]').count()).toBe(0);
    expect(await page.locator('[data-test="ave-3"]').count()).toBe(0);
    expect(await page.locator('[data-test="as-of"]').count()).toBe(0);
    // The MRR goal of the year (100,000,000 / 12) without a gauge of a progress not yet made.
    expect(await page.locator('[data-test="mrr-gauge"]').count()).toBe(0);
    expect(await page.locator('[data-test="mrr-progress-values"]').textContent()).toBe('Goal: 8,333,333');
    const cash = await plotted('chart-cash_balance');
    expect(cash.values.y.length).toBe(12);
    expectFromZero(cash.y, cash.values.y);
    const customers = await plotted('chart-customers');
    // Customers 13.89 in April (MRR 8,333,333 / 12 over ARPA 50,000) to 166.67 in March: drawn from 0.
    expect(customers.y[0]).toBe(0);
    expect(customers.y[1]).toBeGreaterThanOrEqual(Math.max(...customers.values.y));
    await screenshot(page, 'charts-dashboard-new-plan');
    await page.locator('[data-test="enter-actuals"]').click();
    await page.locator('section[data-screen="monthly_pl"]').waitFor();
  }, 60_000);

  it('draws the cost chart of a group without items from zero', async () => {
    await open('expenses');
    const cost = await plotted('cost-chart');
    // The monthly budget line (thousands) and no item bars: 0 to above the budget, not budget +- 1.
    expect(cost.values.y.length).toBeGreaterThan(0);
    expectFromZero(cost.y, cost.values.y);
    expect(cost.y[0]).toBe(0);
  }, 60_000);

  it('starts both axes of the KPI chart at zero', async () => {
    await open('kpi');
    const kpi = await plotted('kpi-chart');
    expect(kpi.y[0]).toBe(0);
    expect(kpi.y2?.[0]).toBe(0);
    expectFromZero(kpi.y, kpi.values.y);
    expectFromZero(kpi.y2, kpi.values.y2);
  }, 60_000);

  it('shows count quarters and years that are the sums of the months shown', async () => {
    await open('kpi');
    const views = page.locator('[data-test="kpi-views"]');
    await views.getByRole('tab', { name: 'Monthly' }).click();
    await page.locator('[data-test="kpi-table"] .ag-row[row-id="order"] .ag-cell[col-id="c11"]').waitFor();
    // New customers: customers 13.8889 t, churn 2% of the month before, so orders 13.8889, 14.1667, 14.4444 in Q1:
    // running totals 13.89, 28.06, 42.50 round to 14, 28, 43 -> months 14, 14, 15 under a Q1 of 43 (42.5 rounded).
    const monthly: Record<string, number[]> = {};
    for (const key of ['session', 'lead', 'meeting', 'order', 'churn']) {
      monthly[key] = [];
      for (let i = 0; i < 12; i++) monthly[key].push(number(await cellText(page, 'kpi-table', key, `c${i}`)));
    }
    expect(monthly.order?.slice(0, 3)).toEqual([14, 14, 15]);
    await views.getByRole('tab', { name: 'Quarterly' }).click();
    await page.locator('[data-test="kpi-table"] .ag-row[row-id="progress_rate"]').waitFor();
    expect(number(await cellText(page, 'kpi-table', 'order', 'c0'))).toBe(43);
    for (const [key, months] of Object.entries(monthly)) {
      for (let q = 0; q < 4; q++) {
        const sum = months.slice(3 * q, 3 * q + 3).reduce((s, v) => s + v, 0);
        expect(number(await cellText(page, 'kpi-table', key, `c${q}`)), `${key} Q${q + 1}`).toBe(sum);
      }
    }
    await views.getByRole('tab', { name: 'Summary' }).click();
    for (const [key, months] of Object.entries(monthly)) {
      const year = months.reduce((s, v) => s + v, 0);
      expect(number(await cellText(page, 'kpi-table', `yearly_${key}`, 'c0')), `${key} year`).toBe(year);
    }
    await screenshot(page, 'charts-kpi-summary');
  }, 90_000);

  it('shows count quarters and years in the monthly P&L grid that are the sums of the months shown', async () => {
    await open('monthly_pl');
    await page.locator('[data-test="monthly-grid"] .ag-row[row-id="order"]').waitFor();
    // Quarters are hidden until asked for.
    await page.locator('[data-test="display-quarters"]').check();
    // The same new customers as on the KPI screen: 14, 14, 15 under a Q1 of 43.
    const shown = async (key: string, column: string) => number(await cellText(page, 'monthly-grid', key, column));
    expect([await shown('order', 'M1'), await shown('order', 'M2'), await shown('order', 'M3')]).toEqual([14, 14, 15]);
    expect(await shown('order', 'Q1')).toBe(43);
    for (const key of ['session', 'lead', 'meeting', 'order', 'churn']) {
      let year = 0;
      for (let q = 1; q <= 4; q++) {
        let quarter = 0;
        for (let m = 3 * q - 2; m <= 3 * q; m++) quarter += await shown(key, `M${m}`);
        expect(await shown(key, `Q${q}`), `${key} Q${q}`).toBe(quarter);
        year += quarter;
      }
      expect(await shown(key, 'CY'), `${key} CY`).toBe(year);
    }
  }, 90_000);

  it('names the month its figures are as of once a month has actuals', async () => {
    const saved = await stack.api.call('POST', '/pl/monthly/edit', {
      token: owner.token,
      body: { business_plan_id: planId, year: 1, month: 2, order: 12, churn: 0, arpa: 50_000 },
    });
    expect(saved.status).toBe(200);
    await open('dashboard');
    // Plan month 2 of a plan starting April 2026 is May 2026.
    await page.locator('[data-test="as-of"]').waitFor();
    expect(await page.locator('[data-test="as-of"]').textContent()).toBe(
      'Figures as of 2026/05, the latest month with actual results',
    );
    expect(await page.locator('[data-test="no-actuals"]').count()).toBe(0);
    expect(await page.locator('[data-test="metric-order"] [data-test="latest-order"]').textContent()).toBe('12');
    expect(errors).toEqual([]);
  }, 60_000);
});
