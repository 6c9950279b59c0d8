import { costGroupOf as engineCostGroupOf } from '@topline/engine';
import type { CostItemFields } from '../contract/screens';
import type { Db } from '../db';
import { inputError, notFound } from '../errors';
import { bumpVersion, committed, type PlanAccess } from './access';
import { caseOf } from './plans';

/** Cost items of the Cost screen (MODEL.md section 7): a monthly price over a term, per case. */

/** @throws ApiError 400 titled "Input Error" when the term ends before it starts (working-screens.md section 5) */
export function checkTerm(item: CostItemFields): void {
  if (item.start_year * 12 + item.start_month > item.end_year * 12 + item.end_month) {
    throw inputError('end_month', 'the end date cannot be earlier than the start date');
  }
}

const costFields = (item: CostItemFields): CostItemFields => ({
  item_title: item.item_title,
  item_name: item.item_name,
  price: item.price,
  start_year: item.start_year,
  start_month: item.start_month,
  end_year: item.end_year,
  end_month: item.end_month,
});

/** The group (cogs, sm, rd, ga) of a cost item's category key, as the engine reads it. */
export const costGroupOf = (itemTitle: string) => engineCostGroupOf({ item_title: itemTitle });

export async function createCostItem(db: Db, access: PlanAccess, caseId: number, item: CostItemFields) {
  checkTerm(item);
  const { costId, version } = await db.transaction(async (trx) => {
    await caseOf(trx, access.plan.id, caseId);
    const [row] = await trx('cost_items')
      .insert({ case_id: caseId, ...costFields(item) })
      .returning('id');
    return { costId: Number(row?.id), version: await bumpVersion(trx, access.plan.id) };
  });
  committed(access, version, (ids) => [
    { type: 'costItem', caseIndex: ids.indexOf(caseId), item: { cost_id: costId, ...costFields(item) } },
  ]);
  return costId;
}

export async function costItemOf(db: Db, access: PlanAccess, caseId: number, costId: number) {
  await caseOf(db, access.plan.id, caseId);
  const row = await db('cost_items').where({ id: costId, case_id: caseId }).first();
  if (!row) throw notFound('the cost item');
  return row as CostItemFields & { id: number };
}

export async function editCostItem(db: Db, access: PlanAccess, caseId: number, costId: number, item: CostItemFields) {
  checkTerm(item);
  const version = await db.transaction(async (trx) => {
    await trx('cost_items').where({ id: costId, case_id: caseId }).update(costFields(item));
    return bumpVersion(trx, access.plan.id);
  });
  committed(access, version, (ids) => [
    { type: 'costItem', caseIndex: ids.indexOf(caseId), item: { cost_id: costId, ...costFields(item) } },
  ]);
}

export async function deleteCostItem(db: Db, access: PlanAccess, caseId: number, costId: number) {
  const version = await db.transaction(async (trx) => {
    await trx('cost_items').where({ id: costId, case_id: caseId }).delete();
    return bumpVersion(trx, access.plan.id);
  });
  committed(access, version, (ids) => [{ type: 'deleteCostItem', caseIndex: ids.indexOf(caseId), costId }]);
}
