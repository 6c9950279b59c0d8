/**
 * The plan's setting screen in Chromium: a member invited with can_view sees the screens without any way to edit
 * them; the owner renames a plan (the name's limit held at the field), ignores an icon that is too large or not an
 * image, changes the theme and deletes a plan, landing on another plan they own; the form asks before unsaved edits
 * are left; the profile form shows a choice never made as not set.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm } from '../api/src/testing/harness';
import { newPage, type Stack, screenshot, startStack } from './browser';
import { createPlan, openScreen, ownerWithPlan, signIn } from './screensHelpers';

let stack: Stack;
let owner: { token: string };
let planId: number;
let context: BrowserContext;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  ({ owner, planId, context, page, errors } = await ownerWithPlan(stack, {
    email: 'setting-owner@example.com',
    planName: 'Setting plan',
  }));
}, 240_000);

afterAll(async () => {
  expect(errors).toEqual([]);
  await context?.close();
  await stack?.close();
});

const open = (screen: string) => openScreen(page, planId, screen);

describe('the plan setting screen in headless Chromium', () => {
  it('invites a member with can_view who then cannot edit', async () => {
    await open('setting');
    await page.locator('[data-test="member-add"]').click();
    const form = page.locator('[data-test="member-form"]');
    await form.locator('input[name="email"]').fill('not-an-email');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.locator('.field-error').waitFor();
    await form.locator('input[name="email"]').fill('viewer@example.com');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-test="member-viewer@example.com"]').waitFor();
    await screenshot(page, 'screen-setting-members');

    const viewer = await stack.api.user('viewer@example.com', 'free');
    const other = await newPage(stack, { locale: 'ja-JP', width: 1440, height: 900 });
    await signIn(other.page, viewer.token);
    await other.page.goto(`/business-plans/${planId}/kpi`);
    await other.page.locator('[data-test="view-only"]').waitFor();
    const churn = other.page.locator('[data-test="kpi-table"] .ag-row[row-id="churn_rate"] .ag-cell[col-id="c0"]');
    await churn.click();
    expect(await churn.locator('input').count()).toBe(0);
    await screenshot(other.page, 'screen-kpi-viewer-ja');
    await other.page.goto(`/business-plans/${planId}/pl`);
    await other.page.locator('[data-test="pl-table"]').waitFor();
    expect(await other.page.locator('[data-test="case-add"]').count()).toBe(0);
    expect(await other.page.locator('[data-test="pl-table"] .ws-editable').count()).toBe(0);
    await other.page.goto(`/business-plans/${planId}/monthly_pl`);
    await other.page.locator('[data-test="monthly-grid"]').waitFor();
    await other.page.getByRole('tab', { name: '実績入力' }).click();
    expect(await other.page.locator('[data-test^="edit-M"]').count()).toBe(0);
    expect(await other.page.locator('[data-test="revise-submit"]').count()).toBe(0);
    await other.context.close();
  }, 90_000);

  it('edits the plan, ignores an over-large icon, and after deleting a plan opens another owned one', async () => {
    const second = await stack.api.call('POST', '/business-plan/create', {
      token: owner.token,
      form: planForm({ business_plan_name: 'Second plan' }),
    });
    const secondId = second.body.data.business_plan_id;
    await page.goto(`/business-plans/${secondId}/setting`);
    await page.locator('section[data-screen="setting"]').waitFor();
    await page.locator('[data-test="icon-input"]').setInputFiles({
      name: 'big.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(2_000_001),
    });
    expect(await page.locator('[data-test="icon-preview"]').count()).toBe(0);
    await page.locator('[data-test="icon-input"]').setInputFiles({
      name: 'icon.gif',
      mimeType: 'image/gif',
      buffer: Buffer.alloc(10),
    });
    expect(await page.locator('[data-test="icon-preview"]').count()).toBe(0);
    const name = page.locator('input[name="business_plan_name"]');
    await name.fill('x'.repeat(60));
    expect((await name.inputValue()).length).toBe(50);
    await name.fill('Second plan renamed');
    await page.locator('[data-test="plan-form"]').getByRole('button', { name: 'Save' }).click();
    await page.locator('.notice-success').first().waitFor();
    const renamed = await stack.api.call('GET', '/user/me', { token: owner.token });
    expect(renamed.body.data.business_plans.map((p: { business_plan_name: string }) => p.business_plan_name)).toContain(
      'Second plan renamed',
    );
    await page.locator('[data-test="theme"] input[value="gray"]').click();
    await page.waitForFunction(() => document.querySelector('.shell.theme-gray') !== null);
    await screenshot(page, 'screen-setting-gray');
    await page.locator('[data-test="delete-plan"] button').click();
    await page.locator('[data-test="confirm-ok"]').click();
    await page.waitForURL(new RegExp(`/business-plans/${planId}/pl$`));
  }, 60_000);

  it('asks before leaving the plan Setting form with unsaved edits, in the app and when the tab closes', async () => {
    const user = await stack.api.user('setting-leave@example.com', 'team');
    const planId = await createPlan(stack, user.token, { business_plan_name: 'Kept plan' });
    const { context, page } = await newPage(stack, { locale: 'en-US' });
    await signIn(page, user.token);
    await page.goto(`/business-plans/${planId}/setting`);
    const name = page.getByLabel('Business plan name');
    await name.waitFor();
    // Unchanged, the form lets the user go.
    await page.locator('.menu [data-screen="kpi"]').click();
    await page.waitForURL(`**/business-plans/${planId}/kpi`);
    await page.locator('.menu [data-screen="setting"]').click();
    await name.fill('Renamed plan');
    await page.locator('.menu [data-screen="pl"]').click();
    const confirm = page.locator('[data-test="confirm"]');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('You have unsaved changes. Discard them?');
    await screenshot(page, 'setting-unsaved-1280');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(new URL(page.url()).pathname).toBe(`/business-plans/${planId}/setting`);
    expect(await name.inputValue()).toBe('Renamed plan');
    // Closing the tab asks the browser's question.
    // The question is answered (leave), so no dialog is left open when the context closes.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.accept();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');

    const again = await context.newPage();
    await again.goto(`/business-plans/${planId}/setting`);
    await again.getByLabel('Business plan name').fill('Renamed plan');
    await again.locator('.menu [data-screen="pl"]').click();
    await again.locator('[data-test="confirm-ok"]').click();
    await again.waitForURL(`**/business-plans/${planId}/pl`);
    const me = await stack.api.call('GET', '/user/me', { token: user.token });
    expect(me.body.data.business_plans[0].business_plan_name).toBe('Kept plan');
    // Saved edits leave without a question.
    await again.goto(`/business-plans/${planId}/setting`);
    await again.getByLabel('Business plan name').fill('Saved plan');
    await again.locator('[data-test="plan-form"]').getByRole('button', { name: 'Save' }).click();
    await again.getByText('The business plan information was updated.').waitFor();
    await again.locator('.menu [data-screen="kpi"]').click();
    await again.waitForURL(`**/business-plans/${planId}/kpi`);
    expect(await again.locator('[data-test="confirm"]').count()).toBe(0);
    await context.close();
  }, 60_000);

  it('shows a profile choice never made as not set, so the select shows what a save sends', async () => {
    const user = await stack.api.user('unset-stage@example.com', 'team');
    const planId = await createPlan(stack, user.token, { business_plan_name: 'Profile plan' });
    await stack.api.db('users').where({ id: user.user.id }).update({ stage: '', position: '顧問' });
    const { context, page } = await newPage(stack, { locale: 'en-US' });
    await signIn(page, user.token);
    await page.goto(`/business-plans/${planId}/pl`);
    await page.getByRole('button', { name: 'Settings' }).click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('tab', { name: 'Profile' }).click();
    await modal.getByRole('button', { name: 'Edit' }).click();
    const stage = modal.locator('select[name="stage"]');
    expect(await stage.inputValue()).toBe('');
    expect(await stage.locator('option:checked').textContent()).toBe('Not set');
    expect(await modal.locator('select[name="position"] option:checked').textContent()).toBe('Adviser');
    await stage.selectOption('angel/seed');
    await modal.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your profile has been updated.').waitFor();
    const me = await stack.api.call('GET', '/user/me', { token: user.token });
    expect(me.body.data.user.company).toMatchObject({ position: '顧問', stage: 'angel/seed' });
    await context.close();
  }, 60_000);
});
