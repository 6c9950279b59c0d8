import { describe, expect, it } from 'vitest';
import { afterMonth, monthInput, sanitizeNumber } from './input';

describe('input rules', () => {
  it('strips non-numeric characters, keeps a minus and floors decimals', () => {
    expect(sanitizeNumber('1a2,3')).toBe('123');
    expect(sanitizeNumber('-12')).toBe('-12');
    expect(sanitizeNumber('-12', { minus: false })).toBe('12');
    expect(sanitizeNumber('2.345', { decimal: true })).toBe('2.3');
    expect(sanitizeNumber('2.345', { decimal: true, digits: 2 })).toBe('2.34');
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
