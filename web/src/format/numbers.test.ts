import { describe, expect, it } from 'vitest';
import { formatNumber, formatPercent, isNegative, isNegativeText } from './numbers';

describe('number display', () => {
  it('uses thousands separators and, in Japanese, a triangle for negatives', () => {
    expect(formatNumber(1234567, 0, 'ja')).toBe('1,234,567');
    expect(formatNumber(-1234.4, 0, 'ja')).toBe('▲1,234');
    expect(formatNumber(-0.2, 0, 'ja')).toBe('0');
    expect(formatNumber(null, 0, 'ja')).toBe('');
    expect(formatPercent(0.0234, 1, 'ja')).toBe('2.3%');
    expect(formatPercent(-0.5, 1, 'ja')).toBe('▲50.0%');
    expect(formatNumber(-2.345, 2, 'ja')).toBe('▲2.35');
  });

  it('shows floating-point residue as 0, never ▲0, -0 or 1e-12 (engine/DECISIONS.md, "Residue")', () => {
    for (const language of ['ja', 'en'] as const) {
      expect(formatNumber(-1e-12, 0, language)).toBe('0');
      expect(formatNumber(4.656612873077393e-10, 0, language)).toBe('0');
      expect(formatNumber(-0.004, 2, language)).toBe('0.00');
      expect(formatNumber(-0, 0, language)).toBe('0');
      expect(formatPercent(-1e-14, 1, language)).toBe('0.0%');
      expect(isNegative(-1e-12)).toBe(false);
    }
  });

  it('shows a minus sign for negatives in English', () => {
    expect(formatNumber(1234567, 0, 'en')).toBe('1,234,567');
    expect(formatNumber(-1234.4, 0, 'en')).toBe('-1,234');
    expect(formatNumber(-1_500_000, 0, 'en')).toBe('-1,500,000');
    // Rounded to nothing: no sign at all.
    expect(formatNumber(-0.2, 0, 'en')).toBe('0');
    expect(formatPercent(-0.5, 1, 'en')).toBe('-50.0%');
    expect(formatPercent(-0.00049, 1, 'en')).toBe('0.0%');
  });

  it('marks as negative (red) exactly the figures below zero', () => {
    expect(isNegative(-1)).toBe(true);
    // -0.2 shows as 0 without decimals: not red; with one decimal it shows ▲0.2.
    expect(isNegative(-0.2)).toBe(false);
    expect(isNegative(-0.2, 1)).toBe(true);
    expect(isNegativeText(formatNumber(-0.2, 0, 'en'))).toBe(false);
    expect(isNegativeText(formatNumber(-3, 0, 'en'))).toBe(true);
    expect(isNegativeText(formatNumber(-3, 0, 'ja'))).toBe(true);
    expect(isNegative(0)).toBe(false);
    expect(isNegative(5)).toBe(false);
    expect(isNegative(null)).toBe(false);
  });
});
