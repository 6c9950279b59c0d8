/**
 * Writes to a plan's inputs. Each is one ordinary transaction: it takes the plan's row lock (which serialises writes
 * to a plan across processes, so every limit checked after it holds under parallel requests), names the change for
 * the plan's history, runs its body, bumps the plan's version and commits. Within a process the writes to one plan
 * also wait for each other before they take a pooled connection, so that a burst of writes to one plan cannot hold
 * every connection while they wait for its lock.
 */
import { notFound } from '@topline/contract';
import type { Db } from '../../db';
import { type EditsFor, type PlanAccess, requireWritable } from '../access/access';
import { claimIdempotencyKey } from '../requests/idempotency';
import { type ChangeActor, changeSettings, currentActor } from './changes';

/** What a transaction holding a plan's lock read with it: the plan's case ids, in ascending order. */
const lockedCases = new WeakMap<Db, { planId: number; caseIds: ReadonlySet<number> }>();

/** The tail of each plan's queue of writes in this process, per database. */
const queues = new WeakMap<Db, Map<number, Promise<unknown>>>();

/**
 * Locks the plan's row until the transaction ends. Taken first, before any other row of the plan, so that two
 * writes never wait for each other's rows.
 * @throws ApiError 404 when the plan is gone (deleted by a write that committed meanwhile)
 */
export async function lockPlan(trx: Db, planId: number): Promise<void> {
  const row = await trx('business_plans').where({ id: planId }).forUpdate().first('id');
  if (!row) throw notFound('the business plan');
}

/**
 * `lockPlan`, the name of the change the transaction's writes make (`changes.ts`) and the plan's case ids, in one
 * round trip.
 */
async function lockPlanForChange(trx: Db, planId: number, actor: ChangeActor): Promise<void> {
  const { sql, bindings } = changeSettings(planId, actor);
  const { rows } = (await trx.raw(
    `SELECT id, ${sql}, ARRAY(SELECT c.id FROM cases AS c WHERE c.plan_id = business_plans.id) AS case_ids
     FROM business_plans WHERE id = ? FOR UPDATE`,
    [...bindings, planId],
  )) as { rows: { case_ids: (number | string)[] }[] };
  const [row] = rows;
  if (!row) throw notFound('the business plan');
  lockedCases.set(trx, { planId, caseIds: new Set(row.case_ids.map(Number)) });
}

/**
 * Runs `body` in a transaction that holds the plan's lock, after this process's earlier writes to the plan. What
 * `body` writes to the plan's inputs is recorded as one change of the request's caller. `body` must use `trx` only:
 * PGlite has one connection, which the transaction holds.
 * @throws ApiError 404 when the plan is gone; whatever `body` throws, with nothing written
 */
export function planTransaction<T>(db: Db, planId: number, body: (trx: Db) => Promise<T>): Promise<T> {
  const plans = queues.get(db) ?? new Map<number, Promise<unknown>>();
  queues.set(db, plans);
  const actor = currentActor();
  const write = (plans.get(planId) ?? Promise.resolve()).then(() =>
    db.transaction(async (trx) => {
      await lockPlanForChange(trx, planId, actor);
      await claimIdempotencyKey(trx);
      return body(trx);
    }),
  );
  // The next write waits for this one whatever its outcome; the last one out empties the queue.
  const tail = write.then(
    () => undefined,
    () => undefined,
  );
  plans.set(planId, tail);
  void tail.then(() => {
    if (plans.get(planId) === tail) plans.delete(planId);
  });
  return write;
}

/**
 * One write to a plan's inputs (`planTransaction`) that bumps the plan's version and, once committed, reports the
 * change to whoever caches the plan's workbook: `edits` of what `body` answered, null when only a rebuild follows it.
 * @throws ApiError 403 when the plan takes no write; 404 when it was deleted meanwhile; whatever `body` throws
 */
export async function planWrite<T>(
  db: Db,
  access: PlanAccess,
  body: (trx: Db) => Promise<T>,
  edits: (value: T) => EditsFor | null = () => () => [],
): Promise<T> {
  requireWritable(access);
  const planId = access.plan.id;
  const { value, version } = await planTransaction(db, planId, async (trx) => {
    const value = await body(trx);
    return { value, version: await bumpVersion(trx, planId) };
  });
  committed(access, version, edits(value));
  return value;
}

/**
 * Checks that the case is one of the plan's: from what the plan's lock read when `trx` holds it (no round trip),
 * else from the database. Not for a body that has added or removed cases itself.
 * @throws ApiError 404 when the case is not in this plan
 */
export async function requireCase(trx: Db, planId: number, caseId: number): Promise<void> {
  const locked = lockedCases.get(trx);
  if (locked?.planId === planId) {
    if (!locked.caseIds.has(caseId)) throw notFound('the case');
    return;
  }
  const row = await trx('cases').where({ plan_id: planId, id: caseId }).first('id');
  if (!row) throw notFound('the case');
}

/** The plan's case ids as the plan's lock read them, in ascending order (a programming error without the lock). */
export function lockedCaseIds(trx: Db, planId: number): number[] {
  const locked = lockedCases.get(trx);
  if (locked?.planId !== planId) throw new Error('needs the plan locked by this transaction (planTransaction)');
  return [...locked.caseIds].sort((a, b) => a - b);
}

/** Every write to a plan's inputs bumps its version in the same transaction; answers the new version. */
export async function bumpVersion(trx: Db, planId: number): Promise<number> {
  const [row] = await trx('business_plans')
    .where({ id: planId })
    .update({ version: trx.raw('version + 1'), updated_at: trx.fn.now() })
    .returning('version');
  return Number(typeof row === 'object' && row !== null ? (row as { version: number }).version : row);
}

/** Reports a committed write to whoever caches this plan's workbook. */
export function committed(access: PlanAccess, version: number, edits: EditsFor | null = () => []): void {
  access.changed?.(version, edits);
}

export async function audit(trx: Db, userId: number, planId: number | null, action: string, detail?: object) {
  await trx('audit_log').insert({
    user_id: userId,
    plan_id: planId,
    action,
    detail: detail ? JSON.stringify(detail) : null,
  });
}

/** Resolves once every write to a plan queued in this process so far has committed or failed: a drain's last wait. */
export async function writesSettled(db: Db): Promise<void> {
  const plans = queues.get(db);
  if (plans) await Promise.all(plans.values());
}
