/**
 * A snapshot as the plan of record (issue 40, point 3): its stored inputs built into a workbook by the same engine,
 * and the case of it that is the budget of a live case. A snapshot never changes once saved (a rename changes only
 * its name), so its workbook is built once and kept, a few per database; whether the snapshot is still the plan's is
 * asked of the database at every read.
 */
import { asOfMonth, conflict, notFound } from '@topline/contract';
import {
  type ComparedSnapshot,
  type PlanOfRecord,
  type PlanWorkbook,
  snapshotCaseIndex,
  snapshotMismatch,
} from '@topline/engine';
import type { Db } from '../../db';
import { type PlanAccess, requireScope } from '../access/access';
import { snapshotPlanFile } from '../history/snapshots';
import { buildWorkbook } from './build';
import type { CompiledPlan } from './workbooks';

/** Built snapshot workbooks kept per database, the most recently used last. */
const KEPT = 4;
const built = new WeakMap<Db, Map<string, PlanWorkbook>>();

/**
 * The snapshot's workbook, if the snapshot is the plan's and the caller may read it (the monthly P&L area's read, on
 * Basic or Team).
 * @throws ApiError 404 when the plan has no such snapshot; 403 when the tier or the caller's role locks it
 */
export async function snapshotWorkbook(db: Db, access: PlanAccess, id: number, today: Date): Promise<PlanWorkbook> {
  return (await snapshotOf(db, access, id, today)).workbook;
}

/**
 * The snapshot's name, as the plan's snapshot list names it, and its workbook: one question to the database.
 * @throws ApiError as `snapshotWorkbook`
 */
async function snapshotOf(
  db: Db,
  access: PlanAccess,
  id: number,
  today: Date,
): Promise<{ name: string; workbook: PlanWorkbook }> {
  requireScope(access, 'monthly_pl', 'read');
  const found = await db('plan_snapshots').where({ plan_id: access.plan.id, id }).first('name');
  if (!found) throw notFound('the snapshot');
  return { name: String(found.name), workbook: await builtSnapshot(db, access, id, today) };
}

/** The snapshot's workbook, built once and kept (a few per database). */
async function builtSnapshot(db: Db, access: PlanAccess, id: number, today: Date): Promise<PlanWorkbook> {
  const asOf = asOfMonth(today);
  const key = `${access.plan.id}:${id}:${asOf.year}-${asOf.month}`;
  let kept = built.get(db);
  if (!kept) {
    kept = new Map();
    built.set(db, kept);
  }
  const cached = kept.get(key);
  if (cached) {
    kept.delete(key);
    kept.set(key, cached);
    return cached;
  }
  const workbook = await buildWorkbook(await snapshotPlanFile(db, access, id), asOf);
  kept.set(key, workbook);
  for (const old of kept.keys()) {
    if (kept.size <= KEPT) break;
    kept.delete(old);
  }
  return workbook;
}

/**
 * The snapshot a comparison download sets beside the cases, named as the plan's snapshot list names it; none without
 * an id.
 * @throws ApiError as `snapshotWorkbook`
 */
export async function comparedSnapshot(
  ctx: { db: Db; access: PlanAccess; today: Date },
  id: number | undefined,
): Promise<ComparedSnapshot | undefined> {
  return id === undefined ? undefined : snapshotOf(ctx.db, ctx.access, id, ctx.today);
}

/**
 * The plan of record of a live case: the snapshot's workbook and its case read as the budget, with the snapshot's name.
 * @throws ApiError 409 when the snapshot's months or rows are not the live plan's (another first month or template)
 */
export async function planOfRecord(
  db: Db,
  access: PlanAccess,
  compiled: CompiledPlan,
  caseIndex: number,
  id: number,
  today: Date,
): Promise<PlanOfRecord & { name: string }> {
  const { name, workbook } = await snapshotOf(db, access, id, today);
  const mismatch = snapshotMismatch(compiled.workbook, workbook);
  if (mismatch) throw conflict(`${mismatch}: they cannot be compared month by month`);
  return { name, workbook, caseIndex: snapshotCaseIndex(compiled.workbook, caseIndex, workbook) };
}
