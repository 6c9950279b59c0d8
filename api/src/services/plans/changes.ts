/**
 * Who and which call a write to a plan's inputs is recorded as. The rows themselves are recorded by the database
 * (migrations/010_plan_history.ts) in the transaction that writes them; these settings name the change they join.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../../db';

export interface ChangeActor {
  userId: number | null;
  /** The call (`/case/edit`) or the job (`plan.create`) that makes the change. */
  action: string;
}

/** The signed-in caller and the route of the request being handled (set by `handle`). */
export const changeActor = new AsyncLocalStorage<ChangeActor>();

/** The actor of the current request, or an unattributed one outside a request (a command, a job). */
export const currentActor = (): ChangeActor => changeActor.getStore() ?? { userId: null, action: 'unattributed' };

/** The settings that name a change, as SQL select items with their bindings (`planChangeSql`). */
export function changeSettings(
  plan: number | 'new' | null,
  actor: ChangeActor,
  restoredFrom: number | null = null,
): { sql: string; bindings: string[] } {
  return {
    sql: [
      "set_config('topline.plan', ?, true)",
      "set_config('topline.user', ?, true)",
      "set_config('topline.action', ?, true)",
      "set_config('topline.restored_from', ?, true)",
      "set_config('topline.change', '', true)",
    ].join(', '),
    bindings: [
      plan === null ? '' : String(plan),
      actor.userId === null ? '' : String(actor.userId),
      actor.action.slice(0, 60),
      restoredFrom === null ? '' : String(restoredFrom),
    ],
  };
}

/**
 * Names the change that the transaction's next writes to the plan make: a new change of `plan` (`new` for a plan
 * about to be created; null for writes that may touch several plans, each then recorded as a change of its own).
 */
export async function nameChange(
  trx: Db,
  plan: number | 'new' | null,
  actor: ChangeActor = currentActor(),
  restoredFrom: number | null = null,
): Promise<void> {
  const { sql, bindings } = changeSettings(plan, actor, restoredFrom);
  await trx.raw(`SELECT ${sql}`, bindings);
}
