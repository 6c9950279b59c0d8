import type Router from '@koa/router';
import type { Services } from '../deps';
import type { AppState } from '../http/context';
import { handle } from '../http/route';
import { restoreHistory } from '../services/history/history';
import { historyCompare, historyPage, historyPoint } from '../services/history/historyRead';

/** A plan's history of input changes (contract `history.ts`). */
export function historyRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;
  handle(router, services, 'history', async ({ access, input }) => ({
    data: await historyPage(db, access, input.cursor),
  }));
  handle(router, services, 'historyPlan', async ({ access, input }) => ({
    data: await historyPoint(db, access, input.at, services.now()),
  }));
  handle(router, services, 'historyCompare', async ({ access, input }) => ({
    data: await historyCompare(db, access, input.from, input.to, services.now()),
  }));
  handle(router, services, 'historyRestore', async ({ access, input }) => ({
    data: await restoreHistory(db, access, input.at),
  }));
}
