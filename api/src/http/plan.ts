import { badRequest } from '@topline/contract';
import type { Services } from '../app';
import { loadSignedInFacts, type PlanAccess, planAccess, signedInAccess } from '../services/access';
import { type AppContext, currentUser } from './context';

/**
 * The answer header naming the plan version an answer reflects (at least), and the request header by which a caller
 * asks for at least a version it saw acknowledged: read-your-writes across API processes, whose caches otherwise
 * follow another process's commits only when PostgreSQL's notification arrives.
 */
export const PLAN_VERSION_HEADER = 'Plan-Version';

/** The version the caller has seen, from the `Plan-Version` request header; null without one. */
function seenVersion(ctx: AppContext): number | null {
  const raw = ctx.get(PLAN_VERSION_HEADER);
  if (raw === '') return null;
  if (!/^[1-9]\d{0,14}$/.test(raw)) {
    throw badRequest({ [PLAN_VERSION_HEADER]: `${PLAN_VERSION_HEADER} must be a plan version from an earlier answer` });
  }
  return Number(raw);
}

/**
 * Loads the plan for the signed-in caller (404 for anyone who may not see it), and wires its committed writes to
 * the workbook cache. A caller that saw a newer version than the cached one (`Plan-Version`) gets the plan read
 * afresh, so a write acknowledged by one process is read back through another at once.
 */
export async function planFor(services: Services, ctx: AppContext, planId: number): Promise<PlanAccess> {
  let access: PlanAccess;
  const claims = ctx.state.claims;
  const seen = seenVersion(ctx);
  if (!ctx.state.user && claims) {
    const load = () => loadSignedInFacts(services.db, claims.userId, planId);
    let loaded = await services.accessCache.get(claims.userId, planId, load);
    if (seen !== null && loaded.facts && loaded.facts.plan.version < seen) loaded = await load();
    const signedIn = signedInAccess(loaded, claims, services.now());
    ctx.state.user = signedIn.user;
    access = signedIn.access;
  } else access = await planAccess(services.db, currentUser(ctx), planId, services.now());
  ctx.set(PLAN_VERSION_HEADER, String(access.plan.version));
  access.changed = (version, edits) => {
    ctx.set(PLAN_VERSION_HEADER, String(version));
    services.workbooks.advance(planId, version, edits);
  };
  return access;
}
