/**
 * Prices per month, tax included (spec section 9). Annual billing is 15% off, shown per month. They are what Stripe
 * charges: each configured Stripe price is the monthly amount, or 12 times the annual side's, in yen with the dollar
 * amount in its `currency_options` (api/README.md, Billing).
 */
import type { BillingCurrency, Tier } from '@topline/contract';

export type PriceCurrency = 'JPY' | 'USD';
export type Billing = 'monthly' | 'annual';

const PRICES: Record<PriceCurrency, Record<Tier, Record<Billing, number>>> = {
  JPY: {
    free: { monthly: 0, annual: 0 },
    basic: { monthly: 9_980, annual: 8_483 },
    team: { monthly: 14_980, annual: 12_733 },
  },
  USD: {
    free: { monthly: 0, annual: 0 },
    basic: { monthly: 98, annual: 84 },
    team: { monthly: 149, annual: 127 },
  },
};

export function monthlyPrice(currency: PriceCurrency, plan: Tier, billing: Billing): number {
  return PRICES[currency][plan][billing];
}

export function formatPrice(currency: PriceCurrency, amount: number): string {
  return currency === 'JPY' ? `¥${amount.toLocaleString('ja-JP')}` : `$${amount.toLocaleString('en-US')}`;
}

/** The currency of POST /billing/create for a currency shown: Stripe's lower-case code. */
export function billingCurrencyOf(currency: PriceCurrency): BillingCurrency {
  return currency === 'JPY' ? 'jpy' : 'usd';
}

/** The currency a price is shown in for an ISO code (JPY, usd); undefined for any other. */
export function priceCurrencyOf(code: string): PriceCurrency | undefined {
  const upper = code.toUpperCase();
  return upper === 'JPY' || upper === 'USD' ? upper : undefined;
}

/** The Japanese page prices in yen, the English one in dollars. */
export function currencyForLanguage(language: 'ja' | 'en'): PriceCurrency {
  return language === 'ja' ? 'JPY' : 'USD';
}
