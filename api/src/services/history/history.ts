/**
 * A plan's restore from its history (contract/src/history.ts): every input row written back as it stood right after
 * a change, recorded by the same trigger as one new change, so that a restore can itself be undone. Reading the
 * history (its pages, a past P&L, a comparison) is historyRead.ts.
 */
import { badRequest, MAX_CASES, noPermission } from '@topline/contract';
import { salvagePlanFile } from '@topline/engine';
import type { Db } from '../../db';
import { type PlanAccess, type PlanRow, requireWritable } from '../access/access';
import { currentActor, nameChange } from '../plans/changes';
import { requirePlanWithinLimits } from '../plans/collectionLimits';
import { editsOfChanges } from '../plans/planChanges';
import { loadPlanFile } from '../plans/planFile';
import type { CaseRow } from '../plans/plans';
import { bumpVersion, committed, planTransaction } from '../plans/planWrites';
import { changeOf, netChanges, ROW_KEYS, type Row, rowsBetween, same } from './historyRows';
import { mayRestore } from './historyVisibility';
import { changesBetween, type StoredPlan } from './restoreChanges';

/**
 * What a restore writes back: every input table but the members (who may see a plan is the owner's member calls'
 * business), parents before children.
 */
const RESTORED_TABLES = [
  'business_plans',
  'cases',
  'case_year_inputs',
  'monthly_inputs',
  'monthly_status',
  'daily_entries',
  'comments',
  'revisions',
  'cost_items',
  'plan_colors',
] as const;

/** A recorded row as column values to write: JSON columns (a growth model's rates) as JSON text. */
const columnsOf = (row: Row): Row =>
  Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      column,
      value !== null && typeof value === 'object' ? JSON.stringify(value) : value,
    ]),
  );

/** The columns an update of a restored row sets: all but those that name it. */
const settable = (table: string, row: Row): Row =>
  Object.fromEntries(Object.entries(columnsOf(row)).filter(([column]) => !(ROW_KEYS[table] ?? []).includes(column)));

const whereOf = (table: string, row: Row): Row =>
  Object.fromEntries((ROW_KEYS[table] ?? ['id']).map((column) => [column, row[column]]));

/**
 * POST /history/restore: every input back as it stood right after change `at`, as one new change of the caller.
 * The members are left as they are.
 * @throws ApiError 403 unless the caller may restore; 404 when `at` is not a change of this plan; 400 `limit` when
 *   the plan would hold more than a limit of `COLLECTION_LIMITS` allows
 */
export async function restoreHistory(db: Db, access: PlanAccess, at: number): Promise<{ id: number; version: number }> {
  if (!mayRestore(access)) {
    requireWritable(access);
    throw noPermission();
  }
  const planId = access.plan.id;
  const { id, version, changes } = await planTransaction(db, planId, async (trx) => {
    await changeOf(trx, planId, at);
    await nameChange(trx, planId, { ...currentActor(), action: 'history.restore' }, at);
    const before = await storedPlan(trx, planId);
    const net = netChanges(await rowsBetween(trx, planId, at, null));
    const byTable = new Map<string, { before: Row | null; after: Row | null }[]>();
    for (const change of net.values()) {
      if (!(RESTORED_TABLES as readonly string[]).includes(change.table) || same(change.before, change.after)) continue;
      byTable.set(change.table, [...(byTable.get(change.table) ?? []), change]);
    }
    if (byTable.size === 0) {
      throw badRequest({ at: "the plan's inputs already stand as they did right after this change" });
    }
    for (const table of [...RESTORED_TABLES].reverse()) {
      for (const { before, after } of byTable.get(table) ?? []) {
        if (before === null && after !== null) await trx(table).where(whereOf(table, after)).delete();
      }
    }
    for (const table of RESTORED_TABLES) {
      for (const { before, after } of byTable.get(table) ?? []) {
        if (before === null) continue;
        if (after === null) await trx(table).insert(columnsOf(before));
        else {
          const values = settable(table, before);
          // A restored cost item is a new version: an edit made on the one it replaces is refused (409).
          const update = table === 'cost_items' ? { ...values, version: trx.raw('version + 1') } : values;
          await trx(table).where(whereOf(table, before)).update(update);
        }
      }
    }
    const cases = await trx<CaseRow>('cases').where({ plan_id: planId }).count<{ count: string }[]>('id as count');
    const count = Number(cases[0]?.count ?? 0);
    if (count < 1 || count > MAX_CASES) throw new Error(`a restore left ${count} cases`);
    // A point from before a limit was lowered may hold more than it allows now.
    await requirePlanWithinLimits(trx, planId, 'at');
    const { rows } = (await trx.raw("SELECT current_setting('topline.change', true) AS id")) as { rows: Row[] };
    const changes = changesBetween(before, await storedPlan(trx, planId));
    return { id: Number(rows[0]?.id), version: await bumpVersion(trx, planId), changes };
  });
  // The workbooks follow the restore as the change set between the plan before and after it; without one (cases in
  // another order, a revision taken back) the cached workbook is rebuilt and the browser reads the plan again.
  committed(access, version, changes ? editsOfChanges(changes) : null);
  return { id, version };
}

/** The plan's inputs as its rows hold them, read in the transaction that holds its lock. */
async function storedPlan(trx: Db, planId: number): Promise<StoredPlan> {
  const row = await trx<PlanRow>('business_plans').where({ id: planId }).first();
  if (!row) throw new Error(`no plan ${planId} under its own lock`);
  const { file, caseIds } = await loadPlanFile(trx, row);
  return { plan: salvagePlanFile(file).plan, caseIds };
}
