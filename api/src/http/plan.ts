import type { Services } from '../app';
import { loadSignedInFacts, type PlanAccess, planAccess, signedInAccess } from '../services/access';
import { type AppContext, currentUser } from './context';

/**
 * Loads the plan for the signed-in caller (404 for anyone who may not see it), and wires its committed writes to
 * the workbook cache.
 */
export async function planFor(services: Services, ctx: AppContext, planId: number): Promise<PlanAccess> {
  let access: PlanAccess;
  const claims = ctx.state.claims;
  if (!ctx.state.user && claims) {
    const loaded = await services.accessCache.get(claims.userId, planId, () =>
      loadSignedInFacts(services.db, claims.userId, planId),
    );
    const signedIn = signedInAccess(loaded, claims, services.now());
    ctx.state.user = signedIn.user;
    access = signedIn.access;
  } else access = await planAccess(services.db, currentUser(ctx), planId, services.now());
  access.changed = (version, edits) => services.workbooks.advance(planId, version, edits);
  return access;
}
