/**
 * The code-split parts of the plan pages, and their loading ahead of need. A visitor landing on a screen would
 * otherwise load the shell's chunk only once the session is read, and the screen's only once the shell renders: a
 * waterfall of three round trips. `preloadPlanRoute` (`routePreload.ts`, apart so that the shell it loads does not
 * import it back) starts both at once from the address, while the session is read;
 * `prefetchScreens` loads the side menu's other screens when the browser is idle, so a move through the menu waits for
 * no download. A dynamic import runs once per module, so a preload and the later render share it; a screen whose
 * chunk is there renders at once, without suspending (`preloadable.tsx`).
 */
import { ID_MAX, type ScreenKey } from '@topline/contract';
import type { ComponentType } from 'react';
import { loadGrid } from '../grid/loadGrid';
import { whenIdle } from '../lib/idle';
import { type Preloadable, preloadable } from '../lib/preloadable';

type ScreenModule = Promise<{ default: ComponentType }>;

export const SCREEN_IMPORTS: Record<ScreenKey, () => ScreenModule> = {
  home: () => import('../screens/HomeScreen'),
  dashboard: () => import('../screens/DashboardScreen'),
  monthly_pl: () => import('../screens/MonthlyPlScreen'),
  pl: () => import('../screens/PlScreen'),
  kpi: () => import('../screens/KpiScreen'),
  revenue: () => import('../screens/RevenueScreen'),
  expenses: () => import('../screens/ExpensesScreen'),
  setting: () => import('../screens/SettingScreen'),
};

/** The screens whose main content is a grid (`grid/DataGrid.tsx`): a skip link leads there, AG Grid loads with them. */
export const GRID_SCREENS: ReadonlySet<ScreenKey> = new Set(['pl', 'kpi', 'revenue', 'expenses', 'monthly_pl']);

/** The GET routes a screen reads first by the plan's id alone, which a cold start of the screen reads ahead. */
export type FirstAnswerPath =
  | '/pl/retrieve'
  | '/snapshot/list'
  | '/kpi/retrieve'
  | '/revenue/retrieve'
  | '/cost/retrieve'
  | '/home/retrieve'
  | '/home/reminders'
  | '/todos/retrieve';

/**
 * The answers each screen asks for as it first renders that its address alone names (`{ business_plan_id }`): read
 * ahead on a cold start (`startPlanPage`), and taken by the screen's own reads. The monthly P&L's and the dashboard's
 * main answers name the case (and year) shown, which the session tells (`startPlanPage`); Setting's depend on the
 * user's roles.
 */
export const SCREEN_ANSWERS: Partial<Record<ScreenKey, readonly FirstAnswerPath[]>> = {
  pl: ['/pl/retrieve', '/snapshot/list'],
  kpi: ['/kpi/retrieve'],
  revenue: ['/revenue/retrieve'],
  expenses: ['/cost/retrieve'],
  home: ['/home/retrieve', '/home/reminders', '/todos/retrieve'],
  monthly_pl: ['/snapshot/list'],
};

/** Each screen's component, rendered at once when its chunk has loaded. */
export const SCREEN_MODULES = Object.fromEntries(
  Object.entries(SCREEN_IMPORTS).map(([key, load]) => [key, preloadable(load)]),
) as Record<ScreenKey, Preloadable<object>>;

/** The screen a path of the plan pages opens (`/business-plans/1` is the dashboard), or null for another page. */
export function screenOfPath(pathname: string): ScreenKey | null {
  const match = /^\/business-plans\/[^/]+(?:\/([^/]*))?/.exec(pathname);
  if (!match) return null;
  const segment = match[1] ?? '';
  if (segment === '') return 'dashboard';
  return Object.hasOwn(SCREEN_IMPORTS, segment) && segment !== 'dashboard' ? (segment as ScreenKey) : null;
}

/** The plan id of a plan page's address (`/business-plans/12/pl` is 12); null for no id the contract allows. */
export function planIdOfPath(pathname: string): number | null {
  const match = /^\/business-plans\/([1-9][0-9]{0,9})(?:\/|$)/.exec(pathname);
  const id = match ? Number(match[1]) : Number.NaN;
  return id <= ID_MAX ? id : null;
}

/** Loads the screens of `keys` one after another, each when the browser is idle, and the grid with the first that shows one. */
export function prefetchScreens(keys: readonly ScreenKey[]): () => void {
  let cancelled = false;
  const idle = (next: () => void) => whenIdle(next, 2000);
  const step = (index: number) => {
    const key = keys[index];
    if (cancelled || key === undefined) return;
    void Promise.all([SCREEN_MODULES[key].preload(), GRID_SCREENS.has(key) ? loadGrid() : null])
      .catch(() => {})
      .then(() => idle(() => step(index + 1)));
  };
  idle(() => step(0));
  return () => {
    cancelled = true;
  };
}
