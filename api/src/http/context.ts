import type { PlanChange } from '@topline/contract';
import type { ParameterizedContext } from 'koa';
import type { UserRow } from '../services/accounts/users';

export interface AppState {
  user?: UserRow;
  /** A verified token's claims, for routes that load the user together with the plan. */
  claims?: { userId: number; tokenVersion: number };
  /**
   * The change sets this request's plan writes committed, in order, which its answer carries (`plan_changes`); null
   * once one of them committed a change that no change set says (some restores), and the answer carries none.
   */
  planChanges?: PlanChange[] | null;
}

export type AppContext = ParameterizedContext<AppState>;

/** The signed-in user of a route behind `requireUser`. */
export function currentUser(ctx: AppContext): UserRow {
  const user = ctx.state.user;
  if (!user) throw new Error('route is not behind requireUser');
  return user;
}
