import { ApiError } from '@topline/contract';
import { describe, expect, it } from 'vitest';
import { errorFor } from '../api/client';
import { billingCurrencyOf, priceCurrencyOf } from '../lib/prices';
import { type Billing, billingMessages, formatAmount, formatDate, loadFailure } from './BillingPanel';
import { tierNoticeMessages } from './TierNotice';

const t = (key: string, values?: Record<string, string | number>) =>
  `${key}${values ? ` ${JSON.stringify(values)}` : ''}`;

function billing(status: string, end: string | null): Billing {
  return { plan: { status, current_period_end: end }, last4: null, exp_year: null, exp_month: null, invoice_list: [] };
}

describe('billing messages', () => {
  it('shows both cancellation messages with the period end when cancellation is scheduled', () => {
    expect(billingMessages(billing('scheduled_canceled', '2026-12-31T12:00:00Z'), t)).toEqual([
      'settings.scheduledCanceled',
      'settings.scheduledCanceledEnd {"date":"2026/12/31"}',
    ]);
  });

  it('shows the renewal date otherwise, and nothing without a period end', () => {
    expect(billingMessages(billing('active', '2027-01-15T12:00:00Z'), t)).toEqual([
      'settings.scheduled {"date":"2027/01/15"}',
    ]);
    expect(billingMessages(billing('active', null), t)).toEqual([]);
    // A subscription that ended renews nothing.
    expect(billingMessages(billing('canceled', '2027-01-15T12:00:00Z'), t)).toEqual([]);
  });

  it('writes dates as year/month/day', () => {
    expect(formatDate('2026-03-05T12:00:00Z')).toBe('2026/03/05');
    expect(formatDate(null)).toBe('');
  });
});

describe('invoice totals and the notice of a lower tier', () => {
  it('writes a total in its currency: yen and dollars as the price table does, others with their code', () => {
    expect(formatAmount('JPY', 14980)).toBe('¥14,980');
    expect(formatAmount('USD', 149)).toBe('$149');
    expect(formatAmount('EUR', 98.5)).toBe('98.5 EUR');
  });

  it('says why the tier went down, which plans are read-only and how many members only view', () => {
    const notice = {
      reason: 'subscription_ended' as const,
      from: 'team' as const,
      to: 'free' as const,
      at: '2026-11-30T12:00:00Z',
      read_only_plans: [12, 13],
      viewer_only_members: 3,
    };
    expect(tierNoticeMessages(notice, t)).toEqual([
      'settings.down.subscription_ended {"plan":"landing.plans.free.name","date":"2026/11/30"}',
      'settings.down.readOnly {"count":2}',
      'settings.down.viewers {"count":3}',
    ]);
    expect(tierNoticeMessages({ ...notice, read_only_plans: [], viewer_only_members: 0 }, t)).toHaveLength(1);
  });
});

describe('why the billing could not be loaded', () => {
  const unavailable = (message: string) =>
    errorFor(503, 'GET', { title: 'Unavailable', message, code: 'unavailable' }, (key) => key);

  it('tells billing that is not configured from billing out of reach', () => {
    expect(loadFailure(unavailable('billing is not configured'))).toBe('not_configured');
    // Stripe out of reach: the API's 503 with another message.
    expect(loadFailure(unavailable('billing is not available now; try again later'))).toBe('unreachable');
    // A proxy's empty 502, a 500, or no answer at all.
    expect(loadFailure(errorFor(502, 'GET', null, (key) => key))).toBe('unreachable');
    expect(loadFailure(new ApiError(500, { title: 'x', message: 'billing is not configured', code: 'internal' }))).toBe(
      'unreachable',
    );
    expect(loadFailure(new TypeError('Failed to fetch'))).toBe('unreachable');
  });
});

describe('the currency sent to Checkout', () => {
  it("is Stripe's lower-case code of the currency shown, and a subscription's currency is shown as is", () => {
    expect(billingCurrencyOf('JPY')).toBe('jpy');
    expect(billingCurrencyOf('USD')).toBe('usd');
    expect(priceCurrencyOf('usd')).toBe('USD');
    expect(priceCurrencyOf('JPY')).toBe('JPY');
    expect(priceCurrencyOf('EUR')).toBeUndefined();
  });
});
