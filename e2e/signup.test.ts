/**
 * Sign-up through the e-mailed link, as a person does it: the e-mail step, "create an account", "check your
 * mailbox", the link from the outbox, and the page that completes the sign-up and signs in. The pages pass axe-core's
 * WCAG A and AA rules.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowSignup } from '../api/src/services/accounts/users';
import { accessibilityViolations } from './axe';
import { CHROMIUM, mailedLinkFor, newPage, type Stack, screenshot, startStack } from './browser';

let stack: Stack;
const hasBrowser = existsSync(CHROMIUM);

beforeAll(async () => {
  if (hasBrowser) stack = await startStack();
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

/** The newest link to `path` mailed to `email`, waiting up to five seconds for the message. */
async function mailedLink(page: Page, email: string, path: string): Promise<string> {
  for (let i = 0; i < 50; i += 1) {
    const link = mailedLinkFor(stack.outboxDir, email, path);
    if (link) return link;
    await page.waitForTimeout(100);
  }
  throw new Error(`no ${path} link mailed to ${email}`);
}

async function askToSignUp(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.locator('[data-state="signin"]').waitFor();
  await page.locator('[data-test="create-account"]').click();
  await page.locator('[data-state="signup"]').waitFor();
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Password (confirmation)').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.locator('[data-test="check-mailbox"]').waitFor();
}

describe.skipIf(!hasBrowser)('sign-up in headless Chromium', () => {
  it('signs up through the link mailed to the address, which completes the sign-up and signs in', async () => {
    await allowSignup(stack.api.db, 'mailbox@example.com');
    const { context, page } = await newPage(stack, { locale: 'en-US' });
    await page.goto('/login');
    expect(await accessibilityViolations(page)).toEqual([]);
    await askToSignUp(page, 'mailbox@example.com', 'Mailbox#2026');
    expect(await page.locator('[data-test="check-mailbox"]').textContent()).toContain(
      'we sent a message to mailbox@example.com',
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'signup-check-mailbox-1280');
    // No account until the link is opened.
    expect(await stack.api.db('users').where({ email: 'mailbox@example.com' })).toEqual([]);

    const link = await mailedLink(page, 'mailbox@example.com', '/signup/confirm');
    await page.goto(link);
    await page.waitForURL('**/create');
    expect(await stack.api.db('users').where({ email: 'mailbox@example.com' })).toHaveLength(1);
    expect(await page.evaluate(() => Object.keys(window.localStorage))).toContain('topline.app_token');

    // The link works once: opened again, it says so and leads back to Login.
    const again = await newPage(stack, { locale: 'en-US' });
    await again.page.goto(link);
    await again.page.locator('[data-test="signup-link-invalid"]').waitFor();
    expect(await accessibilityViolations(again.page)).toEqual([]);
    await again.context.close();
    await context.close();
  }, 120_000);

  it('tells an address with an account and one without a demo the same on the page, and each its own by mail', async () => {
    await stack.api.user('already@example.com');
    const { context, page } = await newPage(stack, { locale: 'ja-JP' });
    await page.goto('/login');
    await page.getByLabel('メールアドレス').fill('already@example.com');
    await page.getByRole('button', { name: '次へ' }).click();
    await page.locator('[data-state="signin"]').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await context.close();

    const english = await newPage(stack, { locale: 'en-US' });
    await askToSignUp(english.page, 'already@example.com', 'Another#2026');
    const shownForAccount = await english.page.locator('[data-test="check-mailbox"]').textContent();
    await askToSignUp(english.page, 'nodemo@example.com', 'Another#2026');
    const shownForStranger = await english.page.locator('[data-test="check-mailbox"]').textContent();
    expect(shownForAccount?.replace('already@example.com', 'X')).toBe(
      shownForStranger?.replace('nodemo@example.com', 'X'),
    );
    const newest = (email: string) => {
      const file = readdirSync(stack.outboxDir)
        .filter((name) => name.includes(email))
        .sort()
        .at(-1);
      return file ? readFileSync(join(stack.outboxDir, file), 'utf8') : '';
    };
    expect(newest('already@example.com')).toContain('already has one');
    expect(newest('nodemo@example.com')).toContain('Accounts open after a live demo: ask the company');
    expect(mailedLinkFor(stack.outboxDir, 'nodemo@example.com', '/signup/confirm')).toBeNull();
    await english.context.close();
  }, 120_000);
});
