import { unauthorized } from '@topline/contract';
import type { Next } from 'koa';
import type { Services } from '../deps';
import { findUserById } from '../services/accounts/users';
import type { AppContext } from './context';

async function verifiedClaims(services: Services, ctx: AppContext) {
  const match = /^Bearer\s+(.+)$/i.exec(ctx.get('authorization'));
  if (!match?.[1]) throw unauthorized();
  const claims = await services.tokens.verify(match[1].trim());
  if (!claims) throw unauthorized();
  return claims;
}

/**
 * Verifies the bearer token only; the plan-scoped routes behind it load the user together with the plan in one
 * query (`planFor`), which answers 401 for a user who is gone or signed out.
 */
export function requireToken(services: Services) {
  return async (ctx: AppContext, next: Next) => {
    ctx.state.claims = await verifiedClaims(services, ctx);
    await next();
  };
}

/** Reads the bearer token and puts the signed-in user on `ctx.state.user`, or answers 401. */
export function requireUser(services: Services) {
  return async (ctx: AppContext, next: Next) => {
    const claims = await verifiedClaims(services, ctx);
    const user = await findUserById(services.db, claims.userId);
    if (!user || user.token_version !== claims.tokenVersion) throw unauthorized();
    ctx.state.user = user;
    await next();
  };
}
