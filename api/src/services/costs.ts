import {
  type CostItemFields,
  conflict,
  costAreaOf,
  costDeleteEdits,
  costFieldsOf,
  costItemEdits,
  inputError,
  notFound,
} from '@topline/contract';
import type { Db } from '../db';
import { bumpVersion, committed, type PlanAccess, planTransaction, requireCase, requireScope } from './access';
import { caseOf } from './plans';

/** Cost items of the Cost screen (MODEL.md section 7): a monthly price over a term, per case. */

/** @throws ApiError 400 titled "Input Error" when the term ends before it starts (working-screens.md section 5) */
export function checkTerm(item: CostItemFields): void {
  if (item.start_year * 12 + item.start_month > item.end_year * 12 + item.end_month) {
    throw inputError('end_month', 'the end date cannot be earlier than the start date');
  }
}

export async function createCostItem(db: Db, access: PlanAccess, caseId: number, item: CostItemFields) {
  checkTerm(item);
  const { costId, version } = await planTransaction(db, access.plan.id, async (trx) => {
    await requireCase(trx, access.plan.id, caseId);
    const [row] = await trx('cost_items')
      .insert({ case_id: caseId, ...costFieldsOf(item) })
      .returning('id');
    return { costId: Number(row?.id), version: await bumpVersion(trx, access.plan.id) };
  });
  committed(access, version, (ids) => costItemEdits(caseId, costId, item, ids));
  return costId;
}

/**
 * The stored item, once the caller may edit its cost group.
 * @throws ApiError 404 when the item is not in this case, 403 without can_edit on its group
 */
async function editableItem(db: Db, access: PlanAccess, caseId: number, costId: number) {
  await caseOf(db, access.plan.id, caseId);
  const row = await db('cost_items').where({ id: costId, case_id: caseId }).first();
  if (!row) throw notFound('the cost item');
  requireScope(access, costAreaOf(row.item_title), 'write');
  return row as CostItemFields & { id: number };
}

/**
 * Saves the whole item over the version the caller read. Moving an item between groups needs can_edit on both (the
 * route checks the new group).
 * @throws ApiError 409 when someone saved the item since `itemVersion`
 */
export async function editCostItem(
  db: Db,
  access: PlanAccess,
  caseId: number,
  costId: number,
  itemVersion: number,
  item: CostItemFields,
) {
  checkTerm(item);
  await editableItem(db, access, caseId, costId);
  const version = await planTransaction(db, access.plan.id, async (trx) => {
    const updated = await trx('cost_items')
      .where({ id: costId, case_id: caseId, version: itemVersion })
      .update({ ...costFieldsOf(item), version: itemVersion + 1 });
    if (updated === 0) {
      throw conflict(
        'someone else saved this cost item after you opened it; it has been reloaded, check it and save again',
      );
    }
    return bumpVersion(trx, access.plan.id);
  });
  committed(access, version, (ids) => costItemEdits(caseId, costId, item, ids));
}

export async function deleteCostItem(db: Db, access: PlanAccess, caseId: number, costId: number) {
  await editableItem(db, access, caseId, costId);
  const version = await planTransaction(db, access.plan.id, async (trx) => {
    await trx('cost_items').where({ id: costId, case_id: caseId }).delete();
    return bumpVersion(trx, access.plan.id);
  });
  committed(access, version, (ids) => costDeleteEdits(caseId, costId, ids));
}
