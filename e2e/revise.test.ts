import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './axe';
import { newPage, type Stack, startStack } from './browser';
import { signIn } from './screensHelpers';

/**
 * "Revise budget" says what it will do: the monthly P&L's revise panel previews each pattern (year-end MRR and ARR,
 * the remaining months' revenue and its change), explains each in a sentence, asks for confirmation, and the revision
 * saved is the one previewed. Figures are the actuals-revisions fixture's, worked out by hand in
 * engine/src/revise.test.ts: six ACT months ending at MRR 1,000,000 against a plan of 1,500,000. The same plan's two
 * cases show their cash and runway together on the dashboard.
 */
let stack: Stack;
let context: BrowserContext;
let page: Page;
let planId: number;
let token: string;
const errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  token = (await stack.api.user('revise-owner@example.com', 'team')).token;
  const plan = JSON.parse(readFileSync(new URL('../fixtures/plans/actuals-revisions.json', import.meta.url), 'utf8'));
  const imported = await stack.api.call('POST', '/business-plan/import', { token, body: { plan } });
  expect(imported.status).toBe(201);
  planId = imported.body.data.business_plan_id;
  ({ context, page } = await newPage(stack, { locale: 'en-US', width: 1440, height: 900 }));
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, token);
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

/** The texts of a preview row's figures: year-end MRR, year-end ARR, remaining revenue, change. */
const previewRow = (pattern: string) =>
  page.locator(`[data-test="revise-preview"] tr[data-pattern="${pattern}"] td`).allTextContents();

describe('the revise preview in the browser', () => {
  it('previews each pattern, confirms, and saves the revision previewed', async () => {
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await page.getByRole('tab', { name: 'Revise budget' }).click();
    await page.locator('[data-test="revise-preview"]').waitFor();

    // The first case is revised upward now: its forecast keeps the ARR goal (MRR 3,000,000, 13,000,000 over M7..M12).
    expect((await previewRow('current')).slice(0, 3)).toEqual(['3,000,000', '36,000,000', '13,000,000']);
    expect(await previewRow('upward')).toEqual(['3,000,000', '36,000,000', '13,000,000', '0']);
    // Downward scales the plan by 1,000,000 / 1,500,000: MRR 2,000,000, ARR 24,000,000, 9,500,000 (-3,500,000).
    expect(await previewRow('downward')).toEqual(['2,000,000', '24,000,000', '9,500,000', '-3,500,000']);
    expect(await page.locator('[data-test="revise-explain-upward"]').textContent()).toContain(
      "keeps the year's ARR goal",
    );
    expect(await page.locator('[data-test="revise-explain-downward"]').textContent()).toContain('latest actual MRR');
    expect(await accessibilityViolations(page, ['[data-test="revise"]'])).toEqual([]);

    await page.getByRole('radio', { name: /Downward/ }).check();
    await page.locator('[data-test="revise-submit"]').click();
    const dialog = page.locator('[data-test="confirm"]');
    expect(await dialog.textContent()).toContain('year-end ARR 24,000,000');
    // Cancelling saves nothing.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('[data-test="revise-submit"]').click();
    const saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/adjust/edit') && r.status() === 200);
    await page.locator('[data-test="confirm-ok"]').click();
    await saved;

    // The forecast as it stands is now the downward preview, here and in the actual view's numbers.
    await expect.poll(() => previewRow('current')).toEqual(['2,000,000', '24,000,000', '9,500,000', '']);
    const caseId = Number((await stack.api.db('cases').where({ plan_id: planId }).orderBy('id').first()).id);
    const actuals = await stack.api.call('GET', '/actuals/retrieve', {
      token,
      query: { business_plan_id: planId, case_id: caseId },
    });
    const m12 = actuals.body.data.years[0].columns.find((c: { t: number | null }) => c.t === 12);
    expect(m12.values.mrr).toBeCloseTo(2_000_000, 6);
    expect(errors).toEqual([]);
  }, 120_000);

  it("shows the cases' cash and runway together on the dashboard", async () => {
    await page.goto(`/business-plans/${planId}`);
    await page.locator('section[data-screen="dashboard"]').waitFor();
    await page.locator('[data-test="dashboard-compare"]').check();
    await page.locator('[data-test="cases-cash"]').waitFor();
    const compared = await stack.api.call('GET', '/pl/compare', { token, query: { business_plan_id: planId } });
    const expected = compared.body.data.cases.map(
      (c: { case_name: string; forecast_monthes: number | null }) =>
        `${c.case_name} ${c.forecast_monthes === null ? 'No cash-out within the plan' : `${c.forecast_monthes} months`}`,
    );
    await expect.poll(() => page.locator('[data-test="case-runway"]').allTextContents()).toEqual(expected);
    expect(expected).toHaveLength(2);
    await expect
      .poll(() => page.locator('[data-test="cases-cash-chart"] .gtitle').textContent())
      .toBe('Ending cash by case (millions)');
    expect(await accessibilityViolations(page, ['[data-test="cases-cash"]'])).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
