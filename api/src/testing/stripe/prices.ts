/** Prices: the ones the tests configure, and how Stripe answers and charges them. */

export interface PriceDef {
  id: string;
  /** In the currency's minor unit (cents; yen have none). */
  unit_amount: number;
  currency: string;
  interval: 'month' | 'year';
  /** The price in other currencies, by lower-case ISO code. */
  currency_options?: Record<string, { unit_amount: number }>;
}

/**
 * The spec's prices (product-and-account.md section 9) as the tests configure them, in yen with the dollars in
 * `currency_options` (in cents): Basic 9,980 yen or $98 a month; yearly 8,483 x 12 = 101,796 yen or $84 x 12 = $1,008;
 * Team 14,980 yen or $149; yearly 12,733 x 12 = 152,796 yen or $127 x 12 = $1,524. Fresh objects on each call: the
 * stand-in serves the objects it is given, and a test may change one.
 */
export const specPrices = (): PriceDef[] => [
  {
    id: 'price_basic_month',
    unit_amount: 9980,
    currency: 'jpy',
    interval: 'month',
    currency_options: { usd: { unit_amount: 9800 } },
  },
  {
    id: 'price_basic_year',
    unit_amount: 101_796,
    currency: 'jpy',
    interval: 'year',
    currency_options: { usd: { unit_amount: 100_800 } },
  },
  {
    id: 'price_team_month',
    unit_amount: 14_980,
    currency: 'jpy',
    interval: 'month',
    currency_options: { usd: { unit_amount: 14_900 } },
  },
  {
    id: 'price_team_year',
    unit_amount: 152_796,
    currency: 'jpy',
    interval: 'year',
    currency_options: { usd: { unit_amount: 152_400 } },
  },
];

/** A price as Stripe answers it: `currency_options` only when expanded (Stripe's "includable" field). */
export function priceObject(price: PriceDef, withOptions = false) {
  return {
    id: price.id,
    object: 'price' as const,
    active: true,
    currency: price.currency,
    unit_amount: price.unit_amount,
    recurring: { interval: price.interval, interval_count: 1 },
    type: 'recurring' as const,
    ...(withOptions
      ? {
          currency_options: {
            [price.currency]: { unit_amount: price.unit_amount, tax_behavior: 'unspecified' },
            ...Object.fromEntries(
              Object.entries(price.currency_options ?? {}).map(([currency, option]) => [
                currency,
                { unit_amount: option.unit_amount, tax_behavior: 'unspecified' },
              ]),
            ),
          },
        }
      : {}),
  };
}

/** The price's amount in a currency (its own, or one of its `currency_options`); undefined when it has none. */
export function amountIn(price: PriceDef, currency: string): number | undefined {
  const code = currency.toLowerCase();
  return code === price.currency ? price.unit_amount : price.currency_options?.[code]?.unit_amount;
}

/** Stripe's currencies without a minor unit, of those the tests use. */
const ZERO_DECIMAL = new Set(['jpy', 'krw']);
/** An amount in minor units as the hosted pages show it: 14980 JPY, 1008.00 USD. */
export const shownAmount = (amount: number, currency: string) =>
  `${ZERO_DECIMAL.has(currency) ? String(amount) : (amount / 100).toFixed(2)} ${currency.toUpperCase()}`;

export type PriceObject = ReturnType<typeof priceObject>;
