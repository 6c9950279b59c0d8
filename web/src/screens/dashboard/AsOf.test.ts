import { describe, expect, it } from 'vitest';
import { asOfMonth } from './AsOf';

describe('the month the dashboard is as of', () => {
  const months = ['2026-04', '2026-05', '2026-06'];

  it('is the latest month with actuals, as YYYY/MM', () => {
    // Plan month 2 of a plan starting in April 2026.
    expect(asOfMonth(months, 2)).toBe('2026/05');
    expect(asOfMonth(months, 1)).toBe('2026/04');
  });

  it('is none in a plan without actuals', () => {
    expect(asOfMonth(months, null)).toBeNull();
  });
});
