import type { BillingInterval, PaidTier } from '@topline/contract';
import Stripe from 'stripe';
import type { Config } from '../../config';

/**
 * The Stripe client of the configuration, or null while billing is not configured (no secret key). `STRIPE_API_BASE`
 * points the SDK at another server that speaks Stripe's API (its protocol, host and port): tests serve their own.
 */
export function stripeClient(config: Config): Stripe | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : null;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(config.STRIPE_SECRET_KEY, {
    // Stripe's own retries of a failed connection, with idempotency keys on every POST.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Topline' },
    ...(base
      ? { protocol, host: base.hostname, port: base.port ? Number(base.port) : protocol === 'http' ? 80 : 443 }
      : {}),
  });
}

/** What a Stripe price stands for: a paid tier billed by an interval. */
export interface PriceOf {
  tier: PaidTier;
  interval: BillingInterval;
}

/** The configured price ids (`STRIPE_PRICE_{BASIC,TEAM}_{MONTHLY,YEARLY}`), both ways. */
export class Prices {
  private readonly ids = new Map<string, string>();
  private readonly byId = new Map<string, PriceOf>();

  constructor(config: Config) {
    const configured: [PaidTier, BillingInterval, string | undefined][] = [
      ['basic', 'month', config.STRIPE_PRICE_BASIC_MONTHLY],
      ['basic', 'year', config.STRIPE_PRICE_BASIC_YEARLY],
      ['team', 'month', config.STRIPE_PRICE_TEAM_MONTHLY],
      ['team', 'year', config.STRIPE_PRICE_TEAM_YEARLY],
    ];
    for (const [tier, interval, id] of configured) {
      if (!id) continue;
      this.ids.set(`${tier}:${interval}`, id);
      this.byId.set(id, { tier, interval });
    }
  }

  /** The price id of a plan and interval, if configured. */
  idOf(tier: PaidTier, interval: BillingInterval): string | undefined {
    return this.ids.get(`${tier}:${interval}`);
  }

  /** What a price id stands for; undefined for a price this API was not configured with. */
  find(priceId: string | null | undefined): PriceOf | undefined {
    return priceId ? this.byId.get(priceId) : undefined;
  }
}

/**
 * Stripe's currencies without a minor unit (https://docs.stripe.com/currencies#zero-decimal): their amounts are
 * whole units already.
 */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);

/** A Stripe amount (minor units: cents) in the currency's main unit (dollars); yen stay yen. */
export const mainUnits = (amount: number, currency: string): number =>
  ZERO_DECIMAL.has(currency.toLowerCase()) ? amount : amount / 100;

/** The id of an expandable field (an id, or the object when expanded). */
export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;
