/**
 * The counts a plan may grow to (`COLLECTION_LIMITS`), checked on every path that adds to them: the Cost screen's
 * create, the plan-file import and a restore from history. Each check runs in the write's transaction after the
 * plan's row lock, so that parallel writes see each other's rows and none goes past the limit.
 */
import { COLLECTION_LIMITS, limitReached } from '@topline/contract';
import type { Db } from '../../db';

const MAX_ITEMS = COLLECTION_LIMITS.costItemsPerCase;

const tooManyItems = (field: string, value: number) =>
  limitReached(field, `a case holds at most ${MAX_ITEMS} cost items`, {
    name: 'cost_items',
    max: MAX_ITEMS,
    value,
  });

/**
 * Room for one more cost item in the case (call with the plan locked).
 * @throws ApiError 400 `limit` `cost_items` when the case holds the limit already
 */
export async function requireRoomForCostItem(trx: Db, caseId: number): Promise<void> {
  const [row] = await trx('cost_items').where({ case_id: caseId }).count<{ count: string }[]>('id as count');
  const count = Number(row?.count ?? 0);
  if (count >= MAX_ITEMS) throw tooManyItems('item', count + 1);
}

/**
 * Each case of a plan file within the limits.
 * @throws ApiError 400 `limit` on `cases.<i>.cost_items` of the first case over one
 */
export function requirePlanFileWithinLimits(file: { cases: readonly { cost_items: readonly unknown[] }[] }): void {
  file.cases.forEach((c, i) => {
    if (c.cost_items.length > MAX_ITEMS) throw tooManyItems(`cases.${i}.cost_items`, c.cost_items.length);
  });
}

/**
 * Every case of the plan within the limits, as a write has left it (call in its transaction, with the plan locked).
 * @throws ApiError 400 `limit` on `field` when a case holds more than a limit
 */
export async function requirePlanWithinLimits(trx: Db, planId: number, field: string): Promise<void> {
  const [row] = await trx('cost_items as i')
    .join('cases as c', 'c.id', 'i.case_id')
    .where('c.plan_id', planId)
    .groupBy('i.case_id')
    .orderByRaw('count(*) desc')
    .limit(1)
    .select(trx.raw('count(*) as count'));
  const most = Number((row as { count?: string } | undefined)?.count ?? 0);
  if (most > MAX_ITEMS) throw tooManyItems(field, most);
}
