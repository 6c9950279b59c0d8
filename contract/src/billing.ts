/**
 * Billing through Stripe (product-and-account.md sections 4, 7 and 9): the requests and answers of the /billing
 * calls, and the notice that tells a user what a lower tier changed. Card details never reach the API: paying and
 * replacing the card happen on Stripe's hosted Checkout page, whose address these answers carry.
 */
import { z } from 'zod';
import { jsonRoute } from './jsonRoute';
import { STANDINGS, TIERS } from './policy';
import { body } from './wire';

/** The tiers a user pays for. */
export const PAID_TIERS = ['basic', 'team'] as const;
export type PaidTier = (typeof PAID_TIERS)[number];
/** Billed every month, or every year at 15% off (product-and-account.md section 9). */
export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/**
 * The currencies a subscription is charged in (product-and-account.md section 9): yen in the Japanese interface,
 * dollars in the English one. Each configured Stripe price has one of them as its own currency and the other in its
 * `currency_options`, at the spec's amounts.
 */
export const BILLING_CURRENCIES = ['jpy', 'usd'] as const;
export type BillingCurrency = (typeof BILLING_CURRENCIES)[number];

/** The message of the 503 of every billing call while STRIPE_SECRET_KEY is not set. */
export const BILLING_NOT_CONFIGURED = 'billing is not configured';

/**
 * POST /billing/create: the plan and interval to subscribe to, or to change the current subscription to; and the
 * currency the Plan tab showed, which Stripe's Checkout charges (without it, the price's own currency). A running
 * subscription keeps its currency when it changes plan or interval: Stripe cannot change a subscription's currency.
 */
export const billingCreateRequest = body({
  plan: z.enum(PAID_TIERS, 'plan must be basic or team'),
  interval: z.enum(BILLING_INTERVALS, 'interval must be month or year'),
  currency: z.enum(BILLING_CURRENCIES, 'currency must be jpy or usd').optional(),
});
export type BillingCreate = z.infer<typeof billingCreateRequest>;

/**
 * The subscription as the Plan tab shows it (spec section 4): Stripe's status (`active`, `trialing`, `past_due`,
 * `canceled`...), or `scheduled_canceled` while a cancellation at the end of the period is pending; the period's end
 * (ISO 8601), when the plan renews or the cancellation takes effect.
 */
export const billingPlan = z.object({ status: z.string(), current_period_end: z.string().nullable() });
export type BillingPlan = z.infer<typeof billingPlan>;

/**
 * Where Stripe's Checkout page sends the browser back: this path of the web app, with `result` = `paid` (a new
 * subscription), `card_saved` (the card was replaced) or `cancelled` (the user left the page). The tier follows once
 * Stripe's event arrives, usually within seconds: the web re-reads /user/me and /billing/retrieve.
 */
export const BILLING_RETURN_PATH = '/billing/return';
export const BILLING_RETURNS = ['paid', 'card_saved', 'cancelled'] as const;
export type BillingReturn = (typeof BILLING_RETURNS)[number];

/** Where the browser goes next: Stripe's hosted Checkout page; it comes back to the app when done or cancelled. */
export const checkoutAnswer = z.object({ data: z.object({ url: z.string() }) });

/**
 * POST /billing/create: `{url}` when the user must pay on Stripe's page first (a new subscription), or the
 * subscription's plan `{status, current_period_end}` when the change took effect at once (another plan or interval
 * of a running subscription, which also takes back a scheduled cancellation).
 */
export const billingCreateAnswer = z.object({
  data: z.union([z.object({ url: z.string() }), billingPlan]),
});

/** POST /billing/cancel and /billing/restore: the subscription's plan after the change. */
export const billingPlanAnswer = z.object({ data: billingPlan });

/** One invoice: Stripe's page for it, when it was made, and its total in the currency's main unit (98, or 9980). */
export const invoiceItem = z.object({
  url: z.string(),
  created_at: z.string(),
  price: z.number(),
  /** ISO 4217, upper case: JPY, USD. */
  currency: z.string(),
});

/** GET /billing/retrieve: the spec's `data.invoice`, read from Stripe, and what the current subscription is. */
export const billingAnswer = z.object({
  data: z.object({
    invoice: z.object({
      plan: billingPlan.nullable(),
      last4: z.string().nullable(),
      exp_year: z.number().nullable(),
      exp_month: z.number().nullable(),
      /** Newest first. */
      invoice_list: z.array(invoiceItem),
    }),
    /**
     * The plan and interval paid for, for the plan comparison to mark, and the currency the subscription is charged
     * in (ISO 4217, upper case: JPY, USD), which a change of plan keeps; null without a subscription.
     */
    subscription: z
      .object({ plan: z.enum(PAID_TIERS), interval: z.enum(BILLING_INTERVALS), currency: z.string() })
      .nullable(),
  }),
});
export type BillingAnswer = z.infer<typeof billingAnswer>;

/** POST /billing/webhook: Stripe's event, read as the raw bytes its signature covers (never parsed before). */
export const webhookRequest = z.unknown();
export const webhookAnswer = z.object({ received: z.literal(true) });

/**
 * Why the account's tier went down: the trial ended without a subscription, the subscription ended (cancelled, or
 * given up after failed payments), or a payment failed (the subscription is no longer active).
 */
export const TIER_DOWN_REASONS = ['trial_ended', 'subscription_ended', 'payment_failed'] as const;
export type TierDownReason = (typeof TIER_DOWN_REASONS)[number];

/**
 * What a lower tier changed, for the web to tell the user (GET /user/me `data.notice`); null when the tier has not
 * gone down, or went back up since. Nothing was deleted: plans over the new limit are readable but read-only until
 * the user upgrades or deletes one, and members' can_edit reads as can_view where the tier has no editors.
 */
export const tierNotice = z.object({
  reason: z.enum(TIER_DOWN_REASONS),
  /** The tier (or the trial) the account had. */
  from: z.enum(STANDINGS),
  /** The tier it has now. */
  to: z.enum(TIERS),
  /** When it went down (ISO 8601). */
  at: z.string(),
  /** The user's own plans that are read-only now, by id. */
  read_only_plans: z.array(z.number()),
  /** Members of the user's plans whose can_edit reads as can_view now. */
  viewer_only_members: z.number(),
});
export type TierNotice = z.infer<typeof tierNotice>;

const SIGNED_IN = { kind: 'signed_in' } as const;
const noInput = z.strictObject({});

/** Billing through Stripe, spread into the route table: every call answers 503 `unavailable` while not configured. */
export const billingRoutes = {
  billingRetrieve: jsonRoute('GET', '/billing/retrieve', noInput, billingAnswer, SIGNED_IN),
  billingCreate: jsonRoute('POST', '/billing/create', billingCreateRequest, billingCreateAnswer, SIGNED_IN),
  /** Replacing the card: the URL of Stripe's page that collects the new one. */
  billingPaymentAttach: jsonRoute('POST', '/billing/payment/attach', noInput, checkoutAnswer, SIGNED_IN),
  billingCancel: jsonRoute('POST', '/billing/cancel', noInput, billingPlanAnswer, SIGNED_IN),
  billingRestore: jsonRoute('POST', '/billing/restore', noInput, billingPlanAnswer, SIGNED_IN),
  /** Stripe's events; the signature of the raw body is the sign-in (400 when it does not match). */
  billingWebhook: jsonRoute('POST', '/billing/webhook', webhookRequest, webhookAnswer, { kind: 'public' } as const),
};
