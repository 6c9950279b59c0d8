import { badRequest, unavailable } from '@topline/contract';
import type Stripe from 'stripe';
import type { Db } from '../../db';
import { syncSubscription } from './billingSync';
import type { BillingOptions, SubscriptionRow } from './billingTypes';
import { idOf } from './stripe';
import { guard } from './stripeErrors';
import { governing, OVER, subscriptionsOf } from './subscriptionStatus';

/** The events that can change what a customer has; every other event is recorded and left alone. */
const HANDLED = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.paid',
  'invoice.payment_failed',
]);

/**
 * POST /billing/webhook: verifies the signature of the raw body, then applies the event once (by its id).
 * What the event says is only a cue: the customer's subscriptions are read again from Stripe, so a late or
 * repeated event cannot bring back an older state.
 * @throws ApiError 400 when the signature does not match (nothing changes), 503 when Stripe cannot be reached (the
 * event is not recorded, so Stripe's retry applies it)
 */
export async function applyWebhook(
  db: Db,
  stripe: Stripe,
  options: BillingOptions,
  raw: Buffer,
  signature: string | undefined,
): Promise<void> {
  const secret = options.webhookSecret;
  if (!secret) throw unavailable('billing events are not configured');
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(raw, signature ?? '', secret);
  } catch {
    throw badRequest({ 'stripe-signature': 'the signature does not match the body' });
  }
  const object = event.data.object as { customer?: string | { id: string } | null };
  const customer = idOf(object.customer ?? null);
  await guard(options.logger, () =>
    db.transaction(async (trx) => {
      const fresh = await trx('stripe_events')
        .insert({ id: event.id, type: event.type })
        .onConflict('id')
        .ignore()
        .returning('id');
      if (fresh.length === 0 || !HANDLED.has(event.type) || !customer) return;
      let row = await trx<SubscriptionRow>('subscriptions').where({ stripe_customer_id: customer }).forUpdate().first();
      if (!row && event.type === 'checkout.session.completed') {
        row = await linkCustomer(trx, event.data.object as Stripe.Checkout.Session, customer);
      }
      if (!row) {
        options.logger.info(`billing: ${event.type} ${event.id} is for no account here; left alone`);
        return;
      }
      const session = event.data.object as Stripe.Checkout.Session;
      if (event.type === 'checkout.session.completed' && session.mode === 'setup') {
        await useNewCard(stripe, options, session, customer);
      }
      await syncSubscription(stripe, options, trx, row, customer);
    }),
  );
}

/** A Checkout session of an account that has no customer id yet (one made elsewhere): links it by the user id. */
async function linkCustomer(trx: Db, session: Stripe.Checkout.Session, customer: string) {
  const userId = Number(session.client_reference_id);
  if (!Number.isInteger(userId) || userId <= 0) return undefined;
  const row = await trx<SubscriptionRow>('subscriptions').where({ user_id: userId }).forUpdate().first();
  if (!row || row.stripe_customer_id) return undefined;
  await trx('subscriptions').where({ user_id: userId }).update({ stripe_customer_id: customer });
  return { ...row, stripe_customer_id: customer };
}

/** The card of a completed setup: the customer's and the running subscription's default from now on. */
async function useNewCard(
  stripe: Stripe,
  options: BillingOptions,
  session: Stripe.Checkout.Session,
  customer: string,
): Promise<void> {
  const setupIntent = idOf(session.setup_intent);
  if (!setupIntent) return;
  const method = idOf((await stripe.setupIntents.retrieve(setupIntent)).payment_method);
  if (!method) return;
  await stripe.customers.update(customer, { invoice_settings: { default_payment_method: method } });
  const current = governing(await subscriptionsOf(stripe, customer), options.prices);
  if (current && !OVER.has(current.status)) {
    await stripe.subscriptions.update(current.id, { default_payment_method: method });
  }
}
