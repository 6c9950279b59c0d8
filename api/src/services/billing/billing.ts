/**
 * Billing through Stripe (product-and-account.md sections 4, 7 and 9). Stripe holds the truth: the customer's
 * subscriptions, their prices and statuses, the card and the invoices. The subscriptions row keeps what the tier
 * needs (the tier by price while Stripe says active or trialing, Free otherwise), written only after re-reading the
 * customer's subscriptions from Stripe under a lock of the row, so that calls and events in any order, any number of
 * times, leave what Stripe says last. Card details never reach the API: Stripe's hosted Checkout page collects them.
 */
import { createHash } from 'node:crypto';
import {
  BILLING_RETURN_PATH,
  type BillingAnswer,
  type BillingCreate,
  type BillingPlan,
  type BillingReturn,
  conflict,
  unavailable,
} from '@topline/contract';
import type Stripe from 'stripe';
import type { Db } from '../../db';
import { lockUser, tierFrom, type UserRow } from '../accounts/users';
import { claimIdempotencyKey } from '../requests/idempotency';
import { syncSubscription } from './billingSync';
import type { BillingOptions, SubscriptionRow } from './billingTypes';
import { applyWebhook } from './billingWebhook';
import { mainUnits } from './stripe';
import { guard } from './stripeErrors';
import { governing, iso, OVER, planOf, priceIdOf, subscriptionsOf } from './subscriptionStatus';

/** The billing calls of one API; built only when billing is configured (`stripeClient`). */
export class Billing {
  constructor(
    private readonly db: Db,
    private readonly stripe: Stripe,
    private readonly options: BillingOptions,
  ) {}

  /** GET /billing/retrieve: the spec's shape from Stripe's data; no Stripe call for an account that never paid. */
  async retrieve(user: UserRow): Promise<BillingAnswer['data']> {
    const row = await this.db<SubscriptionRow>('subscriptions').where({ user_id: user.id }).first();
    const customer = row?.stripe_customer_id;
    const none = { plan: null, last4: null, exp_year: null, exp_month: null, invoice_list: [] };
    if (!customer) return { invoice: none, subscription: null };
    const [subscriptions, invoices] = await guard(this.options.logger, () =>
      Promise.all([
        this.stripe.subscriptions.list({
          customer,
          status: 'all',
          limit: 20,
          expand: ['data.default_payment_method'],
        }),
        this.stripe.invoices.list({ customer, limit: 100 }),
      ]),
    );
    const current = governing(subscriptions.data, this.options.prices);
    const method = current?.default_payment_method;
    const card = method && typeof method === 'object' ? method.card : undefined;
    const price = current && !OVER.has(current.status) ? this.options.prices.find(priceIdOf(current)) : undefined;
    return {
      invoice: {
        plan: current ? planOf(current) : null,
        last4: card?.last4 ?? null,
        exp_year: card?.exp_year ?? null,
        exp_month: card?.exp_month ?? null,
        invoice_list: invoices.data
          .filter((invoice) => invoice.status !== 'draft' && invoice.status !== 'void')
          .flatMap((invoice) => {
            const url = invoice.hosted_invoice_url ?? invoice.invoice_pdf;
            if (!url) return [];
            return [
              {
                url,
                created_at: iso(invoice.created) ?? '',
                price: mainUnits(invoice.total, invoice.currency),
                currency: invoice.currency.toUpperCase(),
              },
            ];
          })
          .sort((a, b) => b.created_at.localeCompare(a.created_at)),
      },
      subscription:
        price && current
          ? { plan: price.tier, interval: price.interval, currency: current.currency.toUpperCase() }
          : null,
    };
  }

  /**
   * POST /billing/create: a running subscription changes to the plan and interval at once (which also takes back
   * a scheduled cancellation), in the currency it is charged in (Stripe cannot change a subscription's currency, so
   * `currency` applies to a new subscription only); otherwise Stripe's Checkout page starts a new one, in `currency`
   * (one of the price's `currency_options`; without it, the price's own currency), counting the trial's days left.
   * @throws ApiError 503 when the plan's price is not configured or Stripe cannot be reached
   */
  async create(user: UserRow, input: BillingCreate): Promise<{ url: string } | BillingPlan> {
    const priceId = this.options.prices.idOf(input.plan, input.interval);
    if (!priceId) throw unavailable(`billing of the ${input.plan} plan by the ${input.interval} is not configured`);
    return this.forUser(user, async (trx, row) => {
      const current = await this.running(row);
      if (current) {
        const item = current.items.data[0];
        if (!item || item.price.id !== priceId || current.cancel_at_period_end) {
          await this.stripe.subscriptions.update(current.id, {
            items: [item ? { id: item.id, price: priceId } : { price: priceId }],
            cancel_at_period_end: false,
            proration_behavior: 'create_prorations',
          });
        }
        return this.planAfter(trx, row);
      }
      const customer = await this.customerOf(trx, user, row);
      const trialEnd = this.trialEndFor(row);
      const session = await this.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: String(user.id),
        line_items: [{ price: priceId, quantity: 1 }],
        ...(input.currency ? { currency: input.currency } : {}),
        allowed_payment_method_types: ['card'],
        success_url: this.returnUrl('paid'),
        cancel_url: this.returnUrl('cancelled'),
        metadata: { user_id: String(user.id) },
        subscription_data: { metadata: { user_id: String(user.id) }, ...(trialEnd ? { trial_end: trialEnd } : {}) },
      });
      return { url: checkoutUrl(session) };
    });
  }

  /** POST /billing/payment/attach: Stripe's Checkout page in setup mode, which collects the new card. */
  async attachPayment(user: UserRow): Promise<{ url: string }> {
    return this.forUser(user, async (trx, row) => {
      const customer = await this.customerOf(trx, user, row);
      const session = await this.stripe.checkout.sessions.create({
        mode: 'setup',
        customer,
        client_reference_id: String(user.id),
        allowed_payment_method_types: ['card'],
        success_url: this.returnUrl('card_saved'),
        cancel_url: this.returnUrl('cancelled'),
        metadata: { user_id: String(user.id) },
        setup_intent_data: { metadata: { user_id: String(user.id) } },
      });
      return { url: checkoutUrl(session) };
    });
  }

  /**
   * POST /billing/cancel: the subscription ends at the end of the period paid for (scheduled), not now.
   * @throws ApiError 409 without a running subscription
   */
  async cancel(user: UserRow): Promise<BillingPlan> {
    return this.forUser(user, async (trx, row) => {
      const current = await this.running(row);
      if (!current) throw conflict('there is no subscription to cancel');
      if (!current.cancel_at_period_end) {
        await this.stripe.subscriptions.update(current.id, { cancel_at_period_end: true });
      }
      return this.planAfter(trx, row);
    });
  }

  /**
   * POST /billing/restore: takes back a scheduled cancellation; the plan goes on.
   * @throws ApiError 409 without a running subscription
   */
  async restore(user: UserRow): Promise<BillingPlan> {
    return this.forUser(user, async (trx, row) => {
      const current = await this.running(row);
      if (!current) throw conflict('there is no subscription to restore; choose a plan instead');
      if (current.cancel_at_period_end) {
        await this.stripe.subscriptions.update(current.id, { cancel_at_period_end: false });
      }
      return this.planAfter(trx, row);
    });
  }

  /** POST /billing/webhook: the signed event applied once (`applyWebhook`). */
  async webhook(raw: Buffer, signature: string | undefined): Promise<void> {
    return applyWebhook(this.db, this.stripe, this.options, raw, signature);
  }

  /**
   * Runs a billing write of one user: the account row locked (one user's billing writes, plan creations and
   * Stripe's events take turns), the subscription row made if missing. Stripe's refusals become ApiErrors.
   */
  private async forUser<T>(user: UserRow, body: (trx: Db, row: SubscriptionRow) => Promise<T>): Promise<T> {
    return guard(this.options.logger, () =>
      this.db.transaction(async (trx) => {
        await lockUser(trx, user.id);
        await claimIdempotencyKey(trx);
        await trx('subscriptions').insert({ user_id: user.id, tier: 'free' }).onConflict('user_id').ignore();
        const row = await trx<SubscriptionRow>('subscriptions').where({ user_id: user.id }).forUpdate().first();
        if (!row) throw new Error('subscription row missing after insert');
        return body(trx, row);
      }),
    );
  }

  /** The subscription that is running (not over), as Stripe has it now; null when none is. */
  private async running(row: SubscriptionRow): Promise<Stripe.Subscription | null> {
    if (!row.stripe_customer_id) return null;
    const current = governing(await subscriptionsOf(this.stripe, row.stripe_customer_id), this.options.prices);
    return current && !OVER.has(current.status) ? current : null;
  }

  /** After a change: the row follows Stripe, and the plan is answered as Stripe has it. */
  private async planAfter(trx: Db, row: SubscriptionRow): Promise<BillingPlan> {
    const current = await syncSubscription(this.stripe, this.options, trx, row, row.stripe_customer_id ?? '');
    if (!current) throw conflict('there is no subscription');
    return planOf(current);
  }

  /**
   * The user's Stripe customer, made on first use. Its id is saved with the Checkout session's transaction, so a
   * Checkout that Stripe refuses leaves it unsaved: the customer is asked for again under the same idempotency key,
   * and Stripe answers the one it made instead of making another (within the day Stripe keeps keys).
   */
  private async customerOf(trx: Db, user: UserRow, row: SubscriptionRow): Promise<string> {
    if (row.stripe_customer_id) return row.stripe_customer_id;
    const params = {
      email: user.email,
      ...(user.name ? { name: user.name } : {}),
      metadata: { user_id: String(user.id) },
    };
    // The key names the account and what is asked, so a renamed user's next try is a new request, not a refused one.
    const asked = createHash('sha256').update(JSON.stringify(params)).digest('hex').slice(0, 24);
    const customer = await this.stripe.customers.create(params, {
      idempotencyKey: `topline-customer-${user.id}-${asked}`,
    });
    await trx('subscriptions').where({ user_id: user.id }).update({ stripe_customer_id: customer.id });
    row.stripe_customer_id = customer.id;
    return customer.id;
  }

  /**
   * A running trial carries into the subscription, so that paying early loses no trial day: Stripe bills from the
   * day after the trial's last. Stripe takes a trial end at least two days ahead; a shorter rest is given up.
   */
  private trialEndFor(row: SubscriptionRow): number | undefined {
    const info = tierFrom(row, this.options.now());
    if (!info.isTrial || !info.trialEnd) return undefined;
    const end = Date.parse(`${info.trialEnd}T00:00:00Z`) / 1000 + 86_400;
    return end - this.options.now().getTime() / 1000 > 2 * 86_400 + 3600 ? end : undefined;
  }

  private returnUrl(result: BillingReturn): string {
    const url = new URL(BILLING_RETURN_PATH, this.options.publicUrl);
    url.searchParams.set('result', result);
    return url.toString();
  }
}

function checkoutUrl(session: Stripe.Checkout.Session): string {
  if (!session.url) throw new Error('Stripe answered a Checkout session without a URL');
  return session.url;
}
