import { fullRoles, lockedScreens, type PlanListItem, type Roles } from '@topline/contract';
import { describe, expect, it } from 'vitest';
import { hasAccess, SCREENS, screenByKey, screenLocked, showsYearSwitcher } from './screens';

function plan(extra: Partial<PlanListItem>): PlanListItem {
  return {
    business_plan_id: 1,
    business_plan_name: 'Plan',
    business_plan_icon: null,
    is_owner: true,
    template: 'saas',
    currency: 'JPY',
    start_year: 2025,
    start_month: 1,
    theme_color: 'purple',
    role: fullRoles(),
    locked: [],
    cases: [],
    version: 1,
    ...extra,
  };
}

const FREE_LOCKED: PlanListItem['locked'] = [
  'monthly_pl',
  'kpi',
  'sales_detail',
  'cogs',
  'sm',
  'rd',
  'ga',
  'dashboard',
  'actuals',
];

describe('shell screens', () => {
  it('follows the server list of locked areas', () => {
    const locked = plan({ locked: FREE_LOCKED });
    expect(screenLocked(locked, screenByKey('expenses'))).toBe(true);
    expect(screenLocked(locked, screenByKey('revenue'))).toBe(true);
    expect(screenLocked(locked, screenByKey('pl'))).toBe(false);
    expect(screenLocked(locked, screenByKey('home'))).toBe(false);
    expect(screenLocked(locked, screenByKey('setting'))).toBe(false);
    expect(screenLocked(plan({ locked: [] }), screenByKey('kpi'))).toBe(false);
  });

  it("locks the screens the contract's Free policy locks, given the areas the API lists for a Free owner", () => {
    const locked = plan({ locked: FREE_LOCKED });
    const shown = SCREENS.filter((screen) => screenLocked(locked, screen)).map((screen) => screen.key);
    expect(shown.sort()).toEqual([...lockedScreens('free')].sort());
    expect(lockedScreens('basic')).toEqual([]);
  });

  it('shows the no-access panel only when every area of a screen is no_access', () => {
    const role: Roles = {
      ...fullRoles(),
      kpi: 'no_access',
      cogs: 'no_access',
      sm: 'can_view',
      rd: 'no_access',
      ga: 'no_access',
    };
    const member = plan({ is_owner: false, role });
    expect(hasAccess(member, screenByKey('kpi'))).toBe(false);
    expect(hasAccess(member, screenByKey('expenses'))).toBe(true);
    expect(hasAccess(plan({ is_owner: false, role: { ...role, sm: 'no_access' } }), screenByKey('expenses'))).toBe(
      false,
    );
    expect(hasAccess(member, screenByKey('home'))).toBe(true);
  });

  it('hides the year switcher on home and P&L', () => {
    expect(showsYearSwitcher('home')).toBe(false);
    expect(showsYearSwitcher('pl')).toBe(false);
    expect(showsYearSwitcher('monthly_pl')).toBe(true);
  });
});
