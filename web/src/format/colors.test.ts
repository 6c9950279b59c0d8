import { describe, expect, it } from 'vitest';
import { cashOutColor, deriveColorSets, normalizeHex, textColorOn } from './colors';

describe('colours', () => {
  it('normalises hex values', () => {
    expect(normalizeHex('#ABC')).toBe('#aabbcc');
    expect(normalizeHex('6C4ED9')).toBe('#6c4ed9');
    expect(normalizeHex('#12345')).toBeNull();
  });

  it('writes white text above brightness 65', () => {
    expect(textColorOn('#000000')).toBe('#1d1b29');
    expect(textColorOn('#6c4ed9')).toBe('#ffffff');
    // brightness of #404040 is 64: dark text; #424242 is 66: white.
    expect(textColorOn('#404040')).toBe('#1d1b29');
    expect(textColorOn('#424242')).toBe('#ffffff');
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
