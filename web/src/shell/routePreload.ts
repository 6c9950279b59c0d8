/**
 * The plan pages' shell and the screen of an address, loaded ahead of need (`preload.ts`). Apart from `preload.ts`,
 * which the shell itself imports, so that no module imports the shell that imports it.
 */
import { SCREEN_IMPORTS, screenOfPath } from './preload';

export const importPlanShell = () => import('./PlanShell');

/** Starts loading the shell and the screen of `pathname`, when it is a plan page; a failure shows when rendered. */
export function preloadPlanRoute(pathname: string): void {
  if (!pathname.startsWith('/business-plans/')) return;
  void importPlanShell().catch(() => {});
  const key = screenOfPath(pathname);
  if (key) void SCREEN_IMPORTS[key]().catch(() => {});
}
