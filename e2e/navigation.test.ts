/**
 * Where the app takes a user, and what it asks first: invitation links, the demo-required answer, a session that ends
 * mid-way, deleting a plan, the wizard's defaults and typed amounts, the cost item form's term, and the self-serve
 * KPI's customer count. The plan Setting form's unsaved edits are in `planSetting.test.ts`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../api/src/testing/harness';
import { TOKEN_KEY } from '../web/src/api/client';
import { formatNumber } from '../web/src/format/numbers';
import { CHROMIUM, mailedLinkFor, newPage, type Stack, screenshot, startStack, withGoogleStandIn } from './browser';
import { LINK_ENV } from './linkSettings';
import { cellText, createPlan, engineOf, signIn, waitForCell } from './screensHelpers';

let stack: Stack;
const hasBrowser = existsSync(CHROMIUM);

beforeAll(async () => {
  if (hasBrowser) stack = await startStack({ apiEnv: () => ({ ...LINK_ENV }) });
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

/** The invitation link of the newest message to `email` in the outbox folder, waiting up to five seconds for it. */
async function invitationLink(page: Page, email: string): Promise<string> {
  for (let i = 0; i < 50; i += 1) {
    const files = readdirSync(stack.outboxDir)
      .filter((name) => name.includes(email))
      .sort();
    const newest = files.at(-1);
    const link = newest
      ? readFileSync(join(stack.outboxDir, newest), 'utf8').match(/https?:\/\/\S*\/invitation\?key=\S*/)?.[0]
      : undefined;
    if (link) {
      const url = new URL(link);
      return `${url.pathname}${url.search}`;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no invitation mail to ${email}`);
}

async function memberStatus(planId: number, email: string): Promise<string | undefined> {
  const row = await stack.api.db('plan_members').where({ plan_id: planId, email }).first();
  return row?.status;
}

describe.skipIf(!hasBrowser)('navigation in headless Chromium', () => {
  it('lets an invited address sign up from the invitation mail by e-mail or Google and opens the plan', async () => {
    const owner = await stack.api.user('invite-owner@example.com', 'team');
    const planId = await createPlan(stack, owner.token, { business_plan_name: 'Invited plan' });
    for (const email of ['cfo@startup.example', 'adviser@startup.example']) {
      const invited = await stack.api.call('POST', '/authority/add', {
        token: owner.token,
        body: { business_plan_id: planId, email, pl: 'can_view', kpi: 'can_view' },
      });
      expect(invited.status, JSON.stringify(invited.body)).toBeLessThan(300);
    }

    // By e-mail: the link (with its secret) fills in the address, which may sign up without the demo allow-list.
    const { context, page } = await newPage(stack, { locale: 'en-US' });
    const link = await invitationLink(page, 'cfo@startup.example');
    expect(link).toMatch(/^\/invitation\?key=[A-Za-z0-9_-]{43}&email=cfo%40startup\.example$/);
    await page.goto(link);
    await page.waitForURL('**/login?invited=cfo%40startup.example');
    await page.locator('[data-test="invited"]').waitFor();
    expect(await page.locator('[data-test="invited"]').textContent()).toContain('cfo@startup.example');
    expect(await page.getByLabel('E-mail').inputValue()).toBe('cfo@startup.example');
    await screenshot(page, 'login-invited-1280');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.locator('[data-test="create-account"]').click();
    await page.locator('[data-state="signup"]').waitFor();
    expect(await memberStatus(planId, 'cfo@startup.example')).toBe('yet');
    await page.getByLabel('New password').fill('Member#2026');
    await page.getByLabel('Password (confirmation)').fill('Member#2026');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.locator('[data-test="check-mailbox"]').waitFor();
    // The confirmation link mailed to the invited address makes the account and joins the plan.
    await expect.poll(() => mailedLinkFor(stack.outboxDir, 'cfo@startup.example', '/signup/confirm')).toBeTruthy();
    await page.goto(mailedLinkFor(stack.outboxDir, 'cfo@startup.example', '/signup/confirm') ?? '');
    await page.waitForURL(`**/business-plans/${planId}/pl`);
    await page.locator('.shell-title', { hasText: /^PL$/ }).waitFor();
    expect(await memberStatus(planId, 'cfo@startup.example')).toBe('received');
    await context.close();

    // With Google: the same link, then the Google button.
    const google = await newPage(stack, { locale: 'ja-JP' });
    await withGoogleStandIn(google.context);
    await google.page.goto(await invitationLink(google.page, 'adviser@startup.example'));
    await google.page.waitForURL('**/login?invited=*');
    await google.page.locator('[data-test="invited"]').waitFor();
    expect(await google.page.locator('[data-test="invited"]').textContent()).toContain('事業計画に招待されています');
    await google.page.evaluate(() => window.sessionStorage.setItem('google-email', 'adviser@startup.example'));
    const button = google.page.getByRole('button', { name: 'Googleでログイン' });
    await button.and(google.page.locator(':enabled')).waitFor();
    await button.click();
    await google.page.waitForURL(`**/business-plans/${planId}/pl`);
    expect(await memberStatus(planId, 'adviser@startup.example')).toBe('received');
    await google.context.close();
  }, 120_000);

  it('links the demo-required answer to the booking page and the contact link, in English and Japanese', async () => {
    for (const [locale, text, book, contact] of [
      ['en-US', 'You need to see a live demo first.', 'Book a live demo', 'Contact'],
      ['ja-JP', 'ライブデモを受けていただく必要があります', 'ライブデモを予約する', 'お問い合わせ'],
    ] as const) {
      // Google's answer for an address without a demo (the e-mail step answers every address alike).
      const { context, page } = await newPage(stack, { locale });
      await withGoogleStandIn(context);
      await page.goto('/login');
      await page.evaluate(
        (address) => window.sessionStorage.setItem('google-email', address),
        `stranger-${locale}@example.com`,
      );
      const google = page.getByRole('button', {
        name: locale === 'en-US' ? 'Sign in with Google' : 'Googleでログイン',
      });
      await google.and(page.locator(':enabled')).waitFor();
      await google.click();
      const box = page.locator('[data-test="demo-required-box"]');
      await box.waitFor();
      expect(await box.locator('[data-test="demo-required"]').textContent()).toContain(text);
      const booking = box.getByRole('link', { name: book });
      expect(await booking.getAttribute('href')).toBe(LINK_ENV.DEMO_BOOKING_URL);
      expect(await box.getByRole('link', { name: contact }).getAttribute('href')).toBe(LINK_ENV.CONTACT_URL);
      await screenshot(page, `login-demo-required-links-${locale}`);
      await context.close();
    }
    // Google's answer for an address without a demo shows the same links.
    const { context, page } = await newPage(stack, { locale: 'en-US' });
    await withGoogleStandIn(context);
    await page.goto('/login');
    await page.evaluate(() => window.sessionStorage.setItem('google-email', 'stranger-google-links@example.com'));
    const button = page.getByRole('button', { name: 'Sign in with Google' });
    await button.and(page.locator(':enabled')).waitFor();
    await button.click();
    const box = page.locator('[data-test="demo-required-box"]');
    await box.waitFor();
    expect(await box.getByRole('link', { name: 'Book a live demo' }).getAttribute('href')).toBe(
      LINK_ENV.DEMO_BOOKING_URL,
    );
    await context.close();
  }, 60_000);

  it('sends a user whose session ends mid-way to Login, and back to the same screen after signing in', async () => {
    const user = await stack.api.user('expiring@example.com', 'team');
    const planId = await createPlan(stack, user.token, { business_plan_name: 'Expiring plan' });
    const { context, page } = await newPage(stack, { locale: 'en-US' });
    await signInOnce(page, user.token);
    await page.goto(`/business-plans/${planId}/pl`);
    await page.locator('.shell-title', { hasText: /^PL$/ }).waitFor();
    // The screen has read what it shows (so the next call is the click's).
    await page.waitForLoadState('networkidle');
    // The session ends on the server (every token of the user is revoked) while the page is open.
    const ended = await stack.api.call('POST', '/user/signout', { token: user.token, body: {} });
    expect(ended.status).toBeLessThan(300);
    // The next screen's first call is refused. (On a slow machine a late call of the P&L may be refused first; the
    // user is then sent on from the P&L, and goes back there.)
    let back = `/business-plans/${planId}/kpi`;
    try {
      await page.locator('.menu [data-screen="kpi"]').click({ timeout: 5_000 });
    } catch (error) {
      if (new URL(page.url()).pathname !== '/login') throw error;
      back = `/business-plans/${planId}/pl`;
    }
    await page.waitForURL((url) => url.pathname === '/login');
    await page.locator('[data-test="session-ended"]').waitFor();
    expect(await page.evaluate((key) => window.localStorage.getItem(key), TOKEN_KEY)).toBeNull();
    await screenshot(page, 'login-session-ended-1280');
    await page.getByLabel('E-mail').fill('expiring@example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`**${back}`);
    await page.locator('.shell-title').waitFor();
    await context.close();
  }, 60_000);

  it('goes to the next owned plan after deleting a plan, and to Create after deleting the last', async () => {
    const user = await stack.api.user('deleter@example.com', 'basic');
    const first = await createPlan(stack, user.token, { business_plan_name: 'First plan' });
    const second = await createPlan(stack, user.token, { business_plan_name: 'Second plan' });
    const { context, page } = await newPage(stack, { locale: 'en-US' });
    await signIn(page, user.token);
    const remove = async (planId: number) => {
      await page.goto(`/business-plans/${planId}/setting`);
      await page.locator('[data-test="delete-plan"] button').click();
      await page.locator('[data-test="confirm-ok"]').click();
    };
    await remove(second);
    await page.waitForURL(`**/business-plans/${first}/pl`);
    await page.locator('.shell-title', { hasText: /^PL$/ }).waitFor();
    expect(await page.locator('.error-code').count()).toBe(0);
    await remove(first);
    await page.waitForURL('**/create');
    await page.locator('.wizard').waitFor();
    expect(await page.locator('.error-code').count()).toBe(0);
    const me = await stack.api.call('GET', '/user/me', { token: user.token });
    expect(me.body.data.business_plans).toEqual([]);
    await context.close();
  }, 60_000);

  it('runs the wizard with the interface currency, the current year, typed amounts and the profile choices shown', async () => {
    const user = await stack.api.user('wizard-en@example.com', 'team');
    const { context, page } = await newPage(stack, { locale: 'en-US' });
    await signIn(page, user.token);
    await page.goto('/create');
    await page.locator('.wizard[data-step="1"]').waitFor();
    expect(await page.getByRole('button', { name: 'Back to Business Plan List' }).count()).toBe(1);
    expect(await page.locator('select[name="stage"] option[value="angel/seed"]').count()).toBe(1);
    await page.getByLabel('Name', { exact: true }).fill('Ken Mori');
    await page.getByLabel('Company name').fill('Mori Cloud');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.locator('.wizard[data-step="2"]').waitFor();
    expect(await page.getByLabel('Currency').inputValue()).toBe('USD');
    expect(await page.locator('select[name="start_year"]').inputValue()).toBe(String(new Date().getFullYear()));
    expect(await page.locator('[data-test="arr-value"]').textContent()).toBe('$50,000');

    const arr = page.getByLabel('Target ARR (typed)');
    const arpa = page.getByLabel('Monthly ARPA (typed)');
    const create = page.getByRole('button', { name: 'Create plan' });
    await page.getByLabel('Business plan name').fill('Typed plan');
    // USD ARR: 50,000 to 1,000,000 in steps of 5,000.
    await arr.fill('62,500');
    expect(await page.locator('[data-test="arr-error"]').textContent()).toBe(
      'Target ARR (typed): enter a whole amount from $50,000 to $1,000,000 in steps of $5,000',
    );
    expect(await create.isDisabled()).toBe(true);
    expect(await page.locator('[data-test="arr-value"]').textContent()).toBe('$50,000');
    await arr.fill('ten');
    expect(await page.locator('[data-test="arr-error"]').count()).toBe(1);
    await arr.fill('2,000,000');
    expect(await page.locator('[data-test="arr-error"]').count()).toBe(1);
    await arr.fill('65,000');
    expect(await page.locator('[data-test="arr-error"]').count()).toBe(0);
    expect(await page.locator('[data-test="arr-value"]').textContent()).toBe('$65,000');
    expect(await page.locator('input[name="arr"]').inputValue()).toBe('65000');
    // USD ARPA: 5 to 5,000 in steps of 5; full-width digits are read as the number they mean.
    await arpa.fill('252');
    await page.locator('[data-test="arpa-error"]').waitFor();
    await arpa.fill('２５０');
    expect(await page.locator('[data-test="arpa-error"]').count()).toBe(0);
    expect(await page.locator('[data-test="arpa-value"]').textContent()).toBe('$250');
    await screenshot(page, 'wizard-typed-1280');
    await create.click();
    await page.waitForURL(/\/business-plans\/\d+\/pl$/);
    const planId = Number(new URL(page.url()).pathname.split('/')[2]);
    const file = await stack.api.call('GET', '/business-plan/file', {
      token: user.token,
      query: { business_plan_id: planId },
    });
    expect(file.body.data.plan).toMatchObject({
      currency: 'USD',
      arr: 65_000,
      arpa: 250,
      start_year: new Date().getFullYear(),
      start_month: 1,
    });
    const me = await stack.api.call('GET', '/user/me', { token: user.token });
    expect(me.body.data.user.company).toEqual({
      company_name: 'Mori Cloud',
      position: 'CEO',
      employees: '1-10',
      stage: 'pre-founding',
    });
    await context.close();

    // In Japanese the wizard starts in yen.
    const ja = await stack.api.user('wizard-ja@example.com', 'team');
    const japanese = await newPage(stack, { locale: 'ja-JP' });
    await signIn(japanese.page, ja.token);
    await japanese.page.goto('/create');
    await japanese.page.locator('.wizard[data-step="1"]').waitFor();
    await japanese.page.locator('input[name="name"]').fill('森 健');
    await japanese.page.locator('input[name="company_name"]').fill('森クラウド');
    await japanese.page.locator('.wizard .button-primary').click();
    await japanese.page.locator('.wizard[data-step="2"]').waitFor();
    expect(await japanese.page.locator('select[name="currency"]').inputValue()).toBe('JPY');
    expect(await japanese.page.locator('[data-test="arr-value"]').textContent()).toBe('¥5,000,000');
    await japanese.context.close();
  }, 90_000);

  it('labels the cost term boxes and shows the Input Error for a term that cannot be saved', async () => {
    const user = await stack.api.user('cost-term@example.com', 'team');
    const planId = await createPlan(stack, user.token, { business_plan_name: 'Cost plan' });
    const { context, page } = await newPage(stack, { locale: 'en-US' });
    await signIn(page, user.token);
    await page.goto(`/business-plans/${planId}/expenses`);
    await page.locator('[data-test="cost-add"]').click();
    const form = page.locator('[data-test="cost-item-form"]');
    await form.getByLabel('Item').fill('Servers');
    await form.getByLabel('Monthly price').fill('1000');
    for (const label of ['Start year', 'Start month', 'End year', 'End month'])
      expect(await form.getByText(label, { exact: true }).isVisible(), label).toBe(true);
    await form.getByLabel('Start year').fill('202');
    await form.getByLabel('End month').fill('');
    const save = form.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(false);
    let sent = false;
    page.on('request', (request) => {
      if (request.url().includes('/cost/create')) sent = true;
    });
    await save.click();
    const error = page.locator('[data-test="term-error"]');
    await error.waitFor();
    expect(await error.textContent()).toContain('Input Error');
    expect(await error.textContent()).toContain('Enter each year with four digits and each month from 1 to 12.');
    await screenshot(page, 'cost-term-error-1280');
    expect(sent).toBe(false);
    await error.getByRole('button').click();
    await form.getByLabel('Start year').fill('2026');
    await form.getByLabel('End month').fill('3');
    await form.getByLabel('End year').fill('2026');
    await form.getByLabel('Start month').fill('4');
    await save.click();
    await error.waitFor();
    expect(await error.textContent()).toContain('The end date cannot be earlier than the start date.');
    expect(sent).toBe(false);
    await context.close();
  }, 60_000);

  it('shows a self-serve plan its paying customers as the customer count', async () => {
    const user = await stack.api.user('selfserve@example.com', 'team');
    const planId = await createPlan(stack, user.token, {
      business_plan_name: 'Self-serve plan',
      template: 'selfserve',
      start_year: String(new Date().getFullYear()),
      start_month: '1',
      arr: '12000000',
      arpa: '1000',
    });
    const { context, page } = await newPage(stack, { locale: 'en-US', width: 1440, height: 900 });
    await signIn(page, user.token);
    await page.goto(`/business-plans/${planId}/kpi`);
    await page.locator('[data-test="kpi-views"]').getByRole('tab', { name: 'Monthly' }).click();
    const wb = await engineOf(stack, user.token, planId);
    // The plan starts this January, so the screen opens on Year 1, which ends at the 12,000,000 ARR target: MRR
    // 1,000,000 at 1,000 a customer is 1,000 paying customers; the month's new paid sign-ups are far fewer.
    // The customers grow evenly to it: 1,000 / 12 a month, so 250 at the end of month 3.
    const year = wb.kpi(0)[0];
    expect(year?.monthly[11]?.cumulative).toBeCloseTo(1000, 6);
    const month = year?.monthly[2];
    expect(month?.cumulative).toBeCloseTo(250, 6);
    await waitForCell(page, 'kpi-table', 'paid', 'c2', '250');
    expect(await cellText(page, 'kpi-table', 'billing', 'c2')).toBe(formatNumber(month?.order as number));
    expect(month?.order).toBeLessThan(100);
    const row = await page.locator('[data-test="kpi-table"] .ag-row[row-id="paid"]').allTextContents();
    expect(row.join(' ')).toContain('Paying customers');
    await screenshot(page, 'kpi-selfserve-monthly');
    await context.close();
  }, 60_000);
});

/** Puts the token in the page's storage once (a later sign-out on the server must not be undone by a reload). */
async function signInOnce(page: Page, token: string): Promise<void> {
  await page.goto('/');
  await page.evaluate(([key, value]) => window.localStorage.setItem(key ?? '', value ?? ''), [TOKEN_KEY, token]);
}
