import { explain } from '@topline/engine';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, screenshot, startStack } from './browser';
import { engineOf, gridCell, ownerWithPlan } from './screensHelpers';

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
const cell = (rowId: string, colId: string) => gridCell(page, 'monthly-grid', rowId, colId);

describe('explain in headless Chromium', () => {
  it('explains a monthly revenue cell down to an assumption and where it is edited', async () => {
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await cell('revenue', 'M3').waitFor();
    // A click selects the cell and opens nothing; the cell's info control (a ? at its corner) opens its explanation.
    await cell('revenue', 'M3').click();
    const info = page.locator('[data-test="cell-explain"]');
    await info.waitFor();
    const [infoBox, cellBox] = [await info.boundingBox(), await cell('revenue', 'M3').boundingBox()];
    expect(infoBox && cellBox && Math.abs(infoBox.x + infoBox.width - (cellBox.x + cellBox.width)) < 2).toBe(true);
    expect(await panel().count()).toBe(0);
    await info.click();
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

  it('explains a count as the grid shows it: the whole number, and what it is before rounding', async () => {
    // The engine's explanation of the plan's new customers, month by month: a month whose shown count is not its
    // computed one (the grid foots counts: each month is a step of the rounded running total).
    const wb = await engineOf(stack, owner.token, planId);
    const months = Array.from({ length: 12 }, (_, i) => String(i + 1));
    const explained = months.map((period) => explain(wb, { caseIndex: 0, year: 1, period, key: 'order' }));
    const month = explained.findIndex((x) => x.shown !== undefined && x.shown !== Math.round(Number(x.value)));
    const x = explained[month];
    if (!x || x.shown === undefined) throw new Error('the plan has no month whose count is footed away from its value');
    // Footing: the month shows round(total through it) - round(total before it).
    const through = explained.slice(0, month + 1).reduce((sum, m) => sum + Number(m.value), 0);
    expect(x.shown).toBe(Math.round(through) - Math.round(through - Number(x.value)));

    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await cell('order', `M${month + 1}`).waitFor();
    const shownInGrid = Number((await cell('order', `M${month + 1}`).textContent())?.replace(/[^\d.-]/g, ''));
    expect(shownInGrid).toBe(x.shown);
    await cell('order', `M${month + 1}`).click();
    await page.keyboard.press('?');
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('New customers');
    const value = panel().locator('[data-test="explain-value"]');
    // The panel's figure is the grid's; the computed one is named beside it, and is what the formula's inputs give.
    expect(Number(await value.getAttribute('data-shown'))).toBe(x.shown);
    expect(Number((await value.textContent())?.replace(/[^\d.-]/g, ''))).toBe(x.shown);
    expect(Number(await value.getAttribute('data-value'))).toBeCloseTo(Number(x.value), 9);
    const rounding = panel().locator('[data-test="explain-rounding"]');
    expect(await rounding.textContent()).toBe(
      `Shown as a whole number; ${Number(x.value).toFixed(2)} before rounding. Counts are rounded so that the months add up to their quarter and year.`,
    );
    await screenshot(page, 'explain-count-rounding');
    // A money figure is shown as computed: no rounding note. The open panel follows the cell selected.
    await cell('revenue', `M${month + 1}`).click();
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('Revenue');
    expect(await panel().locator('[data-test="explain-rounding"]').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel().count()).toBe(0);
  }, 120_000);

  it('opens with ? from the keyboard, not with Enter or Space, and closes with Escape', async () => {
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await cell('sm', 'M3').waitFor();
    await cell('sm', 'M2').click();
    // Space explains nothing, and Enter moves down as in a spreadsheet.
    await page.keyboard.press(' ');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowUp');
    expect(await panel().count()).toBe(0);
    await page.keyboard.press('?');
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('Sales & marketing');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel().count()).toBe(0);
    // Focus went back to the cell, nothing typed into it; the arrow keys move it and ? explains the next month.
    expect(await page.locator('[data-test="monthly-grid"] .ag-cell-inline-editing').count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('?');
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
    await page.keyboard.press('?');
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
    // The panel follows the cell selected, and shows its figure as it is after an edit.
    const shownRate = async () => Math.round((await numberOf(panel().locator('[data-test="explain-value"]'))) * 1e6);
    expect(await shownRate()).toBe(300_000);
    await rate.click();
    await rate.locator('input').waitFor();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('25');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowUp');
    await expect.poll(shownRate, { timeout: 10_000 }).toBe(250_000);
    // Once saved, the panel asks the API again (it explains the saved plan): the same figure, after its loading state.
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('COGS / revenue');
    await expect.poll(shownRate).toBe(250_000);
    // Escape on the grid closes it.
    await page.keyboard.press('Escape');
    await expect.poll(() => panel().count()).toBe(0);

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

  it("explains the dashboard's averages, fiscal year and MRR goal, and the grid's progress and variance", async () => {
    // A second month of actuals (test above: 20 customers won in month 1): 10 won, 1 churned in month 2.
    const saved = await stack.api.call('POST', '/pl/monthly/edit', {
      token: owner.token,
      body: { business_plan_id: planId, year: 1, month: 2, order: 10, churn: 1 },
    });
    expect(saved.status).toBe(200);
    const dashboard = (
      await stack.api.call('GET', '/dashboard/retrieve', { token: owner.token, query: { business_plan_id: planId } })
    ).body.data;
    expect(dashboard.latest_actual_month).toBe(2);
    await page.goto(`/business-plans/${planId}/`);
    const average = page.locator('[data-test="metric-order"] [data-test="ave-3"]');
    await average.waitFor();
    await average.click();
    await expect
      .poll(() => panel().locator('[data-test="explain-title"]').textContent())
      .toBe('New customers: 3-month average');
    // The months it averages, the latest ACT month first: (10 + 20) / 2 = 15.
    const value = await numberOf(panel().locator('[data-test="explain-value"]'));
    expect(value).toBe(dashboard.metrics.order.ave_three_monthes);
    expect(value).toBe(15);
    const months = await panel()
      .locator('[data-test="explain-input"]')
      .evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-key'), Number(row.getAttribute('data-value'))]));
    expect(months).toEqual([
      ['order', 10],
      ['order', 20],
    ]);
    await screenshot(page, 'explain-dashboard-average');
    // The months are entered actuals: leaves, edited on the monthly P&L.
    expect(await input('order').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-source')))).toEqual([
      'actual',
      'actual',
    ]);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel().count()).toBe(0);
    // A computed month opens its own explanation, in the actual view: customers of month 2 (20 + 10 - 1 = 29).
    await page.locator('[data-test="metric-customers"] [data-test="ave-3"]').click();
    await expect
      .poll(() => panel().locator('[data-test="explain-title"]').textContent())
      .toBe('Customers: 3-month average');
    expect(await numberOf(panel().locator('[data-test="explain-value"]'))).toBe((29 + 20) / 2);
    await input('cumulative').first().locator('button.explain-open').click();
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('Customers');
    expect(await numberOf(panel().locator('[data-test="explain-value"]'))).toBe(29);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel().count()).toBe(0);

    // The fiscal year achieved opens from the keyboard: the year's actual so far over the year's plan.
    const fiscal = page.locator('[data-test="metric-arpa"] [data-test="fiscal-year"]');
    await fiscal.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => panel().locator('[data-test="explain-title"]').textContent())
      .toBe('ARPA: fiscal year achieved');
    const achieved = await numberOf(panel().locator('[data-test="explain-value"]'));
    expect(achieved).toBeCloseTo(dashboard.metrics.arpa.fiscal_year_achieved, 9);
    const [toDate, plan] = await panel()
      .locator('[data-test="explain-input"]')
      .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-value'))));
    expect((toDate ?? 0) / (plan ?? 1)).toBeCloseTo(achieved, 9);
    await page.keyboard.press('Escape');

    // The MRR goal is the plan's MRR at the end of the year.
    await page.locator('[data-test="mrr-goal"]').click();
    await expect
      .poll(() => panel().locator('[data-test="explain-title"]').textContent())
      .toBe('MRR goal (year-end plan)');
    expect(await numberOf(panel().locator('[data-test="explain-value"]'))).toBeCloseTo(dashboard.mrr_progress.goal, 6);
    expect(await numberOf(input('mrr'))).toBeCloseTo(dashboard.mrr_progress.goal, 6);
    await page.keyboard.press('Escape');

    // The monthly grid's progress: the actual over the plan of the ACT months.
    const wb = await engineOf(stack, owner.token, planId);
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await cell('revenue', 'M3').waitFor();
    await page.getByRole('tab', { name: 'Progress' }).click();
    await cell('order', 'M2').click();
    await page.keyboard.press('?');
    await expect
      .poll(() => panel().locator('[data-test="explain-title"]').textContent())
      .toBe('Progress of New customers (actual ÷ plan, ACT months)');
    const progress = await numberOf(panel().locator('[data-test="explain-value"]'));
    expect(progress).toBeCloseTo(wb.monthlyGrid(0, 1, 'progress')[1]?.values.order ?? Number.NaN, 9);
    const actual = await numberOf(input('order').nth(0));
    const estimate = await numberOf(input('order').nth(1));
    expect(actual).toBe(10);
    expect(actual / estimate).toBeCloseTo(progress, 9);
    await screenshot(page, 'explain-progress');
    await page.keyboard.press('Escape');

    // The variance as values: the actual minus the plan of the ACT months.
    await page.getByRole('tab', { name: 'Variance' }).click();
    await page.getByRole('tab', { name: 'Value' }).click();
    await cell('mrr', 'M1').click();
    await page.keyboard.press('?');
    await expect
      .poll(() => panel().locator('[data-test="explain-title"]').textContent())
      .toBe('Difference of MRR (actual − plan, ACT months)');
    const difference = await numberOf(panel().locator('[data-test="explain-value"]'));
    expect(difference).toBeCloseTo(wb.monthlyGrid(0, 1, 'difference_value')[0]?.values.mrr ?? Number.NaN, 6);
    expect((await numberOf(input('mrr').nth(0))) - (await numberOf(input('mrr').nth(1)))).toBeCloseTo(difference, 6);
    expect(errors).toEqual([]);
  }, 120_000);

  // Last: it saves an actual into the plan the other tests read.
  it('explains a figure typed and not saved yet as the grid shows it, and as saved after Save', async () => {
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await cell('sm', 'M4').waitFor();
    await page.getByRole('tab', { name: 'Enter actuals' }).click();
    await page.locator('[data-test="edit-M4"]').waitFor();
    // A cost of 4,321 typed into month 4 (shown negative), not saved: the panel explains it from the browser's
    // workbook, as the grid shows it, and says so; the saved plan's S&M of month 4 is its forecast, not 4,321.
    await cell('sm', 'M4').click();
    await page.keyboard.type('-');
    await page.locator('.ag-cell-inline-editing input').first().waitFor();
    await page.keyboard.type('4,321');
    await page.keyboard.press('Enter');
    await page.locator('[data-test="save-M4"]').waitFor();
    await expect.poll(async () => (await cell('sm', 'M4').textContent())?.trim()).toBe('-4,321');
    // A key typed on a cell of a month in edit mode goes into the cell: its info control explains it.
    await cell('sm', 'M4').click();
    await page.locator('[data-test="cell-explain"]').click();
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('Sales & marketing');
    await expect.poll(() => numberOf(panel().locator('[data-test="explain-value"]'))).toBe(4321);
    expect(await panel().locator('[data-test="explain-unsaved"]').textContent()).toBe(
      'Includes the values typed and not saved yet.',
    );
    // An entered actual is its own formula.
    expect(await panel().locator('[data-test="explain-formula"]').textContent()).toBe('Sales & marketing = 4321');
    // Saved: the API explains the saved plan, which now holds the same figure.
    const saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/edit') && r.status() === 200);
    await page.locator('[data-test="save-M4"]').click();
    await saved;
    await page.locator('[data-test="control-M4"] .ws-status.act').waitFor();
    await expect.poll(() => panel().locator('[data-test="explain-unsaved"]').count()).toBe(0);
    await cell('sm', 'M4').click();
    await page.keyboard.press('?');
    await expect.poll(() => panel().locator('[data-test="explain-title"]').textContent()).toBe('Sales & marketing');
    await expect.poll(() => numberOf(panel().locator('[data-test="explain-value"]'))).toBe(4321);
    expect(await panel().locator('[data-test="explain-unsaved"]').count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  }, 120_000);
});
