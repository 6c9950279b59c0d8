import type { Logger } from '../../logger';
import type { Prices } from './stripe';

/** A user's row of `subscriptions`: what the tier needs of Stripe's subscriptions, and the last tier that went down. */
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
