/**
 * The plan pages' shell and the screen of an address, loaded ahead of need (`preload.ts`). Apart from `preload.ts`,
 * which the shell itself imports, so that no module imports the shell that imports it.
 */
import { preloadable } from '../lib/preloadable';
import { SCREEN_MODULES, screenOfPath } from './preload';

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
  await Promise.allSettled([planShell.preload(), ...(key ? [SCREEN_MODULES[key].preload()] : [])]);
}
