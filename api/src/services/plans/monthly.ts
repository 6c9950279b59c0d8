import {
  type ActualsEdit,
  actualsChanges,
  badRequest,
  type CashflowEdit,
  type CommentEdit,
  cashflowChanges,
  commentChanges,
  dailyChanges,
  type HomeKpi,
  planMonth,
  reverseChanges,
  reviseChanges,
} from '@topline/contract';
import { EditError, revisionMonth } from '@topline/engine';
import type { Db } from '../../db';
import type { PlanAccess } from '../access/access';
import { writePlanChanges } from './planChanges';
import { lockedCaseIds, requireCase } from './planWrites';

/**
 * The cases a month's write is for: the one named (checked against what the plan's lock read), else every case of the
 * plan.
 * @throws ApiError 404 when the case is not in this plan
 */
async function targetCases(trx: Db, access: PlanAccess, caseId: number | undefined): Promise<number[]> {
  if (caseId === undefined) return lockedCaseIds(trx, access.plan.id);
  await requireCase(trx, access.plan.id, caseId);
  return [caseId];
}

/** Saves a month of actuals and marks it ACT, for one case or (without `case_id`) every case of the plan. */
export async function saveActuals(db: Db, access: PlanAccess, edit: ActualsEdit): Promise<void> {
  await writePlanChanges(db, access, async (trx) =>
    actualsChanges(edit, access.plan.template, await targetCases(trx, access, edit.case_id)),
  );
}

/** Returns a month to forecast (EST); its entered values stay for later. */
export async function reverseMonth(db: Db, access: PlanAccess, year: number, month: number, caseId?: number) {
  const t = planMonth(year, month);
  await writePlanChanges(db, access, async (trx) => {
    const targets = await targetCases(trx, access, caseId);
    const actual = await trx('monthly_status').whereIn('case_id', targets).andWhere({ month: t, status: 'ACT' });
    if (actual.length === 0) throw badRequest({ month: 'this month has no actuals to return to the forecast' });
    return reverseChanges(
      { year, month },
      actual.map((row) => Number(row.case_id)),
    );
  });
}

/** The plan's cash-flow items of one month (the estimate view). */
export async function saveCashflow(db: Db, access: PlanAccess, edit: CashflowEdit): Promise<void> {
  await writePlanChanges(db, access, () => cashflowChanges(edit));
}

export async function saveComment(db: Db, access: PlanAccess, edit: CommentEdit) {
  await writePlanChanges(db, access, () => commentChanges(edit));
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
  await writePlanChanges(db, access, async (trx) => {
    await requireCase(trx, access.plan.id, caseId);
    const act = await trx('monthly_status').where({ case_id: caseId, status: 'ACT' }).pluck('month');
    return reviseChanges({ case_id: caseId, year, pattern }, revisionFrom(act.map(Number), year));
  });
}

/** Daily actuals from home; they add up into the month's actual of that metric (MODEL.md section 5). */
export async function saveDaily(db: Db, access: PlanAccess, date: string, kpi: HomeKpi, value: number) {
  await writePlanChanges(db, access, () => dailyChanges({ kpi_title: kpi, value }, access.plan.template, date));
}

/** The engine's revise precondition (MODEL.md section 6) as a 400 on the year. */
function revisionFrom(actMonths: number[], year: number): number {
  try {
    return revisionMonth(actMonths, year);
  } catch (error) {
    if (error instanceof EditError) throw badRequest({ [error.field]: error.reason });
    throw error;
  }
}
