import type Router from '@koa/router';
import type { Services } from '../app';
import type { AppState } from '../http/context';

/** The working screens' numbers (working-screens.md section 7), all computed by the engine's workbook. */
export function screenRoutes(_router: Router<AppState>, _services: Services): void {}
