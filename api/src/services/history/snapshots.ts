/**
 * A plan's snapshots (contract `snapshots.ts`): its inputs saved under a name, as the engine's plan file, with who
 * saved them and when. Saving one changes no input: it takes the plan's lock (so that the limit holds under parallel
 * saves, and the inputs read are those of one moment) but records no change and leaves the plan's version as it is.
 */
import {
  ApiError,
  badRequest,
  conflict,
  limitReached,
  notFound,
  SNAPSHOT_LIMIT,
  type Snapshot,
} from '@topline/contract';
import type { planFileSchema } from '@topline/engine';
import type { z } from 'zod';
import type { Db } from '../../db';
import { type AccessPlan, isTierLocked, levelFor, PLAN_COLUMNS, type PlanAccess, requireScope } from '../access/access';
import { loadPlanFile } from '../plans/planFile';
import { planTransaction } from '../plans/planWrites';
import { restoreHistory } from './history';
import { mayRestore } from './historyVisibility';

interface SnapshotRow {
  id: number;
  name: string;
  created_at: Date | string;
  created_by_name: string | null;
  created_by_email: string | null;
}

const view = (row: SnapshotRow): Snapshot => ({
  id: Number(row.id),
  name: row.name,
  created_by: row.created_by_name || row.created_by_email || null,
  created_at: new Date(row.created_at).toISOString(),
});

const rows = (db: Db) =>
  db('plan_snapshots as s')
    .leftJoin('users as u', 'u.id', 's.created_by')
    .select('s.id', 's.name', 's.created_at', 'u.name as created_by_name', 'u.email as created_by_email');

const readOne = async (db: Db, planId: number, id: number): Promise<Snapshot> => {
  const row: SnapshotRow | undefined = await rows(db).where({ 's.plan_id': planId, 's.id': id }).first();
  if (!row) throw notFound('the snapshot');
  return view(row);
};

/** The plan's snapshots, newest first, and what the caller may do with them. */
export async function listSnapshots(db: Db, access: PlanAccess) {
  const found: SnapshotRow[] = await rows(db).where('s.plan_id', access.plan.id).orderBy('s.id', 'desc');
  const writable = !access.readOnly && !isTierLocked(access, 'monthly_pl');
  return {
    snapshots: found.map(view),
    can_edit: writable && levelFor(access, 'monthly_pl') === 'can_edit',
    can_delete: writable && access.isOwner,
    can_restore: writable && mayRestore(access),
    can_download: access.isOwner || Object.values(access.roles).every((level) => level !== 'no_access'),
  };
}

/**
 * Saves the plan's inputs as they stand under `name`, with the plan's last recorded change (what a restore puts
 * back, `restoreSnapshot`). Both are read under the plan's lock: no write to the plan's inputs runs meanwhile.
 * @throws ApiError 400 `limit` `snapshots` on `name` when the plan holds `SNAPSHOT_LIMIT` already
 */
export function createSnapshot(db: Db, access: PlanAccess, userId: number, name: string): Promise<Snapshot> {
  const planId = access.plan.id;
  return planTransaction(db, planId, async (trx) => {
    const [{ count } = { count: 0 }] = await trx('plan_snapshots').where({ plan_id: planId }).count({ count: '*' });
    if (Number(count) >= SNAPSHOT_LIMIT) {
      const message = `a plan holds at most ${SNAPSHOT_LIMIT} snapshots: delete one first`;
      throw limitReached('name', message, { name: 'snapshots', max: SNAPSHOT_LIMIT, value: Number(count) + 1 });
    }
    // The plan's settings as the lock holds them, not as the caller's access read them before it.
    const plan = await trx<AccessPlan>('business_plans')
      .where({ id: planId })
      .first(...PLAN_COLUMNS);
    if (!plan) throw notFound('the business plan');
    const { file } = await loadPlanFile(trx, plan);
    const last = await trx('plan_changes').where({ plan_id: planId }).max<{ id: string | null }[]>('id as id');
    const changeId = last[0]?.id ?? null;
    const [row] = await trx('plan_snapshots')
      .insert({ plan_id: planId, name, plan_file: JSON.stringify(file), change_id: changeId, created_by: userId })
      .returning('id');
    return readOne(trx, planId, Number(typeof row === 'object' ? row.id : row));
  });
}

export function renameSnapshot(db: Db, access: PlanAccess, id: number, name: string): Promise<Snapshot> {
  const planId = access.plan.id;
  return planTransaction(db, planId, async (trx) => {
    const updated = await trx('plan_snapshots').where({ plan_id: planId, id }).update({ name }).returning('id');
    if (updated.length === 0) throw notFound('the snapshot');
    return readOne(trx, planId, id);
  });
}

/** Deletes a snapshot: the owner's, on a plan whose tier has snapshots (the route checks the owner). */
export async function deleteSnapshot(db: Db, access: PlanAccess, id: number): Promise<void> {
  requireScope(access, 'monthly_pl', 'write');
  const deleted = await planTransaction(db, access.plan.id, (trx) =>
    trx('plan_snapshots').where({ plan_id: access.plan.id, id }).delete().returning('id'),
  );
  if (deleted.length === 0) throw notFound('the snapshot');
}

type PlanFileInput = z.input<typeof planFileSchema>;

async function stored(db: Db, planId: number, id: number) {
  const row: { plan_file: unknown; change_id: string | number | null } | undefined = await db('plan_snapshots')
    .where({ plan_id: planId, id })
    .first('plan_file', 'change_id');
  if (!row) throw notFound('the snapshot');
  const file = (typeof row.plan_file === 'string' ? JSON.parse(row.plan_file) : row.plan_file) as PlanFileInput;
  return { file, changeId: row.change_id === null ? null : Number(row.change_id) };
}

/** The snapshot's plan file as saved (the engine's input). */
export async function snapshotPlanFile(db: Db, access: PlanAccess, id: number): Promise<PlanFileInput> {
  requireScope(access, 'monthly_pl', 'read');
  return (await stored(db, access.plan.id, id)).file;
}

/**
 * Puts every input back as the snapshot holds them, as one new change of the history, recorded as a restore of the
 * snapshot's moment. A snapshot is mapped to the moment of the history it was saved at (the plan's last change then,
 * read under the plan's lock) and that moment is restored through the history's own restore, rather than its plan
 * file being written back as rows: the history puts back the very rows (their ids, which the members' edits, the
 * cost items' versions and the comments refer to), removes what was added since, keeps the members as they are,
 * checks the limits the restored plan must hold and is recorded as a restore, all in one place. Every write to a
 * plan's inputs is recorded and a plan's history is kept as long as the plan, so the moment holds exactly the
 * inputs of the plan file; the plan file is kept for what needs no history (the XLSX, the engine's reads).
 * @throws ApiError 403 unless the caller may restore; 409 when the plan had no recorded change when it was saved;
 *   400 on `snapshot_id` when the inputs already stand as the snapshot holds them
 */
export async function restoreSnapshot(db: Db, access: PlanAccess, id: number) {
  requireScope(access, 'monthly_pl', 'read');
  const { changeId } = await stored(db, access.plan.id, id);
  if (changeId === null)
    throw conflict("this snapshot was saved before the plan's history began: it cannot be restored");
  try {
    return await restoreHistory(db, access, changeId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && error.body.code === 'invalid' && error.body.errors?.at) {
      throw badRequest({ snapshot_id: "the plan's inputs already stand as this snapshot holds them" });
    }
    throw error;
  }
}
