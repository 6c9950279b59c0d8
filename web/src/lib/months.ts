import { PLAN_YEARS } from '@topline/engine/src/schema';

/** The 12 month labels (year/month) of plan year `year` (1 to 6) for a plan starting at startYear/startMonth. */
export function yearMonths(startYear: number, startMonth: number, year: number): string[] {
  const labels: string[] = [];
  for (let i = 0; i < 12; i += 1) {
    const index = startMonth - 1 + (year - 1) * 12 + i;
    const calendarYear = startYear + Math.floor(index / 12);
    const month = (index % 12) + 1;
    labels.push(`${calendarYear}/${String(month).padStart(2, '0')}`);
  }
  return labels;
}

export const FIRST_YEAR = 1;
export const LAST_YEAR = PLAN_YEARS;
