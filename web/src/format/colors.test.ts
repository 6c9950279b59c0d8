import { describe, expect, it } from 'vitest';
import { cashOutColor, deriveColorSets, normalizeHex } from './colors';

describe('colours', () => {
  it('normalises hex values', () => {
    expect(normalizeHex('#ABC')).toBe('#aabbcc');
    expect(normalizeHex('6C4ED9')).toBe('#6c4ed9');
    expect(normalizeHex('#12345')).toBeNull();
  });

  it('derives the 2nd and 3rd sets from the first', () => {
    const sets = deriveColorSets({ arr: '#000000', pl: '#ffffff', gross_profit: '#ff0000' });
    expect(sets).toHaveLength(3);
    expect(sets[1]?.pl).toBe('#ffffff');
    expect(sets[2]?.arr).toBe('#a6a6a6');
  });

  it('colours the cash-out runway', () => {
    expect(cashOutColor(12)).toBe('red');
    expect(cashOutColor(13)).toBe('teal');
    expect(cashOutColor(18)).toBe('teal');
    expect(cashOutColor(19)).toBe('orange');
    expect(cashOutColor(null)).toBe('none');
  });
});
