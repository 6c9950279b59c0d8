import type { Next } from 'koa';
import type { Services } from '../app';
import { unauthorized } from '../errors';
import { findUserById } from '../services/users';
import type { AppContext } from './context';

/** Reads the bearer token and puts the signed-in user on `ctx.state.user`, or answers 401. */
export function requireUser(services: Services) {
  return async (ctx: AppContext, next: Next) => {
    const header = ctx.get('authorization');
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match?.[1]) throw unauthorized();
    const claims = await services.tokens.verify(match[1].trim());
    if (!claims) throw unauthorized();
    const user = await findUserById(services.db, claims.userId);
    if (!user || user.token_version !== claims.tokenVersion) throw unauthorized();
    ctx.state.user = user;
    await next();
  };
}
