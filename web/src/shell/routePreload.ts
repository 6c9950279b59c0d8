/**
 * The plan pages' shell and the screen of an address, loaded ahead of need (`preload.ts`). Apart from `preload.ts`,
 * which the shell itself imports, so that no module imports the shell that imports it.
 */
import { type AnswerAt, api, getToken } from '../api/client';
import { prefetchGrid } from '../grid/loadGrid';
import { preloadable } from '../lib/preloadable';
import { caseShown, chosenCase } from '../plan/currentCase';
import { openingYear } from './dates';
import { GRID_SCREENS, planIdOfPath, SCREEN_ANSWERS, SCREEN_MODULES, screenOfPath } from './preload';

export const planShell = preloadable(() => import('./PlanShell'));

/** Whether `pathname` is one of the plan pages, which the shell holds. */
export const isPlanPath = (pathname: string) => pathname.startsWith('/business-plans/');

/**
 * Starts loading the shell and the screen of `pathname`, when it is a plan page; resolves once both have loaded or
 * failed (a failure shows when rendered).
 */
export async function preloadPlanRoute(pathname: string): Promise<void> {
  if (!isPlanPath(pathname)) return;
  const key = screenOfPath(pathname);
  // The grid's chunk fetched and compiled meanwhile, run once the screen's first paint is on the screen (`grid/`).
  if (key && GRID_SCREENS.has(key)) prefetchGrid();
  await Promise.allSettled([planShell.preload(), ...(key ? [SCREEN_MODULES[key].preload()] : [])]);
}

/**
 * A plan page opened cold (a link, a reload): called as the app's code starts, before React first renders, it asks at
 * once for the session, then the screen's first answers (`SCREEN_ANSWERS`; those that name the case shown once the
 * session has come), then the shell's and the screen's code, so that none waits for another: the answers come while
 * the code downloads, and the calls that read them take them (`api.readAhead`). Without a token there is no session
 * to read: the page sends the visitor on.
 */
export function startPlanPage(pathname: string): void {
  if (!isPlanPath(pathname) || getToken() === null) return;
  const session = api.readAhead('/user/me');
  const id = planIdOfPath(pathname);
  const key = screenOfPath(pathname);
  if (id !== null && key !== null) {
    for (const path of SCREEN_ANSWERS[key] ?? []) api.readAhead(path, { query: { business_plan_id: id } });
    if (key === 'monthly_pl' || key === 'dashboard') void session.then((me) => readCaseAnswerAhead(me, id, key));
  }
  void preloadPlanRoute(pathname);
}

/**
 * The first answer of the screens that read by the case shown (and the monthly P&L by the plan year too), once the
 * session names the plan's cases: asked for with the case and year the screen will ask for (`useCurrentCase`, the
 * shell's `openingYear`), while the screen's code still downloads.
 */
function readCaseAnswerAhead(me: AnswerAt<'/user/me'> | null, id: number, key: 'monthly_pl' | 'dashboard'): void {
  const plan = me?.business_plans.find((p) => p.business_plan_id === id);
  const shown = plan ? caseShown(plan.cases, chosenCase(id)) : null;
  if (!plan || !shown) return;
  if (key === 'dashboard') {
    api.readAhead('/dashboard/retrieve', { query: { business_plan_id: id, case_id: shown.case_id } });
  } else {
    const year = openingYear(plan, new Date());
    api.readAhead('/pl/monthly/retrieve', { query: { business_plan_id: id, case_id: shown.case_id, year } });
  }
}
