import { ACTUAL_KEYS, type ActualsEdit, CASH_KEYS, type CashflowEdit } from '../contract/screens';
import type { Db } from '../db';
import { badRequest } from '../errors';
import { bumpVersion, committed, type PlanAccess } from './access';
import { caseOf, casesOf } from './plans';

/** Plan month index t of month k (1..12) of plan year y (MODEL.md section 1). */
export const planMonth = (year: number, month: number) => 12 * (year - 1) + month;

async function targetCases(trx: Db, access: PlanAccess, caseId: number | undefined): Promise<number[]> {
  if (caseId !== undefined) return [(await caseOf(trx, access.plan.id, caseId)).id];
  return (await casesOf(trx, access.plan.id)).map((c) => c.id);
}

async function writeValues(
  trx: Db,
  caseId: number,
  t: number,
  layer: 'estimate' | 'actual',
  values: Record<string, number | null | undefined>,
) {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (value === null) await trx('monthly_inputs').where({ case_id: caseId, month: t, layer, key }).delete();
    else {
      await trx('monthly_inputs')
        .insert({ case_id: caseId, month: t, layer, key, value })
        .onConflict(['case_id', 'month', 'layer', 'key'])
        .merge();
    }
  }
}

/** Saves a month of actuals and marks it ACT. */
export async function saveActuals(db: Db, access: PlanAccess, edit: ActualsEdit): Promise<void> {
  const t = planMonth(edit.year, edit.month);
  const values: Record<string, number | null | undefined> = {};
  for (const key of ACTUAL_KEYS) values[key] = edit[key];
  // Only the template's own funnel rows exist (working-screens.md section 1).
  if (access.plan.template === 'saas') delete values.registration;
  else {
    delete values.lead;
    delete values.meeting;
  }
  const { version, caseIds } = await db.transaction(async (trx) => {
    const caseIds = await targetCases(trx, access, edit.case_id);
    for (const caseId of caseIds) {
      await writeValues(trx, caseId, t, 'actual', values);
      await trx('monthly_status')
        .insert({ case_id: caseId, month: t, status: 'ACT' })
        .onConflict(['case_id', 'month'])
        .merge();
    }
    return { version: await bumpVersion(trx, access.plan.id), caseIds };
  });
  const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  committed(access, version, (ids) =>
    caseIds.map((id) => ({ type: 'actual', caseIndex: ids.indexOf(id), month: t, values: defined })),
  );
}

/** Returns a month to forecast (EST); its entered values stay for later. */
export async function reverseMonth(db: Db, access: PlanAccess, year: number, month: number, caseId?: number) {
  const t = planMonth(year, month);
  const { version, caseIds } = await db.transaction(async (trx) => {
    const targets = await targetCases(trx, access, caseId);
    const actual = await trx('monthly_status').whereIn('case_id', targets).andWhere({ month: t, status: 'ACT' });
    if (actual.length === 0) throw badRequest({ month: 'this month has no actuals to return to the forecast' });
    const caseIds = actual.map((row) => Number(row.case_id));
    await trx('monthly_status').whereIn('case_id', caseIds).andWhere({ month: t }).update({ status: 'EST' });
    return { version: await bumpVersion(trx, access.plan.id), caseIds };
  });
  committed(access, version, (ids) => caseIds.map((id) => ({ type: 'reverse', caseIndex: ids.indexOf(id), month: t })));
}

/** The plan's cash-flow items of one month (the estimate view). */
export async function saveCashflow(db: Db, access: PlanAccess, edit: CashflowEdit): Promise<void> {
  const t = planMonth(edit.year, edit.month);
  const values: Record<string, number | null | undefined> = {};
  for (const key of CASH_KEYS) values[key] = edit[key];
  const version = await db.transaction(async (trx) => {
    await caseOf(trx, access.plan.id, edit.case_id);
    await writeValues(trx, edit.case_id, t, 'estimate', values);
    return bumpVersion(trx, access.plan.id);
  });
  const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  committed(access, version, (ids) => [
    { type: 'cash', caseIndex: ids.indexOf(edit.case_id), month: t, values: defined },
  ]);
}

export async function saveComment(
  db: Db,
  access: PlanAccess,
  edit: { case_id: number; year: number; column_name: number; section: string; content: string },
) {
  const version = await db.transaction(async (trx) => {
    await caseOf(trx, access.plan.id, edit.case_id);
    const key = {
      case_id: edit.case_id,
      year: edit.year,
      column_name: String(edit.column_name),
      section: edit.section,
    };
    if (edit.content.trim() === '') await trx('comments').where(key).delete();
    else {
      await trx('comments')
        .insert({ ...key, content: edit.content, updated_at: trx.fn.now() })
        .onConflict(['case_id', 'year', 'column_name', 'section'])
        .merge();
    }
    return bumpVersion(trx, access.plan.id);
  });
  const content = edit.content.trim() === '' ? '' : edit.content;
  const section = edit.section as 'estimate' | 'actual' | 'difference';
  committed(access, version, (ids) => [
    {
      type: 'comment',
      caseIndex: ids.indexOf(edit.case_id),
      comment: { year: edit.year, column_name: edit.column_name, section, content },
    },
  ]);
}

/**
 * Revises the year's budget from its latest ACT month L (MODEL.md section 6).
 * @throws ApiError 400 when the year has no actual month yet, or no month left after it
 */
export async function reviseBudget(
  db: Db,
  access: PlanAccess,
  caseId: number,
  year: number,
  pattern: 'upward' | 'downward',
) {
  const version = await db.transaction(async (trx) => {
    await caseOf(trx, access.plan.id, caseId);
    const latest = await trx('monthly_status')
      .where({ case_id: caseId, status: 'ACT' })
      .whereBetween('month', [planMonth(year, 1), planMonth(year, 12)])
      .max<{ max: number | null }[]>('month as max');
    const L = latest[0]?.max ?? null;
    if (L === null) throw badRequest({ year: 'enter actuals for this year before revising its budget' });
    if (L >= planMonth(year, 12))
      throw badRequest({ year: 'every month of this year has actuals; nothing is left to revise' });
    await trx('revisions').insert({ case_id: caseId, year, pattern, month: L }).onConflict(['case_id', 'year']).merge();
    return bumpVersion(trx, access.plan.id);
  });
  committed(access, version, (ids) => [{ type: 'revise', caseIndex: ids.indexOf(caseId), year, pattern }]);
}

/** Daily actuals from home; they add up into the month's actual of that metric (MODEL.md section 5). */
export async function saveDaily(
  db: Db,
  access: PlanAccess,
  date: string,
  metric: 'meeting' | 'order' | 'registration' | 'billing',
  value: number,
) {
  const version = await db.transaction(async (trx) => {
    await trx('daily_entries')
      .insert({ plan_id: access.plan.id, date, key: metric, value })
      .onConflict(['plan_id', 'date', 'key'])
      .merge();
    return bumpVersion(trx, access.plan.id);
  });
  // Daily entries belong to the plan; every case reads them.
  committed(access, version, (ids) => ids.map((_, caseIndex) => ({ type: 'daily', caseIndex, date, metric, value })));
}
