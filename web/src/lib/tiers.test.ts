import { describe, expect, it } from 'vitest';
import type { BusinessPlanItem, User } from '../api/types';
import { canCreatePlan, isTierLocked, ownedPlanLimit, showsKnowledge, trialDaysLeft } from './tiers';

function user(plan: string, isTrial = false): User {
  return {
    email: 'a@b.co',
    name: 'A',
    picture: null,
    company: null,
    plan: { plan, is_trial: isTrial, trial_end: null },
  };
}

function plans(owned: number, shared = 0): BusinessPlanItem[] {
  return Array.from({ length: owned + shared }, (_, i) => ({
    business_plan_id: i + 1,
    business_plan_name: `Plan ${i + 1}`,
    business_plan_icon: null,
    is_owner: i < owned,
    template: 'saas',
    start_year: 2025,
    start_month: 1,
  }));
}

describe('tiers', () => {
  it('allows 1, 2 and 3 owned plans on Free (and trial), Basic and Team', () => {
    expect(ownedPlanLimit(user('Free'))).toBe(1);
    expect(ownedPlanLimit(user('basic', true))).toBe(1);
    expect(ownedPlanLimit(user('Basic'))).toBe(2);
    expect(ownedPlanLimit(user('team'))).toBe(3);
    expect(canCreatePlan(user('free'), plans(0, 2))).toBe(true);
    expect(canCreatePlan(user('free'), plans(1))).toBe(false);
    expect(canCreatePlan(user('basic'), plans(1))).toBe(true);
    expect(canCreatePlan(user('team'), plans(3))).toBe(false);
  });

  it('locks every screen but home, P&L and Setting on Free', () => {
    expect(isTierLocked(user('free'), 'kpi')).toBe(true);
    expect(isTierLocked(user('free'), 'dashboard')).toBe(true);
    expect(isTierLocked(user('free'), 'pl')).toBe(false);
    expect(isTierLocked(user('free'), 'home')).toBe(false);
    expect(isTierLocked(user('basic'), 'kpi')).toBe(false);
  });

  it('hides Knowledge on Free', () => {
    expect(showsKnowledge(user('free'))).toBe(false);
    expect(showsKnowledge(user('team'))).toBe(true);
  });

  it('counts the trial days left', () => {
    expect(trialDaysLeft('2026-12-01', new Date(2026, 10, 22))).toBe(9);
    expect(trialDaysLeft('2026-11-01', new Date(2026, 10, 22))).toBe(0);
  });
});
