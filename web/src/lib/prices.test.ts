import { describe, expect, it } from 'vitest';
import { formatPrice, monthlyPrice } from './prices';

describe('prices', () => {
  it('quotes the yen prices monthly and annually (15% off)', () => {
    expect(monthlyPrice('JPY', 'basic', 'monthly')).toBe(9_980);
    expect(monthlyPrice('JPY', 'basic', 'annual')).toBe(8_483);
    expect(monthlyPrice('JPY', 'team', 'annual')).toBe(12_733);
    expect(Math.floor(9_980 * 0.85)).toBe(8_483);
  });

  it('quotes the dollar prices', () => {
    expect(monthlyPrice('USD', 'basic', 'annual')).toBe(84);
    expect(monthlyPrice('USD', 'team', 'monthly')).toBe(149);
    expect(formatPrice('USD', 127)).toBe('$127');
    expect(formatPrice('JPY', 14_980)).toBe('¥14,980');
  });
});
