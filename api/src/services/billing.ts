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
  badRequest,
  conflict,
  editorLimit,
  hasEdit,
  isPlanReadOnly,
  type Standing,
  type Tier,
  type TierDownReason,
  type TierNotice,
  unavailable,
} from '@topline/contract';
import type Stripe from 'stripe';
import type { Db } from '../db';
import type { Logger } from '../logger';
import { rolesOf } from './access';
import { idOf, mainUnits, type Prices } from './stripe';
import { lockUser, tierFrom, type UserRow } from './users';

export interface SubscriptionRow {
  user_id: number;
  tier: string;
  trial_end: string | null;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  status: string;
  current_period_end: Date | string | null;
  price_id: string | null;
  cancel_at_period_end: boolean;
  down_from: string | null;
  down_reason: string | null;
  down_at: Date | string | null;
}

export interface BillingOptions {
  prices: Prices;
  /** The webhook endpoint's signing secret; events are refused without it. */
  webhookSecret: string | undefined;
  /** Where Stripe's Checkout page sends the browser back. */
  publicUrl: string;
  now: () => Date;
  logger: Logger;
}

/** Stripe's statuses in which a subscription's tier applies. */
const LIVE = new Set(['active', 'trialing']);
/** Statuses of a subscription that is over, or never began: a new subscription goes through Checkout. */
const OVER = new Set(['canceled', 'incomplete_expired', 'incomplete']);
/** Statuses of a subscription whose payment failed: its tier is gone until a payment goes through. */
const UNPAID = new Set(['past_due', 'unpaid', 'incomplete', 'incomplete_expired']);

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

/** Higher is more: whether a change of tier took something away. */
const RANK: Record<Standing, number> = { free: 0, trial: 1, basic: 2, team: 3 };
const rankOf = (standing: string | null): number => RANK[standing as Standing] ?? 0;

const iso = (value: Date | string | number | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  return new Date(typeof value === 'number' ? value * 1000 : value).toISOString();
};

/** The subscription the account is governed by: a live one (the highest tier), else the newest. */
function governing(subscriptions: Stripe.Subscription[], prices: Prices): Stripe.Subscription | null {
  const newestFirst = [...subscriptions].sort((a, b) => b.created - a.created);
  const live = newestFirst.filter((s) => LIVE.has(s.status));
  if (live.length > 0) {
    const tierRank = (s: Stripe.Subscription) => rankOf(prices.find(priceIdOf(s))?.tier ?? 'free');
    return live.reduce((best, s) => (tierRank(s) > tierRank(best) ? s : best));
  }
  return newestFirst.find((s) => !OVER.has(s.status)) ?? newestFirst[0] ?? null;
}

const priceIdOf = (subscription: Stripe.Subscription): string | null => subscription.items.data[0]?.price.id ?? null;

/** The end of the period paid for: the latest of the items' (Stripe keeps it per item). */
function periodEnd(subscription: Stripe.Subscription): number | null {
  const ends = subscription.items.data.map((item) => item.current_period_end).filter((end) => end > 0);
  return ends.length > 0 ? Math.max(...ends) : null;
}

/** The plan as the spec shows it: `scheduled_canceled` while a cancellation at the period's end is pending. */
export function planOf(subscription: Stripe.Subscription): BillingPlan {
  const scheduled = LIVE.has(subscription.status) && subscription.cancel_at_period_end;
  return {
    status: scheduled ? 'scheduled_canceled' : subscription.status,
    current_period_end: iso(periodEnd(subscription)),
  };
}

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

  /**
   * POST /billing/webhook: verifies the signature of the raw body, then applies the event once (by its id).
   * What the event says is only a cue: the customer's subscriptions are read again from Stripe, so a late or
   * repeated event cannot bring back an older state.
   * @throws ApiError 400 when the signature does not match (nothing changes), 503 when Stripe cannot be reached (the
   * event is not recorded, so Stripe's retry applies it)
   */
  async webhook(raw: Buffer, signature: string | undefined): Promise<void> {
    const secret = this.options.webhookSecret;
    if (!secret) throw unavailable('billing events are not configured');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(raw, signature ?? '', secret);
    } catch {
      throw badRequest({ 'stripe-signature': 'the signature does not match the body' });
    }
    const object = event.data.object as { customer?: string | { id: string } | null };
    const customer = idOf(object.customer ?? null);
    await guard(this.options.logger, () =>
      this.db.transaction(async (trx) => {
        const fresh = await trx('stripe_events')
          .insert({ id: event.id, type: event.type })
          .onConflict('id')
          .ignore()
          .returning('id');
        if (fresh.length === 0 || !HANDLED.has(event.type) || !customer) return;
        let row = await trx<SubscriptionRow>('subscriptions')
          .where({ stripe_customer_id: customer })
          .forUpdate()
          .first();
        if (!row && event.type === 'checkout.session.completed') {
          row = await this.linkCustomer(trx, event.data.object as Stripe.Checkout.Session, customer);
        }
        if (!row) {
          this.options.logger.info(`billing: ${event.type} ${event.id} is for no account here; left alone`);
          return;
        }
        const session = event.data.object as Stripe.Checkout.Session;
        if (event.type === 'checkout.session.completed' && session.mode === 'setup') {
          await this.useNewCard(session, customer);
        }
        await this.sync(trx, row, customer);
      }),
    );
  }

  /**
   * Runs a billing write of one user: the account row locked (one user's billing writes, plan creations and
   * Stripe's events take turns), the subscription row made if missing. Stripe's refusals become ApiErrors.
   */
  private async forUser<T>(user: UserRow, body: (trx: Db, row: SubscriptionRow) => Promise<T>): Promise<T> {
    return guard(this.options.logger, () =>
      this.db.transaction(async (trx) => {
        await lockUser(trx, user.id);
        await trx('subscriptions').insert({ user_id: user.id, tier: 'free' }).onConflict('user_id').ignore();
        const row = await trx<SubscriptionRow>('subscriptions').where({ user_id: user.id }).forUpdate().first();
        if (!row) throw new Error('subscription row missing after insert');
        return body(trx, row);
      }),
    );
  }

  /** The customer's subscriptions, from Stripe. */
  private async subscriptionsOf(customer: string): Promise<Stripe.Subscription[]> {
    return (await this.stripe.subscriptions.list({ customer, status: 'all', limit: 20 })).data;
  }

  /** The subscription that is running (not over), as Stripe has it now; null when none is. */
  private async running(row: SubscriptionRow): Promise<Stripe.Subscription | null> {
    if (!row.stripe_customer_id) return null;
    const current = governing(await this.subscriptionsOf(row.stripe_customer_id), this.options.prices);
    return current && !OVER.has(current.status) ? current : null;
  }

  /** After a change: the row follows Stripe, and the plan is answered as Stripe has it. */
  private async planAfter(trx: Db, row: SubscriptionRow): Promise<BillingPlan> {
    const current = await this.sync(trx, row, row.stripe_customer_id ?? '');
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

  /** A Checkout session of an account that has no customer id yet (one made elsewhere): links it by the user id. */
  private async linkCustomer(trx: Db, session: Stripe.Checkout.Session, customer: string) {
    const userId = Number(session.client_reference_id);
    if (!Number.isInteger(userId) || userId <= 0) return undefined;
    const row = await trx<SubscriptionRow>('subscriptions').where({ user_id: userId }).forUpdate().first();
    if (!row || row.stripe_customer_id) return undefined;
    await trx('subscriptions').where({ user_id: userId }).update({ stripe_customer_id: customer });
    return { ...row, stripe_customer_id: customer };
  }

  /** The card of a completed setup: the customer's and the running subscription's default from now on. */
  private async useNewCard(session: Stripe.Checkout.Session, customer: string): Promise<void> {
    const setupIntent = idOf(session.setup_intent);
    if (!setupIntent) return;
    const method = idOf((await this.stripe.setupIntents.retrieve(setupIntent)).payment_method);
    if (!method) return;
    await this.stripe.customers.update(customer, { invoice_settings: { default_payment_method: method } });
    const current = governing(await this.subscriptionsOf(customer), this.options.prices);
    if (current && !OVER.has(current.status)) {
      await this.stripe.subscriptions.update(current.id, { default_payment_method: method });
    }
  }

  /**
   * Re-reads the customer's subscriptions from Stripe and writes what the tier needs; the row is locked by the
   * caller. A tier that went down is recorded with why, for the notice.
   * @returns the governing subscription, if any
   */
  private async sync(trx: Db, row: SubscriptionRow, customer: string): Promise<Stripe.Subscription | null> {
    if (!customer) return null;
    const current = governing(await this.subscriptionsOf(customer), this.options.prices);
    const live = current !== null && LIVE.has(current.status);
    const priceId = current ? priceIdOf(current) : null;
    let tier: Tier = 'free';
    if (live && current) {
      const price = this.options.prices.find(priceId);
      if (price) tier = price.tier;
      else {
        this.options.logger.error(
          `billing: subscription ${current.id} of user ${row.user_id} has a price this API is not configured with; the account stays on Free`,
        );
      }
    }
    const now = this.options.now();
    const next = {
      tier,
      // A paid tier ends the trial; without one, the trial (if any) goes on.
      trial_end: tier === 'free' ? row.trial_end : null,
      status: current?.status ?? 'none',
      stripe_subscription_id: current?.id ?? null,
      price_id: priceId,
      current_period_end: current ? (iso(periodEnd(current)) ?? null) : null,
      cancel_at_period_end: current?.cancel_at_period_end ?? false,
    };
    const before = tierFrom(row, now).tier;
    const after = tierFrom(next, now).tier;
    const down: Partial<Pick<SubscriptionRow, 'down_from' | 'down_reason' | 'down_at'>> = {};
    if (rankOf(after) < rankOf(before)) {
      const reason: TierDownReason = current && UNPAID.has(current.status) ? 'payment_failed' : 'subscription_ended';
      Object.assign(down, { down_from: before, down_reason: reason, down_at: now });
    } else if (row.down_from && rankOf(after) >= rankOf(row.down_from)) {
      Object.assign(down, { down_from: null, down_reason: null, down_at: null });
    }
    await trx('subscriptions')
      .where({ user_id: row.user_id })
      .update({ ...next, ...down, updated_at: now });
    return current;
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

/**
 * Stripe's failures as the wire's errors: a refused card is the user's to fix (400); anything else (Stripe out of
 * reach, a key or a price Stripe does not know) is the operator's (503), logged by type and code only: a Stripe
 * message can carry amounts.
 */
async function guard<T>(logger: Logger, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isStripeError(error)) throw error;
    if (error.type === 'StripeCardError') throw badRequest({ card: 'the card was declined; use another card' });
    logger.error(`billing: Stripe refused a call (${error.type} ${error.code ?? ''} ${error.requestId ?? ''})`);
    throw unavailable('billing is not available now; try again later');
  }
}

function isStripeError(error: unknown): error is { type: string; code?: string; requestId?: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { type?: unknown }).type === 'string' &&
    (error as { type: string }).type.startsWith('Stripe')
  );
}

/**
 * What a lower tier changed, for GET /user/me (`tierNotice`): why and since when, the owned plans now read-only,
 * and the members whose can_edit now reads as can_view. Null when the tier has not gone down (or went back up).
 */
export async function tierNoticeFor(db: Db, userId: number, today: Date): Promise<TierNotice | null> {
  const row = await db<SubscriptionRow>('subscriptions').where({ user_id: userId }).first();
  if (!row) return null;
  const info = tierFrom(row, today);
  let down: Pick<TierNotice, 'reason' | 'from' | 'at'> | null = null;
  if (row.down_from && rankOf(info.tier) < rankOf(row.down_from)) {
    down = {
      reason: (row.down_reason as TierDownReason | null) ?? 'subscription_ended',
      from: row.down_from as Standing,
      at: iso(row.down_at) ?? '',
    };
  } else if (row.trial_end && !info.isTrial && info.tier === 'free') {
    // The trial's last day is trial_end; Free began the day after.
    const day = new Date(Date.parse(`${row.trial_end}T00:00:00Z`) + 86_400_000);
    down = { reason: 'trial_ended', from: 'trial', at: day.toISOString() };
  }
  if (!down) return null;
  const owned: number[] = await db('business_plans').where({ owner_id: userId }).orderBy('id').pluck('id');
  let viewers = 0;
  if (editorLimit(info.tier) === 0 && owned.length > 0) {
    const members = await db('plan_members').whereIn('plan_id', owned);
    viewers = members.filter((m) => hasEdit(rolesOf(m))).length;
  }
  return {
    ...down,
    to: info.plan,
    read_only_plans: owned.filter((_, older) => isPlanReadOnly(info.tier, older)),
    viewer_only_members: viewers,
  };
}
