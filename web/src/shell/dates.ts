/**
 * The dates the shell shows, by the contract's time rules (UTC, as the API counts them): the plan year a plan opens
 * at and the trial days left.
 */
import { currentPlanYear, type PlanListItem, trialDaysLeft, type UserView } from '@topline/contract';

/** The plan year that holds today's month, clamped to 1..6 (MODEL.md section 1). */
export const openingYear = (plan: Pick<PlanListItem, 'start_year' | 'start_month'>, today: Date): number =>
  currentPlanYear(plan.start_year, plan.start_month, today);

/** Days left of a running trial as the API counts them (never below 0); null when the user is not on a trial. */
export function trialDaysShown(plan: UserView['plan'], today: Date): number | null {
  if (!plan.is_trial) return null;
  return Math.max(0, plan.trial_days_left ?? trialDaysLeft(plan.trial_end, today) ?? 0);
}
