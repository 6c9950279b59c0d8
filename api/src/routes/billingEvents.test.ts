import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingEnv, billingSteps, PRICES } from '../testing/billingSteps';
import { startTestApi, type TestApi } from '../testing/harness';
import { type StripeStandIn, startStripeStandIn } from '../testing/stripeServer';

/**
 * Billing's side of Stripe's events, against a local server that speaks Stripe's protocol: signed, replayed, out of
 * order, for a price this API does not know, for a failed payment; and what a lower tier keeps and tells.
 */
let stripe: StripeStandIn;
let api: TestApi;

beforeAll(async () => {
  stripe = await startStripeStandIn(PRICES);
  api = await startTestApi({ now: () => new Date(), env: billingEnv(stripe) });
});

afterAll(async () => {
  await api.close();
  await stripe.close();
});

const { deliver, me, sessionIdOf, subscribe, createPlan } = billingSteps(() => ({ api, stripe }));

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
