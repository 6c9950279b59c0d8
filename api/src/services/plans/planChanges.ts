/**
 * The rows of a change set (the contract's `PlanChange`): one SQL write per kind of change, so that what a request
 * changes is said once, by the contract, and the rows the API writes and the engine edits its cached workbook and the
 * browser apply are all read from it.
 */
import { caseIdsAfter, conflict, costFieldsOf, engineEdits, notFound, type PlanChange } from '@topline/contract';
import type { PlanCase } from '@topline/engine/schema';
import type { Db } from '../../db';
import type { EditsFor, PlanAccess } from '../access/access';
import { lockedCaseIds, planWrite } from './planWrites';

/**
 * Writes a change set in one plan write: `build` makes it under the plan's lock (it may read, and refuse), its rows are
 * written, the plan's version bumped, and the cached workbook follows it by its engine edits; the request's answer
 * carries it (`plan_changes`), for the browser's workbook to follow it too. Answers the change set as written: a new
 * cost item with the id its row was given.
 * @throws ApiError 404 when a change names a case or a cost item that is not the plan's; 409 when a cost item changed
 * since the version its change names; whatever `build` throws; as `planWrite`
 */
export function writePlanChanges(
  db: Db,
  access: PlanAccess,
  build: (trx: Db) => PlanChange[] | Promise<PlanChange[]>,
): Promise<PlanChange[]> {
  return planWrite(db, access, async (trx) => writeRows(trx, access.plan.id, await build(trx)), editsOfChanges);
}

/** The engine edits of a committed change set, for whoever caches the plan's workbook (`committed`). */
export function editsOfChanges(changes: readonly PlanChange[]): EditsFor {
  return Object.assign((ids: number[]) => engineEdits(changes, ids), {
    caseIdsAfter: (ids: number[]) => caseIdsAfter(changes, ids),
    changes,
  });
}

type MonthChange = Extract<PlanChange, { type: 'actual' | 'cash' }>;

/**
 * The rows of each change, under the plan's lock, in the change set's order. A month's same values for several cases
 * in a row (actuals are saved for every case) are written together: one statement clears, one stores, one marks the
 * month ACT, whatever the number of cases.
 */
async function writeRows(trx: Db, planId: number, changes: readonly PlanChange[]): Promise<PlanChange[]> {
  const cases = new Set(lockedCaseIds(trx, planId));
  const months = new Map<string, { change: MonthChange; caseIds: number[] }>();
  const flushMonths = async () => {
    for (const { change, caseIds } of months.values()) await writeMonth(trx, change, caseIds);
    months.clear();
  };
  const written: PlanChange[] = [];
  for (const change of changes) {
    if (change.type === 'actual' || change.type === 'cash') {
      if (!cases.has(change.caseId)) throw notFound('the case');
      const key = `${change.type}:${change.month}:${JSON.stringify(change.values)}`;
      const group = months.get(key);
      if (group) group.caseIds.push(change.caseId);
      else months.set(key, { change, caseIds: [change.caseId] });
      written.push(change);
      continue;
    }
    await flushMonths();
    if (change.type === 'addCase') {
      written.push(await insertCase(trx, planId, change));
      continue;
    }
    if ('caseId' in change && !cases.has(change.caseId)) throw notFound('the case');
    if (change.type === 'costItem') written.push(await writeCostItem(trx, change));
    else {
      await writeRow(trx, planId, change);
      written.push(change);
    }
  }
  await flushMonths();
  return written;
}

type AddCaseChange = Extract<PlanChange, { type: 'addCase' }>;

/**
 * A new case's row, after the plan's other cases; the change answered with its id. A case put back in its place among
 * the others (`index`) comes only from a restore, which writes its rows as they stood.
 */
async function insertCase(trx: Db, planId: number, change: AddCaseChange): Promise<AddCaseChange> {
  if (change.index !== undefined) throw new Error('a case is put back among the others only by a restore');
  const model = change.case.model as PlanCase['model'];
  const [row] = await trx('cases')
    .insert({
      plan_id: planId,
      position: trx('cases').where({ plan_id: planId }).select(trx.raw('coalesce(max(position), -1) + 1')),
      name: change.case.case_name,
      rate: change.case.case_rate ?? 1,
      model_name: model.model_name,
      model_rates: JSON.stringify(model.model_rate),
    })
    .returning('id');
  return { ...change, caseId: Number(row?.id) };
}

type CostItemChange = Extract<PlanChange, { type: 'costItem' }>;

/** A cost item's row: inserted (the change answered with its new id), or updated over the version the change read. */
async function writeCostItem(trx: Db, change: CostItemChange): Promise<CostItemChange> {
  const fields = costFieldsOf(change.item);
  if (change.costId === null) {
    const [row] = await trx('cost_items')
      .insert({ case_id: change.caseId, ...fields })
      .returning('id');
    return { ...change, costId: Number(row?.id) };
  }
  const { itemVersion } = change;
  const updated = await trx('cost_items')
    .where({
      id: change.costId,
      case_id: change.caseId,
      ...(itemVersion === undefined ? {} : { version: itemVersion }),
    })
    .update({ ...fields, version: trx.raw('version + 1') });
  if (updated > 0) return change;
  if (itemVersion === undefined) throw notFound('the cost item');
  throw conflict(
    'someone else saved this cost item after you opened it; it has been reloaded, check it and save again',
  );
}

async function writeMonth(trx: Db, change: MonthChange, caseIds: number[]): Promise<void> {
  const layer = change.type === 'actual' ? 'actual' : 'estimate';
  const entries = Object.entries(change.values);
  const cleared = entries.filter(([, value]) => value === null).map(([key]) => key);
  const stored = entries.flatMap(([key, value]) =>
    typeof value === 'number'
      ? caseIds.map((caseId) => ({ case_id: caseId, month: change.month, layer, key, value }))
      : [],
  );
  if (cleared.length > 0) {
    await trx('monthly_inputs')
      .whereIn('case_id', caseIds)
      .andWhere({ month: change.month, layer })
      .whereIn('key', cleared)
      .delete();
  }
  if (stored.length > 0) {
    await trx('monthly_inputs').insert(stored).onConflict(['case_id', 'month', 'layer', 'key']).merge();
  }
  if (change.type === 'actual') {
    await trx('monthly_status')
      .insert(caseIds.map((caseId) => ({ case_id: caseId, month: change.month, status: 'ACT' })))
      .onConflict(['case_id', 'month'])
      .merge();
  }
}

async function writeRow(
  trx: Db,
  planId: number,
  change: Exclude<PlanChange, MonthChange | CostItemChange | AddCaseChange>,
) {
  switch (change.type) {
    case 'deleteCase':
      await trx('cases').where({ id: change.caseId, plan_id: planId }).delete();
      return;
    case 'deleteCostItem':
      await trx('cost_items').where({ id: change.costId, case_id: change.caseId }).delete();
      return;
    case 'plan': {
      const { business_plan_name: name, start_year, start_month } = change.values;
      const update = { ...(name === undefined ? {} : { name }), ...(start_year ? { start_year } : {}) };
      await trx('business_plans')
        .where({ id: planId })
        .update({ ...update, ...(start_month ? { start_month } : {}) });
      return;
    }
    case 'reverse':
      await trx('monthly_status').where({ case_id: change.caseId, month: change.month }).update({ status: 'EST' });
      return;
    case 'revise':
      if (change.month === undefined) throw new Error('a revision is written with the month it starts from');
      await trx('revisions')
        .insert({ case_id: change.caseId, year: change.year, pattern: change.pattern, month: change.month })
        .onConflict(['case_id', 'year'])
        .merge();
      return;
    case 'year': {
      const key = { case_id: change.caseId, year: change.year, key: change.key };
      if (change.value === null) await trx('case_year_inputs').where(key).delete();
      else
        await trx('case_year_inputs')
          .insert({ ...key, value: change.value })
          .onConflict(['case_id', 'year', 'key'])
          .merge();
      return;
    }
    case 'caseRate':
      await trx('cases').where({ id: change.caseId }).update({ rate: change.value });
      return;
    case 'caseName':
      await trx('cases').where({ id: change.caseId }).update({ name: change.value });
      return;
    case 'model':
      await trx('cases')
        .where({ id: change.caseId })
        .update({ model_name: change.model.model_name, model_rates: JSON.stringify(change.model.model_rate) });
      return;
    case 'comment': {
      const { year, column_name, section, content } = change.comment;
      const key = { case_id: change.caseId, year, column_name: String(column_name), section };
      // A blank memo removes the memo.
      if (content === '') await trx('comments').where(key).delete();
      else
        await trx('comments')
          .insert({ ...key, content, updated_at: trx.fn.now() })
          .onConflict(['case_id', 'year', 'column_name', 'section'])
          .merge();
      return;
    }
    case 'daily':
      if (change.value === null) {
        await trx('daily_entries').where({ plan_id: planId, date: change.date, key: change.metric }).delete();
        return;
      }
      await trx('daily_entries')
        .insert({ plan_id: planId, date: change.date, key: change.metric, value: change.value })
        .onConflict(['plan_id', 'date', 'key'])
        .merge();
      return;
  }
}
