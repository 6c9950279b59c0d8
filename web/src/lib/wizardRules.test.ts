import { ARPA_RANGE, ARR_RANGE } from '@topline/contract';
import { describe, expect, it } from 'vitest';
import { clampToRange, convertMoney, growthTemplates, startYearOptions } from './wizardRules';

describe('creation wizard sliders', () => {
  it('divides by 100 from yen to dollars and multiplies back', () => {
    expect(convertMoney(5_000_000, 'JPY', 'USD')).toBe(50_000);
    expect(convertMoney(150, 'USD', 'JPY')).toBe(15_000);
    expect(clampToRange(convertMoney(15_000, 'JPY', 'USD'), ARPA_RANGE.USD)).toBe(150);
  });

  it('keeps values on the currency grid', () => {
    expect(clampToRange(5_230_000, ARR_RANGE.JPY)).toBe(5_000_000);
    expect(clampToRange(2_000_000_000, ARR_RANGE.JPY)).toBe(100_000_000);
    expect(clampToRange(1, ARPA_RANGE.USD)).toBe(5);
  });

  it('offers start years from 2018 to six years ahead', () => {
    const years = startYearOptions(new Date('2026-11-22'));
    expect(years[0]).toBe(2018);
    expect(years.at(-1)).toBe(2032);
  });

  it('offers a growth template set per language', () => {
    expect(growthTemplates('ja').map((g) => g.key)).toEqual(['t2d3', 'sansan', 'freee', 'salesforce', 'workday']);
    expect(growthTemplates('en').map((g) => g.key)).toEqual(['t2d3', 'salesforce', 'wix', 'okta', 'workday']);
  });
});
