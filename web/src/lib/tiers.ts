import type { BusinessPlanItem, Tier, User } from '../api/types';

/** Tier rules mirrored from the server (spec section 6 and 9); the API enforces them. */

export function tierOf(user: User | null | undefined): Tier {
  const plan = user?.plan.plan.toLowerCase() ?? 'free';
  if (user?.plan.is_trial) return 'free';
  if (plan === 'basic' || plan === 'team') return plan;
  return 'free';
}

const OWNED_PLAN_LIMIT: Record<Tier, number> = { free: 1, basic: 2, team: 3 };

export function ownedPlanLimit(user: User | null | undefined): number {
  return user?.plan.owned_plan_limit ?? OWNED_PLAN_LIMIT[tierOf(user)];
}

export function ownedPlans(plans: readonly BusinessPlanItem[]): BusinessPlanItem[] {
  return plans.filter((plan) => plan.is_owner);
}

export function canCreatePlan(user: User | null | undefined, plans: readonly BusinessPlanItem[]): boolean {
  return ownedPlans(plans).length < ownedPlanLimit(user);
}

/** Screens the Free tier (and a trial) locks for owners: everything except home, P&L and Setting. */
export const TIER_LOCKED_SCREENS = ['dashboard', 'monthly_pl', 'kpi', 'revenue', 'expenses'] as const;
export type ScreenKey = 'home' | 'pl' | 'setting' | (typeof TIER_LOCKED_SCREENS)[number];

export function isTierLocked(user: User | null | undefined, screen: ScreenKey): boolean {
  return tierOf(user) === 'free' && (TIER_LOCKED_SCREENS as readonly string[]).includes(screen);
}

export function showsKnowledge(user: User | null | undefined): boolean {
  return tierOf(user) !== 'free';
}

/** Whole days from today until the trial end (never negative). */
export function trialDaysLeft(trialEnd: string | null, today: Date = new Date()): number {
  if (!trialEnd) return 0;
  const end = new Date(trialEnd);
  const startOfToday = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  const startOfEnd = Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate());
  return Math.max(0, Math.round((startOfEnd - startOfToday) / 86_400_000));
}
