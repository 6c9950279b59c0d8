import { PLAN_VERSION_HEADER, planVersionOf } from '@topline/contract';
import type { Services } from '../deps';
import { loadSignedInFacts, type PlanAccess, planAccess, signedInAccess } from '../services/access/access';
import { type AppContext, currentUser } from './context';

/**
 * Loads the plan for the signed-in caller (404 for anyone who may not see it), and wires its committed writes to
 * the workbook cache. A caller that saw a newer version than the cached one (`Plan-Version`) gets the plan read
 * afresh, so a write acknowledged by one process is read back through another at once.
 */
export async function planFor(services: Services, ctx: AppContext, planId: number): Promise<PlanAccess> {
  let access: PlanAccess;
  const claims = ctx.state.claims;
  const seen = planVersionOf(ctx.get(PLAN_VERSION_HEADER));
  if (!ctx.state.user && claims) {
    const load = () => loadSignedInFacts(services.db, claims.userId, planId);
    let loaded = await services.accessCache.get(claims.userId, planId, load);
    if (seen !== null && loaded.facts && loaded.facts.plan.version < seen) loaded = await load();
    const signedIn = signedInAccess(loaded, claims, services.now());
    ctx.state.user = signedIn.user;
    access = signedIn.access;
  } else access = await planAccess(services.db, currentUser(ctx), planId, services.now());
  ctx.set(PLAN_VERSION_HEADER, String(access.plan.version));
  access.served = (version) => ctx.set(PLAN_VERSION_HEADER, String(version));
  access.changed = (version, edits) => {
    ctx.set(PLAN_VERSION_HEADER, String(version));
    // A write whose change no change set says (some restores) leaves the answer without any: the browser reads the plan.
    const known = ctx.state.planChanges;
    ctx.state.planChanges = edits?.changes && known !== null ? [...(known ?? []), ...edits.changes] : null;
    services.accessCache.planVersion(planId, version);
    services.workbooks.advance(planId, version, edits);
  };
  return access;
}
