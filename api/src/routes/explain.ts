import type Router from '@koa/router';
import type { Services } from '../deps';
import type { AppState } from '../http/context';
import { handle } from '../http/route';
import { explainAnswer } from '../services/workbooks/explain';

/** `GET /explain`: where a figure comes from, from the plan's cached workbook; the figure's area decides who may ask. */
export function explainCalls(router: Router<AppState>, services: Services): void {
  handle(router, services, 'explain', async ({ access, input }) =>
    explainAnswer({ db: services.db, workbooks: services.workbooks, access, today: services.now() }, input),
  );
}
