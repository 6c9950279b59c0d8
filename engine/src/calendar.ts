/**
 * Plan months and calendar months (MODEL.md section 1). A plan has 6 years of 12 months from `start_year`/
 * `start_month`; month t = 1..72 of the plan is calendar month `(start_month - 1 + t - 1) mod 12 + 1` of year
 * `start_year + floor((start_month - 1 + t - 1) / 12)`. The mod is the mathematical one (never negative), so a month
 * before the start (t < 1, as a to-do or an import may name) is still a real calendar month. Every package converts
 * through this module; it depends on nothing but the plan's length, so the browser's first bundle may use it.
 */
import { PLAN_MONTHS } from './schema';

export interface CalendarMonth {
  year: number;
  /** 1..12 */
  month: number;
}

/** Calendar year and month (1..12) of plan month t; any integer t, before the start or after the end too. */
export function calendarOf(startYear: number, startMonth: number, t: number): CalendarMonth {
  const n = startMonth - 1 + t - 1;
  return { year: startYear + Math.floor(n / 12), month: (((n % 12) + 12) % 12) + 1 };
}

/** Plan month index of a calendar month; falls outside 1..72 for a month before the start or after the end. */
export function planMonthOf(startYear: number, startMonth: number, year: number, month: number): number {
  return (year - startYear) * 12 + month - startMonth + 1;
}

/** Plan month index t of month k (1..12) of plan year y (MODEL.md section 1). */
export function planMonthAt(year: number, month: number): number {
  return 12 * (year - 1) + month;
}

/** The plan year (1..6 inside the plan) that holds plan month t: months 1..12 are year 1. */
export function yearOf(t: number): number {
  return Math.ceil(t / 12);
}

/** Month k = 1..12 within its plan year of plan month t. */
export function monthWithinYear(t: number): number {
  return t - 12 * (yearOf(t) - 1);
}

/** The 12 plan months of plan year `year`. */
export function monthsOfYear(year: number): number[] {
  return Array.from({ length: 12 }, (_, i) => planMonthAt(year, i + 1));
}

/** Whether t is a month of the plan (an integer in 1..72). */
export function isPlanMonth(t: number): boolean {
  return Number.isInteger(t) && t >= 1 && t <= PLAN_MONTHS;
}

/** A calendar month as `YYYY-MM`, the form dates and month parameters take (a date's prefix). */
export function isoMonth({ year, month }: CalendarMonth): string {
  return `${year}-${String(month).padStart(2, '0')}`;
}
