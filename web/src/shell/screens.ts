import { lazy } from 'react';
import type { AreaKey, BusinessPlanItem, User } from '../api/types';
import { isTierLocked, type ScreenKey } from '../lib/tiers';

/** The working screens under /business-plans/:id, each loaded on demand so charts and grids stay out of the shell. */
export interface ScreenDef {
  key: ScreenKey;
  path: string;
  label: string;
  areas: AreaKey[];
}

export const SCREENS: readonly ScreenDef[] = [
  { key: 'home', path: 'home', label: 'shell.home', areas: [] },
  { key: 'dashboard', path: '', label: 'shell.dashboard', areas: ['dashboard'] },
  { key: 'monthly_pl', path: 'monthly_pl', label: 'shell.monthlyPl', areas: ['monthly_pl'] },
  { key: 'pl', path: 'pl', label: 'shell.pl', areas: ['pl'] },
  { key: 'kpi', path: 'kpi', label: 'shell.kpi', areas: ['kpi'] },
  { key: 'revenue', path: 'revenue', label: 'shell.revenue', areas: ['sales_detail'] },
  { key: 'expenses', path: 'expenses', label: 'shell.cost', areas: ['cogs', 'sm', 'rd', 'ga'] },
  { key: 'setting', path: 'setting', label: 'shell.businessPlanSetting', areas: [] },
];

export const SCREEN_COMPONENTS = {
  home: lazy(() => import('../screens/HomeScreen')),
  dashboard: lazy(() => import('../screens/DashboardScreen')),
  monthly_pl: lazy(() => import('../screens/MonthlyPlScreen')),
  pl: lazy(() => import('../screens/PlScreen')),
  kpi: lazy(() => import('../screens/KpiScreen')),
  revenue: lazy(() => import('../screens/RevenueScreen')),
  expenses: lazy(() => import('../screens/ExpensesScreen')),
  setting: lazy(() => import('../screens/SettingScreen')),
} as const;

export function screenByKey(key: ScreenKey): ScreenDef {
  return SCREENS.find((screen) => screen.key === key) ?? (SCREENS[0] as ScreenDef);
}

/** An owner sees everything; a member sees an area unless every one of its roles is no_access. */
export function hasAccess(plan: BusinessPlanItem, screen: ScreenDef): boolean {
  if (plan.is_owner || screen.areas.length === 0 || !plan.role) return true;
  return screen.areas.some((area) => (plan.role?.[area] ?? 'can_view') !== 'no_access');
}

/**
 * A screen is tier-locked when the server lists all of its areas as locked for the plan; without that list the web
 * falls back to its mirror of the rule (Free and trial owners see only home, P&L and Setting).
 */
export function screenLocked(plan: BusinessPlanItem, screen: ScreenDef, user: User | null): boolean {
  if (plan.locked) return screen.areas.length > 0 && screen.areas.every((area) => plan.locked?.includes(area));
  return plan.is_owner && isTierLocked(user, screen.key);
}

/** Year switcher is hidden on Home and P&L (and on the plan's Setting page). */
export function showsYearSwitcher(key: ScreenKey): boolean {
  return key !== 'home' && key !== 'pl' && key !== 'setting';
}
