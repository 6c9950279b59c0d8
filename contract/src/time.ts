/**
 * Time rules both sides apply alike. Calendar days and months are taken in UTC, so the API and every browser agree
 * on which month is "current" (ACT months, runway) and on how many trial days are left, whatever the local zone.
 */
import { planMonthOf, yearOf } from '@topline/engine/calendar';
import { PLAN_YEARS } from '@topline/engine/schema';

export interface CalendarMonth {
  year: number;
  month: number;
}

/** The calendar month a plan is read at: the "current" month of MODEL.md section 1. */
export const asOfMonth = (today: Date): CalendarMonth => ({
  year: today.getUTCFullYear(),
  month: today.getUTCMonth() + 1,
});

/** The day of `date` (UTC) as YYYY-MM-DD. */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/**
 * The plan year shown first: the one that holds the as-of month, clamped to 1..6 (MODEL.md section 1). A plan that
 * starts 2024/04 is in year 2 during 2025/04..2026/03.
 */
export function currentPlanYear(startYear: number, startMonth: number, today: Date): number {
  const asOf = asOfMonth(today);
  const t = planMonthOf(startYear, startMonth, asOf.year, asOf.month);
  return Math.min(PLAN_YEARS, Math.max(1, yearOf(t)));
}

/**
 * Whole days from today (UTC) to the trial's last day: 0 on the last day, negative once it has passed; null when
 * there is no trial end.
 * @param trialEnd an ISO date or timestamp
 */
export function trialDaysLeft(trialEnd: string | null, today: Date): number | null {
  if (trialEnd === null) return null;
  const end = Date.parse(isoDay(new Date(trialEnd)));
  return Math.round((end - Date.parse(isoDay(today))) / 86_400_000);
}
