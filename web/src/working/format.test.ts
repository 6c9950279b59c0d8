import { describe, expect, it } from 'vitest';
import {
  afterMonth,
  cashOutColor,
  deriveColorSets,
  formatNumber,
  formatPercent,
  monthInput,
  normalizeHex,
  percentInput,
  sanitizeNumber,
  textColorOn,
} from './format';

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

describe('input rules', () => {
  it('strips non-numeric characters, keeps a minus and floors decimals', () => {
    expect(sanitizeNumber('1a2,3')).toBe('123');
    expect(sanitizeNumber('-12')).toBe('-12');
    expect(sanitizeNumber('-12', { minus: false })).toBe('12');
    expect(sanitizeNumber('2.345', { decimal: true })).toBe('2.3');
    expect(sanitizeNumber('2.345', { decimal: true, digits: 2 })).toBe('2.34');
  });

  it('reads rates as percentages with one digit, churn with two', () => {
    expect(percentInput('2.55', 'lead_rate')).toBe(0.025);
    expect(percentInput('2.555', 'churn_rate')).toBe(0.0255);
    expect(percentInput('', 'churn_rate')).toBeNull();
  });

  it('keeps month inputs to 1..12 and reverts anything else', () => {
    expect(monthInput('1', '')).toBe('1');
    expect(monthInput('12', '1')).toBe('12');
    expect(monthInput('13', '1')).toBe('1');
    expect(monthInput('a', '4')).toBe('4');
    expect(monthInput('123', '12')).toBe('12');
  });

  it('finds an end before the start', () => {
    expect(afterMonth({ year: 2026, month: 5 }, { year: 2026, month: 4 })).toBe(true);
    expect(afterMonth({ year: 2026, month: 4 }, { year: 2026, month: 4 })).toBe(false);
  });
});

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
