import { describe, expect, it } from 'vitest';
import type { BusinessPlanItem, User } from '../api/types';
import { hasAccess, screenByKey, screenLocked, showsYearSwitcher } from './screens';

const free: User = {
  email: 'a@b.co',
  name: 'A',
  picture: null,
  company: null,
  plan: { plan: 'free', is_trial: false, trial_end: null },
};

function plan(extra: Partial<BusinessPlanItem>): BusinessPlanItem {
  return {
    business_plan_id: 1,
    business_plan_name: 'Plan',
    business_plan_icon: null,
    is_owner: true,
    template: 'saas',
    start_year: 2025,
    start_month: 1,
    ...extra,
  };
}

describe('shell screens', () => {
  it('follows the server list of locked areas', () => {
    const locked = plan({ locked: ['monthly_pl', 'kpi', 'sales_detail', 'cogs', 'sm', 'rd', 'ga', 'dashboard'] });
    expect(screenLocked(locked, screenByKey('expenses'), free)).toBe(true);
    expect(screenLocked(locked, screenByKey('revenue'), free)).toBe(true);
    expect(screenLocked(locked, screenByKey('pl'), free)).toBe(false);
    expect(screenLocked(locked, screenByKey('home'), free)).toBe(false);
    expect(screenLocked(plan({ locked: [] }), screenByKey('kpi'), free)).toBe(false);
  });

  it('falls back to the Free rule for owners when the server sends no list', () => {
    expect(screenLocked(plan({}), screenByKey('dashboard'), free)).toBe(true);
    expect(screenLocked(plan({ is_owner: false }), screenByKey('dashboard'), free)).toBe(false);
  });

  it('shows the no-access panel only when every area of a screen is no_access', () => {
    const member = plan({ is_owner: false, role: { kpi: 'no_access', cogs: 'no_access', sm: 'can_view' } });
    expect(hasAccess(member, screenByKey('kpi'))).toBe(false);
    expect(hasAccess(member, screenByKey('expenses'))).toBe(true);
    expect(hasAccess(member, screenByKey('home'))).toBe(true);
  });

  it('hides the year switcher on home and P&L', () => {
    expect(showsYearSwitcher('home')).toBe(false);
    expect(showsYearSwitcher('pl')).toBe(false);
    expect(showsYearSwitcher('monthly_pl')).toBe(true);
  });
});
