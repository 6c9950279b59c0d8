import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm } from '../../../api/src/testing/harness';
import { formatNumber, formatPercent } from '../working/format';
import { newPage, type Stack, screenshot, startStack } from './browser';
import { cellText, engineOf, enterCell, signIn, waitForCell } from './screensHelpers';

let stack: Stack;
let owner: { token: string };
let planId: number;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  owner = await stack.api.user('screens-owner@example.com', 'team');
  const created = await stack.api.call('POST', '/business-plan/create', {
    token: owner.token,
    form: planForm({ business_plan_name: 'Screens plan', start_year: '2026', start_month: '4' }),
  });
  planId = created.body.data.business_plan_id;
  ({ context, page } = await newPage(stack, { locale: 'en-US', width: 1440, height: 900 }));
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, owner.token);
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

const open = async (screen: string) => {
  await page.goto(`/business-plans/${planId}/${screen}`);
  await page.locator(`section[data-screen="${screen === '' ? 'dashboard' : screen}"]`).waitFor();
};

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
});
