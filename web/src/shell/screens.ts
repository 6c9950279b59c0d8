import {
  type Area,
  COST_AREAS,
  levelFor,
  type PlanListItem,
  SCREEN_SCOPES,
  type Scope,
  type ScreenKey,
} from '@topline/contract';
import type { ComponentType } from 'react';
import { SCREEN_MODULES } from './preload';

/** The working screens under /business-plans/:id, each loaded on demand so charts and grids stay out of the shell. */
export interface ScreenDef {
  key: ScreenKey;
  path: string;
  label: string;
  /** What the screen needs (the contract's screen scopes); Setting needs ownership instead. */
  scope: Scope | null;
}

export const SCREENS: readonly ScreenDef[] = [
  { key: 'home', path: 'home', label: 'shell.home', scope: SCREEN_SCOPES.home },
  { key: 'dashboard', path: '', label: 'shell.dashboard', scope: SCREEN_SCOPES.dashboard },
  { key: 'monthly_pl', path: 'monthly_pl', label: 'shell.monthlyPl', scope: SCREEN_SCOPES.monthly_pl },
  { key: 'pl', path: 'pl', label: 'shell.pl', scope: SCREEN_SCOPES.pl },
  { key: 'kpi', path: 'kpi', label: 'shell.kpi', scope: SCREEN_SCOPES.kpi },
  { key: 'revenue', path: 'revenue', label: 'shell.revenue', scope: SCREEN_SCOPES.revenue },
  { key: 'expenses', path: 'expenses', label: 'shell.cost', scope: SCREEN_SCOPES.expenses },
  { key: 'setting', path: 'setting', label: 'shell.businessPlanSetting', scope: null },
];

export const SCREEN_COMPONENTS = Object.fromEntries(
  Object.entries(SCREEN_MODULES).map(([key, module]) => [key, module.Component]),
) as Record<ScreenKey, ComponentType>;

export function screenByKey(key: ScreenKey): ScreenDef {
  return SCREENS.find((screen) => screen.key === key) ?? (SCREENS[0] as ScreenDef);
}

/** The areas behind a scope: none for home (every member), the cost areas for the Expenses screen. */
export function areasOf(scope: Scope | null): readonly Area[] {
  if (scope === null || scope === 'home') return [];
  return scope === 'expenses' ? COST_AREAS : [scope];
}

/** An owner sees everything; a member sees a screen unless their roles give no_access to its scope. */
export function hasAccess(plan: PlanListItem, screen: ScreenDef): boolean {
  if (plan.is_owner || screen.scope === null) return true;
  return levelFor(plan.role, screen.scope) !== 'no_access';
}

/** A screen is tier-locked when the plan list names every one of its areas as locked by the owner's tier. */
export function screenLocked(plan: PlanListItem, screen: ScreenDef): boolean {
  const areas = areasOf(screen.scope);
  return areas.length > 0 && areas.every((area) => plan.locked.includes(area));
}

/** Year switcher is hidden on Home and P&L (and on the plan's Setting page). */
export function showsYearSwitcher(key: ScreenKey): boolean {
  return key !== 'home' && key !== 'pl' && key !== 'setting';
}
