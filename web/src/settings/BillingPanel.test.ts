import { describe, expect, it } from 'vitest';
import { type Billing, billingMessages, formatDate } from './BillingPanel';

const t = (key: string, values?: Record<string, string>) => `${key}${values ? ` ${JSON.stringify(values)}` : ''}`;

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
  });

  it('writes dates as year/month/day', () => {
    expect(formatDate('2026-03-05T12:00:00Z')).toBe('2026/03/05');
    expect(formatDate(null)).toBe('');
  });
});
