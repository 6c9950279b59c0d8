import { calendarOf, monthsOfYear } from '@topline/engine/calendar';
import { PLAN_YEARS } from '@topline/engine/schema';

/** The 12 month labels (year/month) of plan year `year` (1 to 6) for a plan starting at startYear/startMonth. */
export function yearMonths(startYear: number, startMonth: number, year: number): string[] {
  return monthsOfYear(year).map((t) => {
    const { year: calendarYear, month } = calendarOf(startYear, startMonth, t);
    return `${calendarYear}/${String(month).padStart(2, '0')}`;
  });
}

export const FIRST_YEAR = 1;
export const LAST_YEAR = PLAN_YEARS;
