import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GoogleStandIn, startGoogleStandIn } from '../api/src/testing/googleStandIn';
import { planForm } from '../api/src/testing/harness';
import { CHROMIUM, GOOGLE_CLIENT_ID, newPage, type Stack, screenshot, startStack } from './browser';
import { cellText, signIn } from './screensHelpers';

/**
 * The Google Sheets round trip in the browser, against the local server that speaks Google's OAuth, Sheets v4 and
 * Drive v3 and serves the consent page and the spreadsheet's page: the owner connects from the monthly P&L (the
 * consent page sends the browser back to /oauth/google-drive, which completes the connection), creates the
 * spreadsheet, which holds formulas; an actual is typed into its actual-inputs sheet on the spreadsheet's page;
 * Import brings it back, and the monthly grid shows that month as ACT with the value.
 */
let google: GoogleStandIn;
let stack: Stack;
let context: BrowserContext;
let page: Page;
let planId: number;
const errors: string[] = [];
const hasBrowser = existsSync(CHROMIUM);

beforeAll(async () => {
  if (!hasBrowser) return;
  google = await startGoogleStandIn(GOOGLE_CLIENT_ID);
  stack = await startStack({
    apiEnv: () => ({
      GOOGLE_CLIENT_SECRET: google.clientSecret,
      GOOGLE_API_BASE: google.base,
      GOOGLE_OAUTH_BASE: google.base,
    }),
  });
  const owner = await stack.api.user('sheets-owner@example.com', 'team');
  const created = await stack.api.call('POST', '/business-plan/create', {
    token: owner.token,
    form: planForm({ business_plan_name: 'Sheets plan', start_year: '2026', start_month: '4' }),
  });
  planId = created.body.data.business_plan_id;
  ({ context, page } = await newPage(stack, { locale: 'en-US', width: 1440, height: 900 }));
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, owner.token);
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
  await google?.close();
});

const openMonthly = async () => {
  await page.goto(`/business-plans/${planId}/monthly_pl`);
  await page.locator('section[data-screen="monthly_pl"]').waitFor();
};
const modal = () => page.locator('[data-test="spreadsheet-modal"]');
const result = () => modal().locator('[data-test="spreadsheet-result"]');

describe.skipIf(!hasBrowser)('Google Sheets round trip in headless Chromium', () => {
  it('connects through the consent page and creates the spreadsheet with formulas', async () => {
    await openMonthly();
    await page.locator('[data-test="spreadsheet-open"]').click();
    await modal().locator('[data-test="spreadsheet-signin"]').waitFor();
    await screenshot(page, 'sheets-not-connected');
    await modal().locator('[data-test="spreadsheet-signin"]').click();
    // Google's consent page (the stand-in's), then back to the app's callback page and the monthly P&L.
    await page.waitForURL((url) => url.href.startsWith(`${google.base}/o/oauth2/v2/auth`));
    expect(await page.locator('#account').textContent()).toBe('owner@example.com');
    await page.locator('#allow').click();
    await page.waitForURL((url) => url.pathname === `/business-plans/${planId}/monthly_pl`);
    await expect.poll(() => result().textContent()).toBe('The Google account is connected.');
    await expect
      .poll(() => modal().locator('[data-test="spreadsheet-account"]').textContent())
      .toContain('owner@example.com');
    // The result message goes after 3 seconds.
    await result().waitFor({ state: 'detached', timeout: 6000 });

    await modal().locator('[data-test="spreadsheet-create"]').click();
    await modal().locator('[data-test="spreadsheet-name"]').waitFor();
    expect(await modal().locator('[data-test="spreadsheet-name"]').textContent()).toBe('Sheets plan');
    expect(await result().textContent()).toBe('The spreadsheet was created.');
    expect(await modal().locator('[data-test="spreadsheet-modified"]').textContent()).toMatch(/^Last modified /);
    await screenshot(page, 'sheets-created');

    const url = (await modal().locator('[data-test="spreadsheet-link"]').getAttribute('href')) ?? '';
    const id = url.match(/\/spreadsheets\/d\/([^/]+)\//)?.[1] ?? '';
    const sheet = google.spreadsheet(id);
    expect(sheet?.sheets.map((s) => s.title)).toContain('C1 Actuals');
    const formulas = sheet?.sheets.flatMap((s) => [...s.cells.values()].filter((c) => c.formula)) ?? [];
    expect(formulas.length).toBeGreaterThan(1000);

    // The spreadsheet's page shows the formulas as typed.
    const sheetPage = await context.newPage();
    await sheetPage.goto(url);
    const shown = await sheetPage
      .locator('input[data-cell]')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    expect(shown.some((value) => value.startsWith('='))).toBe(true);
    await sheetPage.close();
  }, 120_000);

  it('imports an actual typed into the spreadsheet: the month shows ACT with the value', async () => {
    const url = (await modal().locator('[data-test="spreadsheet-link"]').getAttribute('href')) ?? '';
    // May 2026 is plan month 2 (column D of the actual-inputs sheet); order is row 5 of a SaaS plan.
    const sheetPage = await context.newPage();
    await sheetPage.goto(`${url}?sheet=${encodeURIComponent('C1 Actuals')}`);
    expect(await sheetPage.locator('input[data-cell="D1"]').inputValue()).toBe('2026/05');
    expect(await sheetPage.locator('input[data-cell="B5"]').inputValue()).toBe('order');
    await sheetPage.locator('input[data-cell="D5"]').fill('18');
    await sheetPage.locator('#save').click();
    await sheetPage.waitForLoadState();
    expect(await sheetPage.locator('input[data-cell="D5"]').inputValue()).toBe('18');
    await sheetPage.close();

    const imported = page.waitForResponse((r) => r.url().includes('/spreadsheet/import') && r.status() === 200);
    await modal().locator('[data-test="spreadsheet-import"]').click();
    await imported;
    await expect.poll(() => result().textContent()).toBe('Import completed: 1 actuals changed.');
    await screenshot(page, 'sheets-imported');
    await modal().locator('.modal-close').click();

    await page.getByRole('tab', { name: 'Enter actuals' }).click();
    await page.locator('[data-test="control-M2"] .ws-status.act').waitFor();
    expect(await cellText(page, 'monthly-grid', 'order', 'M2')).toBe('18');
    await screenshot(page, 'sheets-monthly-act');
    expect(errors).toEqual([]);
  }, 120_000);
});
