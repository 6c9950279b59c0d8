import { readFileSync } from 'node:fs';
import type { BrowserContext, Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNumber, formatPercent } from '../web/src/format/numbers';
import { newPage, type Stack, screenshot, startStack } from './browser';
import { cellText, engineOf, enterCell, openScreen, ownerWithPlan, signIn, waitForCell } from './screensHelpers';

let stack: Stack;
let owner: { token: string };
let planId: number;
let context: BrowserContext;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  ({ owner, planId, context, page, errors } = await ownerWithPlan(stack, {
    email: 'screens-owner@example.com',
    planName: 'Screens plan',
  }));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

const open = (screen: string) => openScreen(page, planId, screen);

describe('working screens in headless Chromium', () => {
  it('shows every screen with the engine numbers', async () => {
    const wb = await engineOf(stack, owner.token, planId);
    await open('pl');
    await page.locator('[data-test="pl-table"] .ag-row[row-id="arr"]').waitFor();
    const pl = wb.annualPl(0);
    expect(await cellText(page, 'pl-table', 'arr', 'c0')).toBe(formatNumber(pl[0]?.arr));
    expect(await cellText(page, 'pl-table', 'revenue', 'c1')).toBe(formatNumber(pl[1]?.revenue));
    await page.locator('[data-test="pl-chart"] .main-svg').first().waitFor();
    await screenshot(page, 'screen-pl');
    for (const screen of ['home', 'kpi', 'revenue', 'expenses', '', 'monthly_pl', 'setting']) {
      await open(screen);
      await page.waitForTimeout(800);
      await screenshot(page, `screen-${screen || 'dashboard'}`);
    }
    expect(errors).toEqual([]);
  }, 120_000);

  /**
   * A screen opened cold in a new browser context, signed in as the owner: `events` lists each API request as it is
   * sent (`sent /path?query`) and `screen code` once the screen's chunk (`chunk`) has come; `held` keeps that chunk
   * back until released, when asked.
   */
  async function openCold(screen: string, chunk: string, options: { hold?: boolean } = {}) {
    const fresh = await newPage(stack, { locale: 'en-US' });
    const p = fresh.page;
    await signIn(p, owner.token);
    const events: string[] = [];
    p.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) events.push(`sent ${url.pathname.slice(7)}${url.search}`);
    });
    const code = new RegExp(`/assets/${chunk}-[^/]*\\.js$`);
    p.on('requestfinished', (r) => {
      if (code.test(r.url())) events.push('screen code');
    });
    const held: Route[] = [];
    if (options.hold) {
      await p.route(code, (route) => {
        held.push(route);
      });
    }
    await p.goto(`/business-plans/${planId}/${screen === 'dashboard' ? '' : screen}`, { waitUntil: 'commit' });
    const release = async () => {
      for (const route of held) await route.continue();
      await p.unroute(code);
    };
    /** Once the screen is there (and a moment more), no request was sent twice. */
    const shownWithoutRepeats = async () => {
      await p.locator(`section[data-screen="${screen}"]`).waitFor();
      await p.waitForTimeout(500);
      const sent = events.filter((e) => e.startsWith('sent '));
      expect(new Set(sent).size, `${screen}: ${sent.join(', ')}`).toBe(sent.length);
    };
    return { events, held, release, shownWithoutRepeats, close: () => fresh.context.close() };
  }

  it('asks for the session and a screen’s first answers as the app starts, each once, not after the screen’s code', async () => {
    // Each screen opened cold: without a read ahead, its first answers are asked for only once its code has run.
    const firstAnswers: Record<string, [chunk: string, answers: string[]]> = {
      pl: ['PlScreen', ['/pl/retrieve', '/snapshot/list']],
      kpi: ['KpiScreen', ['/kpi/retrieve']],
      revenue: ['RevenueScreen', ['/revenue/retrieve']],
      expenses: ['ExpensesScreen', ['/cost/retrieve']],
      home: ['HomeScreen', ['/home/retrieve', '/home/reminders', '/todos/retrieve']],
    };
    for (const [screen, [chunk, answers]] of Object.entries(firstAnswers)) {
      const cold = await openCold(screen, chunk);
      try {
        await cold.shownWithoutRepeats();
        const { events } = cold;
        const codeAt = events.indexOf('screen code');
        expect(codeAt, screen).toBeGreaterThan(0);
        for (const path of ['/user/me', ...answers]) {
          const sent = events.filter((e) => e.startsWith(`sent ${path}`));
          expect(sent, `${screen}: ${path}`).toEqual([
            `sent ${path}${path === '/user/me' ? '' : `?business_plan_id=${planId}`}`,
          ]);
          expect(events.indexOf(sent[0] ?? ''), `${screen}: ${path} before the screen's code`).toBeLessThan(codeAt);
        }
      } finally {
        await cold.close();
      }
    }
  }, 120_000);

  it('asks for the monthly P&L’s and the dashboard’s answer of the case shown once the session has come', async () => {
    // Their answers name the case (and plan year) shown, which the session tells: with the screen's code held back,
    // the answer is asked for all the same, and the screen, once its code comes, asks no second time.
    const caseAnswers: [screen: string, chunk: string, path: string][] = [
      ['monthly_pl', 'MonthlyPlScreen', '/pl/monthly/retrieve'],
      ['dashboard', 'DashboardScreen', '/dashboard/retrieve'],
    ];
    for (const [screen, chunk, path] of caseAnswers) {
      const cold = await openCold(screen, chunk, { hold: true });
      try {
        const asked = () => cold.events.filter((e) => e.startsWith(`sent ${path}?business_plan_id=${planId}&case_id=`));
        await expect.poll(() => asked().length, { message: `${screen}: asked while its code is held` }).toBe(1);
        expect(cold.held.length, screen).toBeGreaterThan(0);
        await cold.release();
        await cold.shownWithoutRepeats();
        expect(asked(), screen).toHaveLength(1);
      } finally {
        await cold.close();
      }
    }
  }, 120_000);

  it('moves through the side menu once the next screen’s code is there, never through a loading screen', async () => {
    // A new browser, whose KPI screen code is held back: a click on KPI leaves the P&L in place until it comes.
    const fresh = await newPage(stack, { locale: 'en-US' });
    try {
      const p = fresh.page;
      await signIn(p, owner.token);
      const held: Route[] = [];
      const kpiCode = /\/assets\/KpiScreen-[^/]*\.js$/;
      await p.route(kpiCode, (route) => {
        held.push(route);
      });
      await p.goto(`/business-plans/${planId}/pl`);
      await p.locator('[data-test="pl-table"] .ag-row[row-id="arr"]').waitFor();
      // Whether the screen's loading fallback (not the data's overlay) ever shows from here on.
      await p.evaluate(() => {
        const seen = window as unknown as { fallbackSeen: boolean };
        seen.fallbackSeen = false;
        new MutationObserver(() => {
          for (const el of document.querySelectorAll('.shell-content .loading'))
            if (!el.closest('.content-loading')) seen.fallbackSeen = true;
        }).observe(document.body, { childList: true, subtree: true });
      });
      await p.locator('.side-menu [data-screen="kpi"]').click();
      await expect.poll(() => held.length).toBeGreaterThan(0);
      await p.waitForTimeout(300);
      expect(new URL(p.url()).pathname).toBe(`/business-plans/${planId}/pl`);
      expect(await p.locator('[data-test="pl-table"] .ag-row[row-id="arr"]').count()).toBe(1);
      for (const route of held) await route.continue();
      await p.unroute(kpiCode);
      await p.waitForURL(`**/business-plans/${planId}/kpi`);
      await p.locator('[data-test="kpi-table"] .ag-row').first().waitFor();
      expect(await p.evaluate(() => (window as unknown as { fallbackSeen: boolean }).fallbackSeen)).toBe(false);
    } finally {
      await fresh.context.close();
    }
  }, 120_000);

  it('adds, compares, renames and deletes a case, edits the chart colours and remembers the dismissed suggestion', async () => {
    await open('pl');
    await page.locator('[data-test="case-add"]').click();
    const modal = page.locator('[data-test="case-add-modal"]');
    const submit = modal.getByRole('button', { name: 'Add' });
    await modal.getByLabel('Case name').fill('Ideal');
    expect(await submit.isDisabled()).toBe(true);
    // A rate that is not a number is refused with what the field takes, never stripped.
    await modal.getByLabel(/Rate/).fill('2.x');
    expect(await modal.getByLabel(/Rate/).inputValue()).toBe('2.x');
    expect(await modal.locator('[data-test="case-rate-error"]').textContent()).toBe(
      'Not a number: “2.x”. Allowed: a number with at most 2 decimal places, above 0 and at most 99.99.',
    );
    expect(await submit.isDisabled()).toBe(true);
    await modal.getByLabel(/Rate/).fill('2');
    await submit.click();
    await page.getByRole('tab', { name: /Ideal/, selected: true }).waitFor();
    const wb = await engineOf(stack, owner.token, planId);
    await waitForCell(page, 'pl-table', 'arr', 'c0', formatNumber(wb.annualPl(1)[0]?.arr));
    expect(await cellText(page, 'pl-table', 'arr', 'c0')).toBe('200,000,000');
    await page.locator('[data-test="compare-toggle"]').check();
    await page.locator('[data-test="pl-chart"] .main-svg').first().waitFor();
    await screenshot(page, 'screen-pl-compare');
    await page.locator('[data-test="case-rename"]').click();
    await page.getByRole('dialog').getByLabel('Case name').fill('Ideal plan');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('tab', { name: /Ideal plan/ }).waitFor();
    await page.locator('[data-test="case-delete"]').click();
    await page.locator('[data-test="confirm-ok"]').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-test="case-tabs"] [role="tab"]').length === 1);

    const colors = page.locator('[data-test="color-editor"]');
    await colors.getByRole('button', { name: 'Edit' }).click();
    await colors.locator('input').first().fill('#ABC');
    expect(await page.locator('[data-test="swatch-1-arr"]').textContent()).toContain('#aabbcc');
    const saved = page.waitForResponse((r) => r.url().includes('/pl/color'));
    await colors.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBeLessThan(300);
    await colors.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await page.locator('[data-test="swatch-2-arr"]').textContent()).toContain('#c8d3de');

    await page.locator('[data-test="suggestion-ask"]').getByRole('button', { name: 'Show' }).click();
    await page.locator('[data-test="suggestion-modal"] li').first().waitFor();
    await screenshot(page, 'screen-pl-suggestion');
    await page.locator('[data-test="suggestion-modal"]').getByRole('button', { name: 'Close' }).click();
    await page.locator('[data-test="suggestion-dismiss"]').click();
    await open('pl');
    await page.locator('[data-test="pl-table"]').waitFor();
    expect(await page.locator('[data-test="suggestion-ask"]').count()).toBe(0);
  }, 90_000);

  it('edits the recurring revenue share with the 80% hint, and records a daily entry on Home', async () => {
    await open('revenue');
    await page.locator('[data-test="revenue-table"] .ag-row[row-id="recurring_revenue_rate"]').waitFor();
    const saved = page.waitForResponse((r) => r.url().includes('/revenue/edit') && r.status() === 200);
    await enterCell(page, 'revenue-table', 'recurring_revenue_rate', 'c0', '70');
    await saved;
    const revenue = (await engineOf(stack, owner.token, planId)).revenue(0)[0];
    await waitForCell(page, 'revenue-table', 'revenue', 'c0', formatNumber(revenue?.revenue));
    await waitForCell(page, 'revenue-table', 'professional_service', 'c0', formatNumber(revenue?.professional_service));
    expect(await page.locator('[data-test="recurring-hint"].ws-warning').textContent()).toContain('Y1');
    await screenshot(page, 'screen-revenue-hint');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('[data-test="revenue-csv"]').click()]);
    expect(csv.suggestedFilename()).toMatch(/_revenue_\d{8}\.csv$/);
    const text = readFileSync((await csv.path()) ?? '', 'utf8');
    expect(text).toContain(String(Math.round(revenue?.revenue ?? 0)));

    await open('home');
    const sales = page.locator('[data-test="daily-sales"]');
    await sales.locator('input').fill('3');
    await sales.getByRole('button', { name: 'Record' }).click();
    await page.waitForFunction(() =>
      (document.querySelector('[data-test="daily-sales"]')?.textContent ?? '').includes('this month 3'),
    );
    await screenshot(page, 'screen-home-entry');
  }, 60_000);

  it('downloads the P&L CSV holding the numbers on screen', async () => {
    await open('pl');
    await page.locator('[data-test="pl-table"] .ag-row[row-id="revenue"]').waitFor();
    const shown = await cellText(page, 'pl-table', 'revenue', 'c0');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-test="pl-csv"]').click()]);
    expect(download.suggestedFilename()).toMatch(/^Screens.plan_Base.case_pl_\d{8}\.csv$/);
    const csv = readFileSync((await download.path()) ?? '', 'utf8');
    expect(csv).toContain(shown.replaceAll(',', ''));
    const arr = await cellText(page, 'pl-table', 'arr', 'c2');
    expect(csv).toContain(arr.replaceAll(',', ''));
  }, 60_000);

  it('recomputes the monthly P&L after a churn rate change on KPI', async () => {
    const before = (await engineOf(stack, owner.token, planId)).monthlyGrid(0, 1, 'estimate');
    await open('kpi');
    await page.locator('[data-test="kpi-table"] .ag-row[row-id="churn_rate"]').waitFor();
    // Two decimals for churn: 5.555 is refused at the cell (stored exactly or not at all), 5.55 is stored.
    await enterCell(page, 'kpi-table', 'churn_rate', 'c0', '5.555');
    await page.locator('[data-test="cell-message"][data-row="churn_rate"][data-col="c0"]').waitFor();
    const saved = page.waitForResponse((r) => r.url().includes('/case/edit') && r.status() === 200);
    await enterCell(page, 'kpi-table', 'churn_rate', 'c0', '5.55');
    await saved;
    await waitForCell(page, 'kpi-table', 'churn_rate', 'c0', '5.55%');
    const wb = await engineOf(stack, owner.token, planId);
    const after = wb.monthlyGrid(0, 1, 'estimate');
    expect(after[5]?.values.churn).not.toBeCloseTo(before[5]?.values.churn ?? 0, 3);
    // The monthly and quarterly views of the same year, with rates as percentages (churn with two decimals).
    const kpi = wb.kpi(0)[0];
    await page.locator('[data-test="kpi-views"]').getByRole('tab', { name: 'Monthly' }).click();
    await waitForCell(page, 'kpi-table', 'churn', 'c5', formatNumber(kpi?.monthly[5]?.churn as number));
    expect(await cellText(page, 'kpi-table', 'churn_cvr', 'c5')).toBe(
      formatPercent(kpi?.monthly[5]?.churn_cvr as number, 2),
    );
    expect(await cellText(page, 'kpi-table', 'session', 'c2')).toBe(formatNumber(kpi?.monthly[2]?.session as number));
    await page.locator('[data-test="kpi-views"]').getByRole('tab', { name: 'Quarterly' }).click();
    await waitForCell(
      page,
      'kpi-table',
      'progress_rate',
      'c3',
      formatPercent(kpi?.quarterly[3]?.progress_rate as number),
    );
    expect(await cellText(page, 'kpi-table', 'order', 'c1')).toBe(formatNumber(kpi?.quarterly[1]?.order as number));
    // At the year's end the plan meets its ARR target: Q4 progress is 100%.
    expect(kpi?.quarterly[3]?.progress_rate).toBeCloseTo(1, 9);
    await open('monthly_pl');
    await page.locator('[data-test="monthly-grid"] .ag-row[row-id="churn"]').waitFor();
    // M4 is the fifth column: M1 M2 M3 Q1 M4.
    expect(await cellText(page, 'monthly-grid', 'churn', 'M4')).toBe(formatNumber(after[4]?.values.churn));
    expect(await cellText(page, 'monthly-grid', 'ltv', 'M4')).toBe(formatNumber(after[4]?.values.ltv));
    expect(await cellText(page, 'monthly-grid', 'churn_cvr', 'M4')).toBe(formatPercent(after[4]?.values.churn_cvr));
    await screenshot(page, 'screen-monthly-after-churn');
  }, 90_000);

  it('refuses a cost term that ends before it starts and warns about an item over budget', async () => {
    await open('expenses');
    await page.locator('[data-test="cost-tabs"]').getByRole('tab', { name: 'G&A' }).click();
    await page.locator('[data-test="cost-add"]').click();
    const form = page.locator('[data-test="cost-item-form"]');
    await form.locator('input[name="item_name"]').fill('Office');
    await form.locator('input[name="price"]').fill('9999999');
    expect(await form.locator('input[name="price"]').inputValue()).toBe('999999');
    await form.locator('input[name="start_year"]').fill('2026');
    await form.locator('input[name="start_month"]').fill('4');
    await form.locator('input[name="end_year"]').fill('2025');
    await form.locator('input[name="end_month"]').fill('13');
    expect(await form.locator('input[name="end_month"]').inputValue()).not.toBe('13');
    await form.locator('input[name="end_month"]').fill('3');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-test="term-error"]').waitFor();
    expect(await page.locator('[data-test="term-error"]').textContent()).toContain('Input Error');
    await page.locator('[data-test="term-error"] button').click();
    await form.locator('input[name="end_year"]').fill('2027');
    const saved = page.waitForResponse((r) => r.url().includes('/cost/create') && r.status() === 200);
    await form.getByRole('button', { name: 'Save' }).click();
    await saved;
    const warning = page.locator('[data-test="over-budget"]');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('G&A is over budget (Office)');
    const wb = await engineOf(stack, owner.token, planId);
    const ga = wb.costs(0)[0]?.groups.ga;
    expect(ga?.over_budget).toBe(true);
    // 999,999 a month over the twelve months of the year; the budget is the estimate's G&A (11% of revenue).
    const summary = page.locator('[data-test="budget-summary"] strong');
    expect(await summary.nth(1).textContent()).toBe('11,999,988');
    expect(await summary.nth(0).textContent()).toBe(formatNumber(ga?.budget));
    expect(ga?.budget).toBeCloseTo(0.11 * (wb.revenue(0)[0]?.revenue ?? 0), 4);
    expect(await page.locator('[data-test="budgetary-averages"]').textContent()).toBe(
      formatPercent((ga?.budgetary_averages ?? 0) / 100),
    );
    // Red means a negative figure and nothing else: the budget used over 100% is amber, the negative remainder red.
    const colour = (nth: number) => summary.nth(nth).evaluate((el) => getComputedStyle(el).color);
    expect(await colour(2)).toBe('rgb(154, 91, 0)');
    expect(ga?.remaining_budget).toBeLessThan(0);
    expect(await colour(3)).toBe('rgb(184, 40, 61)');
    // The warning shows first from the browser's engine; the saved answer then replaces the local row (AG Grid
    // animates the swap), and the form closes once that answer is in.
    await form.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.querySelectorAll('[data-test="cost-items"] .ag-row').length === 1);
    await screenshot(page, 'screen-expenses-over-budget');
    // A cheaper price brings the group back under budget; then the item is deleted. The browser's workbook took the
    // new item as the API saved it (its id, in place of the stand-in it showed): while the edit's answer is held, the
    // screen shows the browser's recomputation, one item at the new price, and the plan file is never read again.
    let planFileReads = 0;
    const countReads = (request: Request) => {
      if (request.method() === 'GET' && request.url().includes('/api/v1/business-plan/file')) planFileReads++;
    };
    page.on('request', countReads);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v1/cost/edit', async (route) => {
      await held;
      await route.continue();
    });
    await page.locator('[data-test="cost-items"]').getByRole('button', { name: 'Edit' }).click();
    await form.locator('input[name="price"]').fill('1000');
    const edited = page.waitForResponse((r) => r.url().includes('/cost/edit') && r.status() === 200);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => summary.nth(1).textContent()).toBe('12,000');
    expect(await page.locator('[data-test="cost-items"] .ag-row').count()).toBe(1);
    release();
    await edited;
    await page.unroute('**/api/v1/cost/edit');
    await page.waitForFunction(() => document.querySelector('[data-test="over-budget"]') === null);
    await page.locator('[data-test="cost-items"]').getByRole('button', { name: 'Delete' }).click();
    const deleted = page.waitForResponse((r) => r.url().includes('/cost/delete') && r.status() === 200);
    await page.locator('[data-test="confirm-ok"]').click();
    await deleted;
    await page.locator('[data-test="cost-items"]').getByText('No Rows To Show').first().waitFor();
    await page.waitForLoadState('networkidle');
    page.off('request', countReads);
    expect(planFileReads).toBe(0);
  }, 60_000);
});
