import { describe, expect, it } from 'vitest';
import { formatNumber, formatPercent } from './numbers';

describe('number display', () => {
  it('uses thousands separators and a triangle for negatives', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(-1234.4)).toBe('▲1,234');
    expect(formatNumber(-0.2)).toBe('0');
    expect(formatNumber(null)).toBe('');
    expect(formatPercent(0.0234)).toBe('2.3%');
    expect(formatPercent(-0.5)).toBe('▲50.0%');
  });
});
