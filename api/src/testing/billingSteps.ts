import { expect } from 'vitest';
import { allowSignup } from '../services/accounts/users';
import { checkAnswer, planForm, type TestApi } from './harness';
import { signUpByMail } from './signup';
import { type PriceDef, type StripeEvent, type StripeStandIn, specPrices } from './stripeServer';

/** The billing tests' prices, the API's billing settings, and the steps the tests take against Stripe's stand-in. */

/** The spec's prices (`specPrices`), and one more. */
export const PRICES: PriceDef[] = [
  ...specPrices(),
  // A price Stripe has and this API was not configured with.
  { id: 'price_legacy', unit_amount: 500, currency: 'jpy', interval: 'month' },
];

/** The settings of an API billing through the stand-in, with the spec's four prices. */
export const billingEnv = (stripe: StripeStandIn) => ({
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  STRIPE_API_BASE: stripe.url,
  STRIPE_PRICE_BASIC_MONTHLY: 'price_basic_month',
  STRIPE_PRICE_BASIC_YEARLY: 'price_basic_year',
  STRIPE_PRICE_TEAM_MONTHLY: 'price_team_month',
  STRIPE_PRICE_TEAM_YEARLY: 'price_team_year',
  PUBLIC_URL: 'https://app.topline.test',
});

/** The steps, on the API and the stand-in the tests started (read when a step runs). */
export function billingSteps(started: () => { api: TestApi; stripe: StripeStandIn }) {
  /** Delivers events as Stripe does: the JSON body, signed; answers the API's status. */
  async function deliver(events: StripeEvent[], sign: (payload: string) => string = (p) => started().stripe.sign(p)) {
    const { api } = started();
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
    const { api } = started();
    await allowSignup(api.db, email);
    return signUpByMail(api, email, 'Secret-pass1');
  }

  const me = async (token: string) => (await started().api.call('GET', '/user/me', { token })).body.data;
  const sessionIdOf = (url: string) => url.split('/').pop() ?? '';

  /** Subscribes on Checkout and delivers Stripe's events: answers the subscription's id. */
  async function subscribe(
    token: string,
    plan: 'basic' | 'team',
    interval: 'month' | 'year',
    last4 = '4242',
    currency?: 'jpy' | 'usd',
  ) {
    const { api, stripe } = started();
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
    const { api } = started();
    const answer = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({ business_plan_name: name }),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.data.business_plan_id;
  }

  return { deliver, signUp, me, sessionIdOf, subscribe, createPlan };
}
