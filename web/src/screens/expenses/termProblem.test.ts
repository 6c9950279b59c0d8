import { describe, expect, it } from 'vitest';
import { termProblem } from './term';

const term = (startYear: string, startMonth: string, endYear: string, endMonth: string) =>
  termProblem({ startYear, startMonth, endYear, endMonth });

describe('the cost item term', () => {
  it('takes a term whose end is not before its start', () => {
    expect(term('2026', '4', '2027', '3')).toBeNull();
    expect(term('2026', '4', '2026', '4')).toBeNull();
    expect(term('2026', '12', '2027', '01')).toBeNull();
  });

  it('names an end before the start', () => {
    expect(term('2026', '4', '2026', '3')).toBe('order');
    expect(term('2026', '4', '2025', '12')).toBe('order');
  });

  it('names a box not filled in: a year of fewer than four digits, a month missing or outside 1 to 12', () => {
    expect(term('202', '4', '2027', '3')).toBe('incomplete');
    expect(term('2026', '', '2027', '3')).toBe('incomplete');
    expect(term('2026', '4', '', '3')).toBe('incomplete');
    expect(term('2026', '4', '2027', '0')).toBe('incomplete');
    expect(term('2026', '4', '2027', '13')).toBe('incomplete');
  });
});
