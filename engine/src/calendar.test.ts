import { describe, expect, it } from 'vitest';
import { calendarOf, isoMonth, isPlanMonth, monthsOfYear, monthWithinYear, planMonthOf, yearOf } from './calendar';

const at = (year: number, month: number) => ({ year, month });

describe('calendarOf and planMonthOf (MODEL.md section 1)', () => {
  it('maps a plan starting in April across the year end and to its last month', () => {
    expect(calendarOf(2024, 4, 1)).toEqual(at(2024, 4));
    expect(calendarOf(2024, 4, 9)).toEqual(at(2024, 12));
    expect(calendarOf(2024, 4, 10)).toEqual(at(2025, 1));
    expect(calendarOf(2024, 4, 12)).toEqual(at(2025, 3));
    expect(calendarOf(2024, 4, 13)).toEqual(at(2025, 4));
    expect(calendarOf(2024, 4, 72)).toEqual(at(2030, 3));
    expect(planMonthOf(2024, 4, 2025, 1)).toBe(10);
    expect(planMonthOf(2024, 4, 2030, 3)).toBe(72);
  });

  it('maps plans starting in January and in December', () => {
    expect(calendarOf(2024, 1, 12)).toEqual(at(2024, 12));
    expect(calendarOf(2024, 1, 13)).toEqual(at(2025, 1));
    expect(calendarOf(2024, 1, 72)).toEqual(at(2029, 12));
    expect(calendarOf(2024, 12, 1)).toEqual(at(2024, 12));
    expect(calendarOf(2024, 12, 2)).toEqual(at(2025, 1));
    expect(calendarOf(2024, 12, 72)).toEqual(at(2030, 11));
  });

  it('gives a real calendar month before the start, across the previous year end', () => {
    expect(calendarOf(2024, 4, 0)).toEqual(at(2024, 3));
    expect(calendarOf(2024, 4, -2)).toEqual(at(2024, 1));
    expect(calendarOf(2024, 4, -3)).toEqual(at(2023, 12));
    expect(calendarOf(2024, 4, -15)).toEqual(at(2022, 12));
    expect(calendarOf(2024, 1, 0)).toEqual(at(2023, 12));
    expect(calendarOf(2024, 1, -11)).toEqual(at(2023, 1));
    expect(calendarOf(2024, 1, -12)).toEqual(at(2022, 12));
    expect(planMonthOf(2024, 4, 2024, 3)).toBe(0);
    expect(planMonthOf(2024, 4, 2023, 12)).toBe(-3);
  });

  it('starts at the start month and goes back one month before it, for every start month', () => {
    for (let start = 1; start <= 12; start++) {
      expect(calendarOf(2025, start, 1)).toEqual(at(2025, start));
      expect(calendarOf(2025, start, 0)).toEqual(start === 1 ? at(2024, 12) : at(2025, start - 1));
      expect(calendarOf(2025, start, 13)).toEqual(at(2026, start));
      // The plan's last month is the one before the start month, five years on.
      expect(calendarOf(2025, start, 72)).toEqual(start === 1 ? at(2030, 12) : at(2031, start - 1));
    }
  });

  it('is undone by planMonthOf for every start month, before, inside and after the plan', () => {
    for (let start = 1; start <= 12; start++) {
      for (let t = -30; t <= 80; t++) {
        const { year, month } = calendarOf(2025, start, t);
        expect(month).toBeGreaterThanOrEqual(1);
        expect(month).toBeLessThanOrEqual(12);
        expect(planMonthOf(2025, start, year, month)).toBe(t);
      }
    }
  });
});

describe('plan years', () => {
  it('puts months 1..12 in year 1 and month 72 in year 6', () => {
    expect([yearOf(1), monthWithinYear(1)]).toEqual([1, 1]);
    expect([yearOf(12), monthWithinYear(12)]).toEqual([1, 12]);
    expect([yearOf(13), monthWithinYear(13)]).toEqual([2, 1]);
    expect([yearOf(72), monthWithinYear(72)]).toEqual([6, 12]);
    expect(yearOf(0)).toBe(0);
    expect(monthsOfYear(2)).toEqual([13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
  });

  it('knows the plan months', () => {
    expect([0, 1, 72, 73, 1.5].map(isPlanMonth)).toEqual([false, true, true, false, false]);
  });

  it('writes a month as YYYY-MM', () => {
    expect(isoMonth(at(2025, 3))).toBe('2025-03');
    expect(isoMonth(calendarOf(2024, 1, 0))).toBe('2023-12');
  });
});
