import type Router from '@koa/router';
import type { Services } from '../app';
import { planScoped } from '../contract/plans';
import { noPermission } from '../errors';
import { requireUser } from '../http/auth';
import type { AppState } from '../http/context';
import { parseInput } from '../http/validate';
import { AREAS } from '../services/access';
import { loadPlanFile } from '../services/planFile';
import { planFor } from './plans';

/**
 * GET /business-plan/file: the plan's inputs as one plan file (MODEL.md section 9), for the engine in the browser.
 * The file holds every area's inputs, so only the owner or a member who may see every area reads it.
 */
export function planFileRoutes(router: Router<AppState>, services: Services): void {
  router.get('/business-plan/file', requireUser(services), async (ctx) => {
    const input = parseInput(planScoped, ctx.query);
    const access = await planFor(services, ctx, input.business_plan_id);
    if (!access.isOwner && AREAS.some((area) => access.roles[area] === 'no_access')) throw noPermission();
    const loaded = await loadPlanFile(services.db, access.plan);
    ctx.body = { data: { plan: loaded.file, version: access.plan.version, case_ids: loaded.caseIds } };
  });
}
