import type { BillingPlan, Standing } from '@topline/contract';
import type Stripe from 'stripe';
import type { Prices } from './stripe';

/**
 * A customer's subscriptions as Stripe has them, read for the account: which statuses give the tier, which one
 * governs the account, and its plan as the spec shows it.
 */

/** Stripe's statuses in which a subscription's tier applies. */
export const LIVE = new Set(['active', 'trialing']);
/** Statuses of a subscription that is over, or never began: a new subscription goes through Checkout. */
export const OVER = new Set(['canceled', 'incomplete_expired', 'incomplete']);
/** Statuses of a subscription whose payment failed: its tier is gone until a payment goes through. */
export const UNPAID = new Set(['past_due', 'unpaid', 'incomplete', 'incomplete_expired']);

/** Higher is more: whether a change of tier took something away. */
export const RANK: Record<Standing, number> = { free: 0, trial: 1, basic: 2, team: 3 };
export const rankOf = (standing: string | null): number => RANK[standing as Standing] ?? 0;

export const iso = (value: Date | string | number | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  return new Date(typeof value === 'number' ? value * 1000 : value).toISOString();
};

/** The customer's subscriptions, from Stripe. */
export async function subscriptionsOf(stripe: Stripe, customer: string): Promise<Stripe.Subscription[]> {
  return (await stripe.subscriptions.list({ customer, status: 'all', limit: 20 })).data;
}

export /** The subscription the account is governed by: a live one (the highest tier), else the newest. */
function governing(subscriptions: Stripe.Subscription[], prices: Prices): Stripe.Subscription | null {
  const newestFirst = [...subscriptions].sort((a, b) => b.created - a.created);
  const live = newestFirst.filter((s) => LIVE.has(s.status));
  if (live.length > 0) {
    const tierRank = (s: Stripe.Subscription) => rankOf(prices.find(priceIdOf(s))?.tier ?? 'free');
    return live.reduce((best, s) => (tierRank(s) > tierRank(best) ? s : best));
  }
  return newestFirst.find((s) => !OVER.has(s.status)) ?? newestFirst[0] ?? null;
}

export const priceIdOf = (subscription: Stripe.Subscription): string | null =>
  subscription.items.data[0]?.price.id ?? null;

/** The end of the period paid for: the latest of the items' (Stripe keeps it per item). */
export function periodEnd(subscription: Stripe.Subscription): number | null {
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
