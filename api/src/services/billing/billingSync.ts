import type { Tier, TierDownReason } from '@topline/contract';
import type Stripe from 'stripe';
import type { Db } from '../../db';
import { tierFrom } from '../accounts/users';
import type { BillingOptions, SubscriptionRow } from './billingTypes';
import { governing, iso, LIVE, periodEnd, priceIdOf, rankOf, subscriptionsOf, UNPAID } from './subscriptionStatus';

/**
 * Re-reads the customer's subscriptions from Stripe and writes what the tier needs; the row is locked by the
 * caller. A tier that went down is recorded with why, for the notice.
 * @returns the governing subscription, if any
 */
export async function syncSubscription(
  stripe: Stripe,
  options: BillingOptions,
  trx: Db,
  row: SubscriptionRow,
  customer: string,
): Promise<Stripe.Subscription | null> {
  if (!customer) return null;
  const current = governing(await subscriptionsOf(stripe, customer), options.prices);
  const live = current !== null && LIVE.has(current.status);
  const priceId = current ? priceIdOf(current) : null;
  let tier: Tier = 'free';
  if (live && current) {
    const price = options.prices.find(priceId);
    if (price) tier = price.tier;
    else {
      options.logger.error(
        `billing: subscription ${current.id} of user ${row.user_id} has a price this API is not configured with; the account stays on Free`,
      );
    }
  }
  const now = options.now();
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
