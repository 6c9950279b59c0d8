import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm } from '../api/src/testing/harness';
import { type StripeStandIn, specPrices, startStripeStandIn } from '../api/src/testing/stripeServer';
import { TOKEN_KEY } from '../web/src/api/client';
import { CHROMIUM, newPage, type Stack, screenshot, startStack } from './browser';

/**
 * Billing in the browser, against the local server that speaks Stripe's protocol and stands in for Stripe's hosted
 * Checkout page: a trial user upgrades to Team from the Plan tab, pays on the Checkout page (which sends the signed
 * events to the API's webhook, as Stripe does, and comes back to the app), sees every screen open, the card and the
 * invoice; cancels after the confirmation and sees the scheduled messages with the date; restores.
 */
/** In yen, with the spec's dollars (in cents) in `currency_options`, as the Plan tab shows them. */
const PRICES = specPrices();

let stripe: StripeStandIn;
let stack: Stack;
const hasBrowser = existsSync(CHROMIUM);

beforeAll(async () => {
  if (!hasBrowser) return;
  stripe = await startStripeStandIn(PRICES);
  stack = await startStack({
    apiEnv: () => ({
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      STRIPE_PRICE_BASIC_MONTHLY: 'price_basic_month',
      STRIPE_PRICE_BASIC_YEARLY: 'price_basic_year',
      STRIPE_PRICE_TEAM_MONTHLY: 'price_team_month',
      STRIPE_PRICE_TEAM_YEARLY: 'price_team_year',
    }),
  });
  // Stripe's events go to the API's webhook endpoint.
  stripe.webhookUrl = `${stack.api.url}/api/v1/billing/webhook`;
}, 180_000);

afterAll(async () => {
  await stack?.close();
  await stripe?.close();
});

/** year/month/day in UTC (the browser runs in the machine's zone, UTC in the test environment). */
const ymd = (seconds: number) => {
  const date = new Date(seconds * 1000);
  return `${date.getUTCFullYear()}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')}`;
};

describe.skipIf(!hasBrowser)('billing through Stripe in headless Chromium', () => {
  it('upgrades a trial user to Team through Checkout, shows the invoice, cancels after confirming and restores', async () => {
    // A trial on its last day: too short to carry into Stripe's subscription, so Team is paid for at once.
    const trial = await stack.api.user('billing-trial@example.com', 'free', 1);
    const created = await stack.api.call('POST', '/business-plan/create', {
      token: trial.token,
      form: planForm({ business_plan_name: 'Billing plan' }),
    });
    expect(created.status).toBe(201);
    const planId = created.body.data.business_plan_id;
    const planPath = `/business-plans/${planId}`;
    const { context, page } = await newPage(stack, { locale: 'ja-JP' });
    await page.addInitScript(
      ([key, token]) => window.localStorage.setItem(key ?? '', token ?? ''),
      [TOKEN_KEY, trial.token],
    );

    // The trial opens the working screens; its banner leads to the Plan tab of the settings modal.
    await page.goto(`${planPath}/kpi`);
    const banner = page.locator('[data-test="trial-banner"]');
    await banner.waitFor();
    expect(await page.locator('[data-test="upgrade-placeholder"]').count()).toBe(0);
    expect(await page.locator('.plan-add').count()).toBe(0);
    await banner.getByRole('link', { name: 'プランを見る' }).click();
    await page.waitForURL(new RegExp(`${planPath}/kpi\\?settings=plan$`));
    const modal = page.locator('dialog.settings-modal');
    await modal.getByRole('tab', { name: 'プラン', exact: true, selected: true }).waitFor();

    // The comparison in yen, the annual side 15% off; then Team, monthly.
    const team = modal.locator('.price-card[data-plan="team"]');
    await team.locator('[data-test="choose-team"]').waitFor();
    expect(await team.locator('.amount').textContent()).toBe('¥14,980');
    expect(await modal.locator('.price-card[data-plan="basic"] .amount').textContent()).toBe('¥9,980');
    await modal.getByRole('button', { name: /年払い/ }).click();
    expect(await team.locator('.amount').textContent()).toBe('¥12,733');
    expect(await modal.locator('.price-card[data-plan="basic"] .amount').textContent()).toBe('¥8,483');
    expect(await modal.locator('.badge-off').textContent()).toBe('15% OFF');
    await modal.getByRole('button', { name: '月払い' }).click();
    expect(await modal.locator('[data-test="invoice-list"]').count()).toBe(0);
    await screenshot(page, 'billing-plan-tab-trial-ja');
    await team.locator('[data-test="choose-team"]').click();

    // Stripe's hosted Checkout page (the stand-in): Team monthly, 14,980 yen. Paying sends the events and comes back.
    await page.waitForURL(`${stripe.url}/c/pay/**`);
    expect(await page.locator('[data-test="checkout-price"]').textContent()).toBe('14980 JPY / month');
    const session = [...stripe.sessions.values()].at(-1);
    expect(session?.mode).toBe('subscription');
    expect(session?.line_items).toEqual([{ price: 'price_team_month', quantity: 1 }]);
    // The Japanese interface's yen, as the Plan tab showed them.
    expect(session?.currency).toBe('jpy');
    expect(session?.subscription_data.trial_end).toBeNull();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(new RegExp(`${planPath}/pl\\?settings=plan$`));
    await page.locator('.notice', { hasText: 'ご契約が始まりました' }).waitFor();

    const subscription = [...stripe.subscriptions.values()].at(-1);
    const item = subscription?.items.data[0];
    expect(subscription?.status).toBe('active');
    expect(item?.price.id).toBe('price_team_month');
    // The stand-in's month is 30 days.
    const periodEnd = item?.current_period_end ?? 0;
    expect(periodEnd - (item?.current_period_start ?? 0)).toBe(30 * 86_400);
    const renewal = ymd(periodEnd);

    // The Plan tab: Team is the plan paid for, the renewal date, the card, and the invoice of 14,980 yen today.
    await modal.getByRole('tab', { name: 'プラン', exact: true, selected: true }).waitFor();
    await team.locator('[data-test="subscribed"]').waitFor();
    expect(await team.getAttribute('class')).toContain('current');
    expect(await modal.locator('[data-test="billing-message"]').allTextContents()).toEqual([`次回更新日：${renewal}`]);
    expect(await modal.locator('[data-test="billing-card"]').textContent()).toBe(
      '末尾 4242 のカード（有効期限 12/2030）',
    );
    const invoices = modal.locator('[data-test="invoice-list"] li');
    expect(await invoices.count()).toBe(1);
    expect(await invoices.first().locator('.invoice-price').textContent()).toBe('¥14,980');
    expect(await invoices.first().locator('a').textContent()).toBe(ymd(Math.floor(Date.now() / 1000)));
    const firstInvoice = await invoices.first().locator('a').getAttribute('href');
    expect(firstInvoice).toMatch(new RegExp(`^${stripe.url}/invoices/in_`));
    // Basic is another plan now: changing to it asks first.
    expect(await modal.locator('[data-test="choose-basic"]').textContent()).toBe('Basic（月払い）に変更');
    await screenshot(page, 'billing-plan-tab-team-ja');

    // Team: no trial banner, every working screen open, and the plus button (Team owns up to 3 plans).
    await modal.locator('.modal-close').click();
    await page.waitForURL(new RegExp(`${planPath}/pl$`));
    expect(await page.locator('[data-test="trial-banner"]').count()).toBe(0);
    expect(await page.locator('.plan-add').count()).toBe(1);
    for (const [screen, path] of [
      ['dashboard', ''],
      ['monthly_pl', 'monthly_pl'],
      ['kpi', 'kpi'],
      ['revenue', 'revenue'],
      ['expenses', 'expenses'],
    ]) {
      await page.locator(`.menu [data-screen="${screen}"]`).click();
      await page.waitForURL(new RegExp(`${planPath}/?${path}$`));
      await page.locator('.content-loading').waitFor({ state: 'detached' });
      expect(await page.locator('[data-test="upgrade-placeholder"]').count(), screen).toBe(0);
      expect(await page.locator('[data-test="no-access"]').count(), screen).toBe(0);
    }
    const me = await stack.api.call('GET', '/user/me', { token: trial.token });
    expect(me.body.data.user.plan).toMatchObject({ plan: 'team', is_trial: false, owned_plan_limit: 3 });

    // Cancelling asks first, with the date the plan runs to; then the two scheduled messages with that date.
    await page.goto(`${planPath}/pl?settings=plan`);
    await modal.locator('[data-test="cancel-subscription"]').click();
    const confirm = modal.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain(`${renewal}まではご利用いただけ`);
    expect(subscription?.cancel_at_period_end).toBe(false);
    await confirm.locator('[data-test="confirm-cancel"]').click();
    await modal.locator('[data-test="restore"]').waitFor();
    expect(await modal.locator('[data-test="billing-message"]').allTextContents()).toEqual([
      'ご契約は解約予定です。',
      `${renewal}までご利用いただけます。`,
    ]);
    expect(subscription?.cancel_at_period_end).toBe(true);
    // The plan runs to the end of the period: still Team.
    const scheduled = await stack.api.call('GET', '/user/me', { token: trial.token });
    expect(scheduled.body.data.user.plan.plan).toBe('team');
    await screenshot(page, 'billing-plan-tab-scheduled-ja');

    // Restoring takes the cancellation back.
    await modal.locator('[data-test="restore"]').click();
    await modal.locator('[data-test="cancel-subscription"]').waitFor();
    expect(await modal.locator('[data-test="billing-message"]').allTextContents()).toEqual([`次回更新日：${renewal}`]);
    expect(subscription?.cancel_at_period_end).toBe(false);
    expect(subscription?.status).toBe('active');

    // Replacing the card: Stripe's page in setup mode; the new card is the subscription's from then on.
    await modal.getByRole('button', { name: 'カードを変更' }).click();
    await page.waitForURL(`${stripe.url}/c/pay/**`);
    expect([...stripe.sessions.values()].at(-1)?.mode).toBe('setup');
    await page.getByLabel('Card number').fill('5555 5555 5555 4444');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.waitForURL(new RegExp(`${planPath}/pl\\?settings=plan$`));
    await page.locator('.notice', { hasText: '新しいカードを登録しました。' }).waitFor();
    await modal.locator('[data-test="billing-card"]', { hasText: '末尾 4444' }).waitFor();

    // Three renewals later: the latest three invoices, then all four.
    for (let month = 0; month < 3; month += 1) stripe.payInvoice(subscription?.id ?? '');
    await page.reload();
    await modal.locator('[data-test="invoice-list"]').waitFor();
    const hrefs = () =>
      modal.locator('[data-test="invoice-list"] a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(await invoices.count()).toBe(3);
    expect(await hrefs()).not.toContain(firstInvoice);
    await modal.getByRole('button', { name: 'すべて表示' }).click();
    expect(await invoices.count()).toBe(4);
    // Newest first: the first payment is the last of all.
    expect((await hrefs()).at(-1)).toBe(firstInvoice);
    expect(await modal.locator('.invoice-price').allTextContents()).toEqual([
      '¥14,980',
      '¥14,980',
      '¥14,980',
      '¥14,980',
    ]);
    await context.close();
  }, 180_000);

  it('tells a Team user whose subscription ended what Free keeps: the plan over the limit is read-only', async () => {
    const user = await stack.api.user('billing-ended@example.com', 'free');
    const create = await stack.api.call('POST', '/billing/create', {
      token: user.token,
      body: { plan: 'team', interval: 'month' },
    });
    expect(create.status).toBe(200);
    const sessionId = new URL((create.body.data as { url: string }).url).pathname.split('/').pop() ?? '';
    await stripe.send(stripe.completeCheckout(sessionId));
    const ids: number[] = [];
    for (const name of ['First plan', 'Second plan']) {
      const created = await stack.api.call('POST', '/business-plan/create', {
        token: user.token,
        form: planForm({ business_plan_name: name }),
      });
      expect(created.status).toBe(201);
      ids.push(created.body.data.business_plan_id);
    }
    const subscription = [...stripe.subscriptions.values()].find(
      (s) => s.id === stripe.sessions.get(sessionId)?.subscription,
    );
    await stripe.send(stripe.endSubscription(subscription?.id ?? ''));

    const { context, page } = await newPage(stack, { locale: 'en-US' });
    await page.addInitScript(
      ([key, token]) => window.localStorage.setItem(key ?? '', token ?? ''),
      [TOKEN_KEY, user.token],
    );
    await page.goto(`/business-plans/${ids[0]}/pl`);
    const notice = page.locator('[data-test="tier-notice"]');
    await notice.waitFor();
    expect(await notice.locator('p').allTextContents()).toEqual([
      `Your subscription ended on ${ymd(Math.floor(Date.now() / 1000))}; the account is on Free now.`,
      'Business plans over the limit are read-only (nothing was deleted): 1. Upgrade, or delete one, to edit again.',
    ]);
    await screenshot(page, 'billing-tier-notice-en');
    await context.close();
  });

  it('prices the Plan tab in dollars in English and sends a second subscriber to Checkout for Basic yearly', async () => {
    const user = await stack.api.user('billing-en@example.com', 'free', 14);
    const created = await stack.api.call('POST', '/business-plan/create', {
      token: user.token,
      form: planForm({ business_plan_name: 'English plan' }),
    });
    expect(created.status).toBe(201);
    const { context, page } = await newPage(stack, { locale: 'en-US' });
    await page.addInitScript(
      ([key, token]) => window.localStorage.setItem(key ?? '', token ?? ''),
      [TOKEN_KEY, user.token],
    );
    await page.goto(`/business-plans/${created.body.data.business_plan_id}/pl?settings=plan`);
    const modal = page.locator('dialog.settings-modal');
    const basic = modal.locator('.price-card[data-plan="basic"]');
    await basic.locator('[data-test="choose-basic"]').waitFor();
    expect(await basic.locator('.amount').textContent()).toBe('$98');
    expect(await modal.locator('.price-card[data-plan="team"] .amount').textContent()).toBe('$149');
    await modal.getByRole('button', { name: /Annual/ }).click();
    expect(await basic.locator('.amount').textContent()).toBe('$84');
    expect(await modal.locator('.price-card[data-plan="team"] .amount').textContent()).toBe('$127');
    expect(await modal.locator('[data-test="invoice-list"]').count()).toBe(0);
    expect(await modal.getByText('No invoices yet.').count()).toBe(1);
    await basic.locator('[data-test="choose-basic"]').click();
    await page.waitForURL(`${stripe.url}/c/pay/**`);
    const session = [...stripe.sessions.values()].at(-1);
    expect(session?.line_items).toEqual([{ price: 'price_basic_year', quantity: 1 }]);
    // Checkout charges the dollars the Plan tab showed: $84 a month, $1,008 a year.
    expect(session?.currency).toBe('usd');
    expect(await page.locator('[data-test="checkout-price"]').textContent()).toBe('1008.00 USD / year');
    // The trial's 14 days carry into the subscription: Stripe bills from the day after its last.
    expect(session?.subscription_data.trial_end).toBeGreaterThan(Date.now() / 1000 + 13 * 86_400);
    // Leaving the page changes nothing.
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL(/\?settings=plan$/);
    await page.locator('.notice', { hasText: 'Nothing was charged.' }).waitFor();
    await basic.locator('[data-test="choose-basic"]').waitFor();
    const me = await stack.api.call('GET', '/user/me', { token: user.token });
    expect(me.body.data.user.plan).toMatchObject({ plan: 'free', is_trial: true });
    await context.close();
  });

  it('tells Stripe out of reach from billing not configured, and loads again when asked', async () => {
    // A Japanese-priced Team subscription, paid before; the user reads the English interface.
    const user = await stack.api.user('billing-unreachable@example.com', 'free');
    const create = await stack.api.call('POST', '/billing/create', {
      token: user.token,
      body: { plan: 'team', interval: 'month' },
    });
    expect(create.status).toBe(200);
    const sessionId = new URL((create.body.data as { url: string }).url).pathname.split('/').pop() ?? '';
    await stripe.send(stripe.completeCheckout(sessionId));
    const plan = await stack.api.call('POST', '/business-plan/create', {
      token: user.token,
      form: planForm({ business_plan_name: 'Unreachable plan' }),
    });
    expect(plan.status).toBe(201);

    const { context, page } = await newPage(stack, { locale: 'en-US' });
    await page.addInitScript(
      ([key, token]) => window.localStorage.setItem(key ?? '', token ?? ''),
      [TOKEN_KEY, user.token],
    );
    const modal = page.locator('dialog.settings-modal');
    stripe.reachable = false;
    try {
      await page.goto(`/business-plans/${plan.body.data.business_plan_id}/pl?settings=plan`);
      await modal.locator('[data-test="billing-unreachable"]').waitFor();
      expect(await modal.locator('[data-test="billing-unreachable"]').textContent()).toBe(
        'Billing could not be reached just now. Please try again in a moment.',
      );
      expect(await modal.locator('[data-test="billing-unavailable"]').count()).toBe(0);
      expect(await modal.locator('[data-test^="choose-"]').count()).toBe(0);
      await screenshot(page, 'billing-plan-tab-unreachable-en');
    } finally {
      stripe.reachable = true;
    }
    await modal.locator('[data-test="billing-retry"]').click();
    const team = modal.locator('.price-card[data-plan="team"]');
    await team.locator('[data-test="subscribed"]').waitFor();
    expect(await modal.locator('[data-test="billing-unreachable"]').count()).toBe(0);
    // The subscription is charged in yen, and a change keeps the currency: the prices are in yen, and say why.
    expect(await team.locator('.amount').textContent()).toBe('¥14,980');
    expect(await modal.locator('[data-test="billed-in"]').textContent()).toBe(
      'Your subscription is charged in JPY. A change of plan keeps that currency, so the prices are shown in it.',
    );
    await context.close();
  });
});
