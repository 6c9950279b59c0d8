import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowSignup } from '../services/accounts/users';
import { billingEnv, billingSteps, PRICES } from '../testing/billingSteps';
import { planForm, startTestApi, type TestApi } from '../testing/harness';
import { signUpByMail } from '../testing/signup';
import { type StripeStandIn, startStripeStandIn } from '../testing/stripeServer';

/**
 * Billing through Stripe, against a local server that speaks Stripe's protocol: the trial of a new account,
 * subscribing on Checkout, changing, cancelling and restoring, replacing the card, and the currency charged. Stripe's
 * events and what a lower tier keeps are in billingEvents.test.ts.
 */
let stripe: StripeStandIn;
let api: TestApi;
/** How far the API's clock runs ahead of the real one (Stripe's signatures keep real time). */
let ahead = 0;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  stripe = await startStripeStandIn(PRICES);
  api = await startTestApi({ now: () => new Date(Date.now() + ahead), env: billingEnv(stripe) });
});

afterAll(async () => {
  await api.close();
  await stripe.close();
});

const { deliver, signUp, me, sessionIdOf, subscribe, createPlan } = billingSteps(() => ({ api, stripe }));

describe('the trial of a new account', () => {
  it('opens every working screen for TRIAL_DAYS with one owned plan, then falls to Free and says so', async () => {
    const token = await signUp('trial-new@example.com');
    expect((await me(token)).user.plan).toEqual({
      plan: 'free',
      is_trial: true,
      trial_end: expect.any(String),
      trial_days_left: 14,
      owned_plan_limit: 1,
      can_create_plan: true,
    });
    const planId = await createPlan(token, 'Trial plan');
    const listed = (await me(token)).business_plans[0];
    expect(listed.locked).toEqual([]);
    for (const path of ['/kpi/retrieve', '/dashboard/retrieve', '/revenue/retrieve', '/cost/retrieve']) {
      const answer = await api.call('GET', path, { token, query: { business_plan_id: planId } });
      expect(answer.status, path).toBe(200);
    }
    const second = await api.call('POST', '/business-plan/create', { token, form: planForm() });
    expect(second.status).toBe(403);
    expect(second.body.limit).toEqual({ name: 'owned_plans', max: 1, value: 2 });
    expect((await me(token)).notice).toBeNull();

    ahead = 15 * DAY_MS;
    try {
      const after = await me(token);
      expect(after.user.plan).toMatchObject({ plan: 'free', is_trial: false, trial_days_left: null });
      expect(after.business_plans[0].locked).toContain('kpi');
      const kpi = await api.call('GET', '/kpi/retrieve', { token, query: { business_plan_id: planId } });
      expect(kpi.status).toBe(403);
      expect(kpi.body.code).toBe('tier_lock');
      expect(after.notice).toMatchObject({ reason: 'trial_ended', from: 'trial', to: 'free', read_only_plans: [] });
      // The plan itself stays the user's to edit on Free: P&L writes go on.
      const edit = await api.call('POST', '/business-plan/theme-color', {
        token,
        body: { business_plan_id: planId, theme_color: 'black' },
      });
      expect(edit.status).toBe(200);
    } finally {
      ahead = 0;
    }
  });

  it('starts no trial when TRIAL_DAYS is 0', async () => {
    const plain = await startTestApi({ env: { TRIAL_DAYS: '0' } });
    try {
      await allowSignup(plain.db, 'no-trial@example.com');
      const token = await signUpByMail(plain, 'no-trial@example.com', 'Secret-pass1');
      const answer = await plain.call('GET', '/user/me', { token });
      expect(answer.body.data.user.plan).toMatchObject({ plan: 'free', is_trial: false });
    } finally {
      await plain.close();
    }
  });
});

describe('billing not configured', () => {
  it('answers 503 "billing is not configured" to every billing call', async () => {
    const plain = await startTestApi();
    try {
      const { token } = await plain.user('no-billing@example.com', 'basic');
      const calls: [string, string, object | undefined][] = [
        ['GET', '/billing/retrieve', undefined],
        ['POST', '/billing/create', { plan: 'basic', interval: 'month' }],
        ['POST', '/billing/payment/attach', undefined],
        ['POST', '/billing/cancel', undefined],
        ['POST', '/billing/restore', undefined],
        ['POST', '/billing/webhook', { id: 'evt_1', object: 'event' }],
      ];
      for (const [method, path, body] of calls) {
        const answer = await plain.call(method, path, { token, ...(body ? { body } : {}) });
        expect(answer.status, path).toBe(503);
        expect(answer.body).toMatchObject({ message: 'billing is not configured', code: 'unavailable' });
      }
      // The tier set with the admin CLI governs as before.
      expect((await plain.call('GET', '/user/me', { token })).body.data.user.plan.plan).toBe('basic');
    } finally {
      await plain.close();
    }
  });
});

describe('subscribing, changing, cancelling and restoring', () => {
  it('sends a new subscriber to Checkout with the price of the plan and the rest of the trial, then follows Stripe', async () => {
    const token = await signUp('subscriber@example.com');
    const before = await api.call('GET', '/billing/retrieve', { token });
    expect(before.body.data).toEqual({
      invoice: { plan: null, last4: null, exp_year: null, exp_month: null, invoice_list: [] },
      subscription: null,
    });

    const created = await api.call('POST', '/billing/create', { token, body: { plan: 'basic', interval: 'year' } });
    expect(created.status).toBe(200);
    expect(created.body.data.url).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_test_`));
    const session = stripe.sessions.get(sessionIdOf(created.body.data.url));
    const user = await api.db('users').where({ email: 'subscriber@example.com' }).first();
    expect(session).toMatchObject({
      mode: 'subscription',
      client_reference_id: String(user.id),
      line_items: [{ price: 'price_basic_year', quantity: 1 }],
      allowed_payment_method_types: ['card'],
      success_url: 'https://app.topline.test/billing/return?result=paid',
      cancel_url: 'https://app.topline.test/billing/return?result=cancelled',
    });
    expect(stripe.customers.get(session?.customer ?? '')).toMatchObject({
      email: 'subscriber@example.com',
      metadata: { user_id: String(user.id) },
    });
    // The 14 days of the trial carry into the subscription: billing starts the day after the trial's last.
    const trialEnd = (await me(token)).user.plan.trial_end;
    expect(session?.subscription_data.trial_end).toBe(Date.parse(`${trialEnd}T00:00:00Z`) / 1000 + 86_400);
    // Leaving Checkout unpaid changes nothing.
    expect((await me(token)).user.plan).toMatchObject({ plan: 'free', is_trial: true });

    const events = stripe.completeCheckout(session?.id ?? '', { last4: '1881', exp_month: 4, exp_year: 2030 });
    expect(await deliver(events)).toEqual([200, 200, 200]);
    const after = await me(token);
    expect(after.user.plan).toMatchObject({ plan: 'basic', is_trial: false, owned_plan_limit: 2 });
    expect(after.notice).toBeNull();

    const billing = (await api.call('GET', '/billing/retrieve', { token })).body.data;
    expect(billing.invoice).toMatchObject({
      plan: { status: 'trialing', current_period_end: expect.any(String) },
      last4: '1881',
      exp_month: 4,
      exp_year: 2030,
      // Nothing is due during the trial.
      invoice_list: [{ url: expect.stringContaining('/invoices/in_'), price: 0, currency: 'JPY' }],
    });
    expect(billing.subscription).toEqual({ plan: 'basic', interval: 'year', currency: 'JPY' });
    // The card was read with the subscriptions, expanded, in one call.
    const list = stripe.calls.filter((c) => c.method === 'GET' && c.path === '/v1/subscriptions').pop();
    expect(list?.params).toMatchObject({ expand: ['data.default_payment_method'], status: 'all' });
  });

  it('changes a running subscription at once, cancels at the end of the period and restores it', async () => {
    const { token } = await api.user('changer@example.com', 'free');
    const subscriptionId = await subscribe(token, 'basic', 'month');
    expect((await me(token)).user.plan.plan).toBe('basic');

    const changed = await api.call('POST', '/billing/create', { token, body: { plan: 'team', interval: 'year' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({ status: 'active', current_period_end: expect.any(String) });
    expect(stripe.subscriptions.get(subscriptionId)?.items.data[0]?.price.id).toBe('price_team_year');
    // The tier follows at once, before Stripe's event.
    expect((await me(token)).user.plan.plan).toBe('team');
    const retrieved = (await api.call('GET', '/billing/retrieve', { token })).body.data;
    expect(retrieved.subscription).toEqual({ plan: 'team', interval: 'year', currency: 'JPY' });
    // The first yearly invoice, in the subscription's yen: 12,733 x 12.
    expect(await deliver(stripe.payInvoice(subscriptionId))).toEqual([200, 200]);
    const invoices = (await api.call('GET', '/billing/retrieve', { token })).body.data.invoice.invoice_list;
    expect(invoices[0]).toMatchObject({ price: 152_796, currency: 'JPY' });
    expect(invoices[1]).toMatchObject({ price: 9980, currency: 'JPY' });

    const cancelled = await api.call('POST', '/billing/cancel', { token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('scheduled_canceled');
    expect(stripe.subscriptions.get(subscriptionId)?.cancel_at_period_end).toBe(true);
    // Use goes on to the end of the period.
    expect((await me(token)).user.plan.plan).toBe('team');
    const pending = (await api.call('GET', '/billing/retrieve', { token })).body.data.invoice.plan;
    expect(pending).toEqual({
      status: 'scheduled_canceled',
      current_period_end: cancelled.body.data.current_period_end,
    });

    const restored = await api.call('POST', '/billing/restore', { token });
    expect(restored.body.data.status).toBe('active');
    expect(stripe.subscriptions.get(subscriptionId)?.cancel_at_period_end).toBe(false);

    // Re-selecting during a scheduled cancellation takes it back too.
    await api.call('POST', '/billing/cancel', { token });
    const reselected = await api.call('POST', '/billing/create', { token, body: { plan: 'team', interval: 'year' } });
    expect(reselected.body.data.status).toBe('active');
    expect(stripe.subscriptions.get(subscriptionId)?.cancel_at_period_end).toBe(false);
  });

  it('refuses cancel and restore without a subscription, and a plan or interval that is not one', async () => {
    const { token } = await api.user('nothing-to-cancel@example.com', 'free');
    for (const path of ['/billing/cancel', '/billing/restore']) {
      const answer = await api.call('POST', path, { token });
      expect(answer.status, path).toBe(409);
      expect(answer.body.code).toBe('conflict');
    }
    const bad = await api.call('POST', '/billing/create', { token, body: { plan: 'gold', interval: 'week' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ plan: 'plan must be basic or team', interval: 'interval must be month or year' });
    const extra = await api.call('POST', '/billing/create', {
      token,
      body: { plan: 'basic', interval: 'month', card: '4242424242424242' },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.errors.card).toBe('card is not a field of this request');
    const anonymous = await api.call('POST', '/billing/create', { body: { plan: 'basic', interval: 'month' } });
    expect(anonymous.status).toBe(401);
  });

  it('replaces the card on Checkout in setup mode', async () => {
    const { token } = await api.user('new-card@example.com', 'free');
    const subscriptionId = await subscribe(token, 'basic', 'month', '0005');
    const attach = await api.call('POST', '/billing/payment/attach', { token });
    expect(attach.status).toBe(200);
    const session = stripe.sessions.get(sessionIdOf(attach.body.data.url));
    expect(session).toMatchObject({
      mode: 'setup',
      line_items: [],
      success_url: 'https://app.topline.test/billing/return?result=card_saved',
    });
    expect(
      await deliver(stripe.completeCheckout(session?.id ?? '', { last4: '7777', exp_month: 1, exp_year: 2032 })),
    ).toEqual([200]);
    const billing = (await api.call('GET', '/billing/retrieve', { token })).body.data.invoice;
    expect(billing).toMatchObject({ last4: '7777', exp_month: 1, exp_year: 2032 });
    const method = stripe.subscriptions.get(subscriptionId)?.default_payment_method;
    expect(stripe.customers.get(session?.customer ?? '')?.invoice_settings.default_payment_method).toBe(method);
  });
});

describe('the currency charged', () => {
  it("keeps the spec's dollar amounts in the configured prices' currency_options", async () => {
    const base = new URL(stripe.url);
    const sdk = new Stripe(stripe.secretKey, { protocol: 'http', host: base.hostname, port: Number(base.port) });
    const dollars: Record<string, number> = {};
    for (const id of ['price_basic_month', 'price_basic_year', 'price_team_month', 'price_team_year']) {
      const price = await sdk.prices.retrieve(id, { expand: ['currency_options'] });
      expect(price.currency, id).toBe('jpy');
      dollars[id] = price.currency_options?.usd?.unit_amount ?? 0;
    }
    // $98, $84 x 12, $149, $127 x 12, in cents.
    expect(dollars).toEqual({
      price_basic_month: 9800,
      price_basic_year: 100_800,
      price_team_month: 14_900,
      price_team_year: 152_400,
    });
    // Without expand, Stripe leaves currency_options out.
    expect((await sdk.prices.retrieve('price_team_month')).currency_options).toBeUndefined();
    // A price made with other currencies, form-encoded as the SDK sends it: currency_options[usd][unit_amount].
    const made = await sdk.prices.create({
      currency: 'jpy',
      unit_amount: 500,
      recurring: { interval: 'month' },
      currency_options: { usd: { unit_amount: 450 } },
      expand: ['currency_options'],
    });
    const call = stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/prices').pop();
    expect(call?.params).toMatchObject({ currency_options: { usd: { unit_amount: '450' } } });
    expect(made.currency_options).toMatchObject({ jpy: { unit_amount: 500 }, usd: { unit_amount: 450 } });
  });

  it('charges an English subscriber in dollars and a Japanese one in yen; a change keeps the currency', async () => {
    const english = await api.user('dollars@example.com', 'free');
    const usdSubscription = await subscribe(english.token, 'basic', 'month', '4242', 'usd');
    const usdSession = [...stripe.sessions.values()].find((s) => s.subscription === usdSubscription);
    expect(usdSession?.currency).toBe('usd');
    const checkoutCall = stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/checkout/sessions').pop();
    expect(checkoutCall?.params.currency).toBe('usd');
    expect(stripe.subscriptions.get(usdSubscription)?.currency).toBe('usd');
    // The first invoice: $98 (9,800 cents).
    let invoices = (await api.call('GET', '/billing/retrieve', { token: english.token })).body.data.invoice
      .invoice_list;
    expect(invoices).toEqual([expect.objectContaining({ price: 98, currency: 'USD' })]);
    // A change to Team yearly stays in dollars: $127 x 12 = $1,524.
    const changed = await api.call('POST', '/billing/create', {
      token: english.token,
      body: { plan: 'team', interval: 'year', currency: 'jpy' },
    });
    expect(changed.status).toBe(200);
    expect(await deliver(stripe.payInvoice(usdSubscription))).toEqual([200, 200]);
    invoices = (await api.call('GET', '/billing/retrieve', { token: english.token })).body.data.invoice.invoice_list;
    expect(invoices[0]).toMatchObject({ price: 1524, currency: 'USD' });
    expect(stripe.subscriptions.get(usdSubscription)?.currency).toBe('usd');
    const retrieved = (await api.call('GET', '/billing/retrieve', { token: english.token })).body.data;
    expect(retrieved.subscription).toEqual({ plan: 'team', interval: 'year', currency: 'USD' });

    const japanese = await api.user('yen@example.com', 'free');
    const jpySubscription = await subscribe(japanese.token, 'team', 'month', '4242', 'jpy');
    expect([...stripe.sessions.values()].find((s) => s.subscription === jpySubscription)?.currency).toBe('jpy');
    const yen = (await api.call('GET', '/billing/retrieve', { token: japanese.token })).body.data.invoice;
    expect(yen.invoice_list).toEqual([expect.objectContaining({ price: 14_980, currency: 'JPY' })]);
  });

  it('refuses a currency that is not one, naming the field', async () => {
    const { token } = await api.user('euros@example.com', 'free');
    const sessionsBefore = stripe.sessions.size;
    const bad = await api.call('POST', '/billing/create', {
      token,
      body: { plan: 'basic', interval: 'month', currency: 'eur' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ currency: 'currency must be jpy or usd' });
    const upper = await api.call('POST', '/billing/create', {
      token,
      body: { plan: 'basic', interval: 'month', currency: 'USD' },
    });
    expect(upper.status).toBe(400);
    expect(stripe.sessions.size).toBe(sessionsBefore);
  });

  it('charges no other currency than the one asked for: a price without it is refused by Stripe, a 503; asked again, one customer', async () => {
    const { token } = await api.user('no-dollars@example.com', 'free');
    const price = PRICES[0] as { currency_options?: Record<string, { unit_amount: number }> };
    const options = price.currency_options;
    delete price.currency_options;
    try {
      const sessionsBefore = stripe.sessions.size;
      const refused = await api.call('POST', '/billing/create', {
        token,
        body: { plan: 'basic', interval: 'month', currency: 'usd' },
      });
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('unavailable');
      expect(stripe.sessions.size).toBe(sessionsBefore);
    } finally {
      price.currency_options = options;
    }
    // Asked again, Checkout opens for the customer made the first time: no second customer is left in Stripe.
    const again = await api.call('POST', '/billing/create', {
      token,
      body: { plan: 'basic', interval: 'month', currency: 'usd' },
    });
    expect(again.status).toBe(200);
    const customers = [...stripe.customers.values()].filter((c) => c.email === 'no-dollars@example.com');
    expect(customers).toHaveLength(1);
    expect(stripe.sessions.get(sessionIdOf(again.body.data.url))?.customer).toBe(customers[0]?.id);
  });
});
