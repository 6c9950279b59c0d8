import {
  type CostItemFields,
  costAreaOf,
  costDeleteChanges,
  costItemChanges,
  inputError,
  notFound,
  type PlanChange,
} from '@topline/contract';
import type { Db } from '../../db';
import { type PlanAccess, requireScope } from '../access/access';
import { requireRoomForCostItem } from './collectionLimits';
import { writePlanChanges } from './planChanges';
import { caseOf } from './plans';
import { requireCase } from './planWrites';

/** Cost items of the Cost screen (MODEL.md section 7): a monthly price over a term, per case. */

/** @throws ApiError 400 titled "Input Error" when the term ends before it starts (working-screens.md section 5) */
export function checkTerm(item: CostItemFields): void {
  if (item.start_year * 12 + item.start_month > item.end_year * 12 + item.end_month) {
    throw inputError('end_month', 'the end date cannot be earlier than the start date');
  }
}

/**
 * @returns the new item's id
 * @throws ApiError 400 `limit` `cost_items` when the case holds `COLLECTION_LIMITS.costItemsPerCase` already
 */
export async function createCostItem(db: Db, access: PlanAccess, caseId: number, item: CostItemFields) {
  checkTerm(item);
  const [written] = await writePlanChanges(db, access, async (trx) => {
    await requireCase(trx, access.plan.id, caseId);
    await requireRoomForCostItem(trx, caseId);
    return costItemChanges(caseId, null, item);
  });
  return Number((written as Extract<PlanChange, { type: 'costItem' }>).costId);
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
  await writePlanChanges(db, access, () => costItemChanges(caseId, costId, item, itemVersion));
}

export async function deleteCostItem(db: Db, access: PlanAccess, caseId: number, costId: number) {
  await editableItem(db, access, caseId, costId);
  await writePlanChanges(db, access, () => costDeleteChanges(caseId, costId));
}
