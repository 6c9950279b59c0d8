import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowSignup } from '../services/users';
import { checkAnswer, planForm, startTestApi, type TestApi } from '../testing/harness';
import {
  type PriceDef,
  type StripeEvent,
  type StripeStandIn,
  specPrices,
  startStripeStandIn,
} from '../testing/stripeServer';

/**
 * Billing through Stripe, against a local server that speaks Stripe's protocol: subscribing on Checkout, changing,
 * cancelling and restoring, replacing the card, and Stripe's events (signed, replayed, out of order, for a price this
 * API does not know, for a failed payment); the trial of a new account; what a lower tier keeps and tells.
 */
/** The spec's prices (`specPrices`), and one more. */
const PRICES: PriceDef[] = [
  ...specPrices(),
  // A price Stripe has and this API was not configured with.
  { id: 'price_legacy', unit_amount: 500, currency: 'jpy', interval: 'month' },
];

let stripe: StripeStandIn;
let api: TestApi;
/** How far the API's clock runs ahead of the real one (Stripe's signatures keep real time). */
let ahead = 0;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  stripe = await startStripeStandIn(PRICES);
  api = await startTestApi({
    now: () => new Date(Date.now() + ahead),
    env: {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      STRIPE_PRICE_BASIC_MONTHLY: 'price_basic_month',
      STRIPE_PRICE_BASIC_YEARLY: 'price_basic_year',
      STRIPE_PRICE_TEAM_MONTHLY: 'price_team_month',
      STRIPE_PRICE_TEAM_YEARLY: 'price_team_year',
      PUBLIC_URL: 'https://app.topline.test',
    },
  });
});

afterAll(async () => {
  await api.close();
  await stripe.close();
});

/** Delivers events as Stripe does: the JSON body, signed; answers the API's status. */
async function deliver(events: StripeEvent[], sign: (payload: string) => string = (p) => stripe.sign(p)) {
  const statuses: number[] = [];
  for (const event of events) {
    const payload = JSON.stringify(event);
    const response = await fetch(`${api.url}/api/v1/billing/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': sign(payload) },
      body: payload,
    });
    const text = await response.text();
    checkAnswer('POST', '/billing/webhook', response.status, text ? JSON.parse(text) : null);
    statuses.push(response.status);
  }
  return statuses;
}

/** A new account by e-mail sign-up, as a person makes it. */
async function signUp(email: string): Promise<string> {
  await allowSignup(api.db, email);
  const answer = await api.call('POST', '/users/email-signup', {
    body: { email, password: 'Secret-pass1', password_confirmation: 'Secret-pass1' },
  });
  expect(answer.status).toBe(201);
  return answer.body.app_token;
}

const me = async (token: string) => (await api.call('GET', '/user/me', { token })).body.data;
const sessionIdOf = (url: string) => url.split('/').pop() ?? '';

/** Subscribes on Checkout and delivers Stripe's events: answers the subscription's id. */
async function subscribe(
  token: string,
  plan: 'basic' | 'team',
  interval: 'month' | 'year',
  last4 = '4242',
  currency?: 'jpy' | 'usd',
) {
  const created = await api.call('POST', '/billing/create', {
    token,
    body: { plan, interval, ...(currency ? { currency } : {}) },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const events = stripe.completeCheckout(sessionIdOf(created.body.data.url), { last4, exp_month: 8, exp_year: 2031 });
  expect(await deliver(events)).toEqual(events.map(() => 200));
  const session = stripe.sessions.get(sessionIdOf(created.body.data.url));
  return session?.subscription ?? '';
}

async function createPlan(token: string, name: string): Promise<number> {
  const answer = await api.call('POST', '/business-plan/create', {
    token,
    form: planForm({ business_plan_name: name }),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data.business_plan_id;
}

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
      const signup = await plain.call('POST', '/users/email-signup', {
        body: { email: 'no-trial@example.com', password: 'Secret-pass1', password_confirmation: 'Secret-pass1' },
      });
      const answer = await plain.call('GET', '/user/me', { token: signup.body.app_token });
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

describe("Stripe's events", () => {
  it('refuses a body whose signature does not match, changing nothing', async () => {
    const { token, user } = await api.user('forged@example.com', 'free');
    await subscribe(token, 'basic', 'month');
    const row = await api.db('subscriptions').where({ user_id: user.id }).first();
    const subscription = stripe.subscriptions.get(row.stripe_subscription_id);
    if (!subscription) throw new Error('no subscription');
    const ended = stripe.event('customer.subscription.deleted', { ...subscription, status: 'canceled' });
    const eventsBefore = await api.db('stripe_events').count<{ count: string }[]>('id as count');
    expect(await deliver([ended], (payload) => stripe.sign(payload, 'whsec_not_the_secret'))).toEqual([400]);
    // A body changed after signing.
    const tampered = await fetch(`${api.url}/api/v1/billing/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripe.sign(JSON.stringify(ended)) },
      body: JSON.stringify({ ...ended, type: 'customer.subscription.created' }),
    });
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({
      code: 'invalid',
      errors: { 'stripe-signature': expect.any(String) },
    });
    const unsigned = await fetch(`${api.url}/api/v1/billing/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(ended),
    });
    expect(unsigned.status).toBe(400);
    expect(await api.db('stripe_events').count<{ count: string }[]>('id as count')).toEqual(eventsBefore);
    expect((await me(token)).user.plan.plan).toBe('basic');
  });

  it('applies each event once, however often it comes', async () => {
    const { token, user } = await api.user('replayed@example.com', 'free');
    const subscriptionId = await subscribe(token, 'basic', 'month');
    const [failed] = stripe.failPayment(subscriptionId);
    if (!failed) throw new Error('no event');
    expect(await deliver([failed, failed, failed])).toEqual([200, 200, 200]);
    expect(await api.db('stripe_events').where({ id: failed.id })).toHaveLength(1);
    const row = await api.db('subscriptions').where({ user_id: user.id }).first();
    expect(row).toMatchObject({ tier: 'free', status: 'past_due', down_reason: 'payment_failed' });
    // Paid again: a replay of the old failure changes nothing now.
    expect(await deliver(stripe.payInvoice(subscriptionId))).toEqual([200, 200]);
    expect(await deliver([failed])).toEqual([200]);
    expect((await me(token)).user.plan.plan).toBe('basic');
  });

  it('is safe out of order: an old event cannot bring back an older state', async () => {
    const { token } = await api.user('out-of-order@example.com', 'free');
    const created = await api.call('POST', '/billing/create', { token, body: { plan: 'team', interval: 'month' } });
    const events = stripe.completeCheckout(sessionIdOf(created.body.data.url));
    const subscriptionId = stripe.sessions.get(sessionIdOf(created.body.data.url))?.subscription ?? '';
    const deleted = stripe.endSubscription(subscriptionId);
    // The end arrives first, then the events of the start.
    expect(await deliver([...deleted, ...events.reverse()])).toEqual([200, 200, 200, 200]);
    const after = await me(token);
    expect(after.user.plan.plan).toBe('free');
    expect((await api.call('GET', '/billing/retrieve', { token })).body.data.invoice.plan.status).toBe('canceled');
  });

  it('leaves an account on Free for a price this API does not know, and says nothing of money in the answer', async () => {
    const { token, user } = await api.user('unknown-price@example.com', 'free');
    const subscriptionId = await subscribe(token, 'team', 'month');
    expect((await me(token)).user.plan.plan).toBe('team');
    expect(await deliver(stripe.changePrice(subscriptionId, 'price_legacy'))).toEqual([200]);
    const row = await api.db('subscriptions').where({ user_id: user.id }).first();
    expect(row).toMatchObject({ tier: 'free', status: 'active', price_id: 'price_legacy' });
    expect((await me(token)).user.plan.plan).toBe('free');
    const billing = (await api.call('GET', '/billing/retrieve', { token })).body.data;
    expect(billing.subscription).toBeNull();
    expect(billing.invoice.plan.status).toBe('active');
    // A plan whose price is not configured cannot be chosen.
    const partial = await startTestApi({
      env: {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_API_BASE: stripe.url,
        STRIPE_PRICE_BASIC_MONTHLY: 'price_basic_month',
      },
    });
    try {
      const other = await partial.user('partial@example.com', 'free');
      const answer = await partial.call('POST', '/billing/create', {
        token: other.token,
        body: { plan: 'team', interval: 'year' },
      });
      expect(answer.status).toBe(503);
      expect(answer.body.message).toBe('billing of the team plan by the year is not configured');
      // Events need the signing secret.
      const event = await partial.call('POST', '/billing/webhook', { body: { id: 'evt_x' } });
      expect(event.status).toBe(503);
    } finally {
      await partial.close();
    }
  });

  it('ignores events of customers of no account here, and events it does not handle', async () => {
    const stranger = stripe.event('customer.subscription.updated', {
      id: 'sub_elsewhere',
      object: 'subscription',
      customer: 'cus_elsewhere',
      status: 'active',
    });
    const other = stripe.event('charge.refunded', { id: 'ch_1', object: 'charge', customer: 'cus_elsewhere' });
    expect(await deliver([stranger, other])).toEqual([200, 200]);
  });
});

describe('a lower tier loses nothing', () => {
  it('keeps plans over the limit readable but read-only, members viewing, tells the user, until paid again', async () => {
    const { token } = await api.user('downgrade@example.com', 'free');
    const subscriptionId = await subscribe(token, 'team', 'month');
    const plans = [
      await createPlan(token, 'First'),
      await createPlan(token, 'Second'),
      await createPlan(token, 'Third'),
    ];
    const editor = await api.user('team-editor@example.com', 'free');
    const added = await api.call('POST', '/authority/add', {
      token,
      body: { business_plan_id: plans[0], email: 'team-editor@example.com', pl: 'can_edit', kpi: 'can_edit' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    await api
      .db('plan_members')
      .where({ email: 'team-editor@example.com' })
      .update({ status: 'received', user_id: editor.user.id });

    // The renewal fails: Stripe keeps retrying, the subscription is past_due, and the account is on Free.
    expect(await deliver(stripe.failPayment(subscriptionId))).toEqual([200, 200]);
    const down = await me(token);
    expect(down.user.plan).toMatchObject({ plan: 'free', owned_plan_limit: 1 });
    expect(down.notice).toEqual({
      reason: 'payment_failed',
      from: 'team',
      to: 'free',
      at: expect.any(String),
      read_only_plans: [plans[1], plans[2]],
      viewer_only_members: 1,
    });
    // Every plan is still there and readable (P&L is open on Free).
    for (const planId of plans) {
      const pl = await api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: planId } });
      expect(pl.status).toBe(200);
    }
    // The oldest plan keeps working; the others refuse writes with the owned-plan limit.
    const rename = (planId: number | undefined) =>
      api.call('POST', '/business-plan/theme-color', {
        token,
        body: { business_plan_id: planId, theme_color: 'gray' },
      });
    expect((await rename(plans[0])).status).toBe(200);
    const refused = await rename(plans[2]);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'tier_lock', limit: { name: 'owned_plans', max: 1 } });
    const caseId = (await api.db('cases').where({ plan_id: plans[1] }).first()).id;
    const cell = await api.call('POST', '/case/edit', {
      token,
      body: { business_plan_id: plans[1], case_id: caseId, year: 1, key: 'sm_rate', value: 0.3 },
    });
    expect(cell.status).toBe(403);
    // The member's can_edit reads as can_view.
    const memberView = (await me(editor.token)).business_plans.find(
      (p: { business_plan_id: number }) => p.business_plan_id === plans[0],
    );
    expect(memberView.role.pl).toBe('can_view');
    expect((await api.db('plan_members').where({ email: 'team-editor@example.com' }).first()).pl).toBe('can_edit');

    // Deleting one of the read-only plans is allowed.
    expect(
      (await api.call('POST', '/business-plan/delete', { token, body: { business_plan_id: plans[2] } })).status,
    ).toBe(200);
    expect((await me(token)).notice.read_only_plans).toEqual([plans[1]]);

    // Paid after all: everything works again, nothing was lost, the notice goes.
    expect(await deliver(stripe.payInvoice(subscriptionId))).toEqual([200, 200]);
    const up = await me(token);
    expect(up.user.plan.plan).toBe('team');
    expect(up.notice).toBeNull();
    expect((await rename(plans[1])).status).toBe(200);
    const memberAgain = (await me(editor.token)).business_plans.find(
      (p: { business_plan_id: number }) => p.business_plan_id === plans[0],
    );
    expect(memberAgain.role.pl).toBe('can_edit');
  });

  it('tells a subscription that ended from a failed payment', async () => {
    const { token } = await api.user('ended@example.com', 'free');
    const subscriptionId = await subscribe(token, 'basic', 'year');
    await api.call('POST', '/billing/cancel', { token });
    expect(await deliver(stripe.endSubscription(subscriptionId))).toEqual([200]);
    expect((await me(token)).notice).toMatchObject({ reason: 'subscription_ended', from: 'basic', to: 'free' });
    // Subscribing again after the end goes through Checkout.
    const again = await api.call('POST', '/billing/create', { token, body: { plan: 'basic', interval: 'month' } });
    expect(again.body.data.url).toContain('/c/pay/');
  });
});
