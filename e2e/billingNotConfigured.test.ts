import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm } from '../api/src/testing/harness';
import { TOKEN_KEY } from '../web/src/api/client';
import { CHROMIUM, newPage, type Stack, screenshot, startStack } from './browser';

/**
 * The Plan tab of an API without STRIPE_SECRET_KEY (issue 14, point 2): it says billing is not configured and that
 * plans are changed through a representative, shows the comparison without any subscribe button, and the tier set
 * with the admin CLI governs.
 */
let stack: Stack;
const hasBrowser = existsSync(CHROMIUM);

beforeAll(async () => {
  if (!hasBrowser) return;
  stack = await startStack();
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

describe.skipIf(!hasBrowser)('billing not configured, in headless Chromium', () => {
  it('says so on the Plan tab, in Japanese and in English, with no subscribe button', async () => {
    const user = await stack.api.user('no-stripe@example.com', 'basic');
    const created = await stack.api.call('POST', '/business-plan/create', {
      token: user.token,
      form: planForm({ business_plan_name: 'Plan without billing' }),
    });
    expect(created.status).toBe(201);
    const path = `/business-plans/${created.body.data.business_plan_id}/pl?settings=plan`;
    const cases = [
      {
        locale: 'ja-JP',
        message: 'オンライン決済はご利用いただけません。プランの変更はお問い合わせください。',
        contact: 'プランの変更は担当者またはチャットでご連絡ください。',
        basic: '¥9,980',
      },
      {
        locale: 'en-US',
        message: 'Online billing is not available. Please contact us to change your plan.',
        contact: 'To change plan, contact your representative or write to us in the chat.',
        basic: '$98',
      },
    ] as const;
    for (const { locale, message, contact, basic } of cases) {
      const { context, page } = await newPage(stack, { locale });
      await page.addInitScript(
        ([key, token]) => window.localStorage.setItem(key ?? '', token ?? ''),
        [TOKEN_KEY, user.token],
      );
      await page.goto(path);
      const modal = page.locator('dialog.settings-modal');
      const notConfigured = modal.locator('[data-test="billing-unavailable"]');
      await notConfigured.waitFor();
      expect(await notConfigured.textContent(), locale).toBe(message);
      expect(await modal.getByText(contact).count(), locale).toBe(1);
      expect(await modal.locator('[data-test="billing-unreachable"]').count(), locale).toBe(0);
      // The comparison is shown, marking the tier set with the admin CLI, but nothing can be bought here.
      expect(await modal.locator('.price-card[data-plan="basic"] .amount').textContent(), locale).toBe(basic);
      expect(await modal.locator('.price-card[data-plan="basic"]').getAttribute('class'), locale).toContain('current');
      expect(await modal.locator('[data-test^="choose-"]').count(), locale).toBe(0);
      expect(await modal.locator('button.price-action').count(), locale).toBe(0);
      expect(await modal.locator('[data-test="cancel-subscription"]').count(), locale).toBe(0);
      await screenshot(page, `billing-not-configured-${locale}`);
      await context.close();
    }
  }, 120_000);
});
