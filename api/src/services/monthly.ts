import {
  type ActualsEdit,
  actualsEdits,
  actualValuesOf,
  badRequest,
  type CashflowEdit,
  type CommentEdit,
  cashflowEdits,
  cashValuesOf,
  commentEdits,
  dailyEdits,
  type HomeKpi,
  homeMetricOf,
  planMonth,
  reverseEdits,
  reviseEdits,
} from '@topline/contract';
import { EditError, revisionMonth } from '@topline/engine';
import type { Db } from '../db';
import {
  type BlindStatement,
  lockedCaseIds,
  type PlanAccess,
  planWrite,
  planWriteBlind,
  requireCase,
  requireLockedCase,
} from './access';

/**
 * The cases a month's write is for: the one named (checked against what the plan's lock read), else every case of the
 * plan.
 * @throws ApiError 404 when the case is not in this plan
 */
function targetCases(trx: Db, access: PlanAccess, caseId: number | undefined): number[] {
  if (caseId === undefined) return lockedCaseIds(trx, access.plan.id);
  requireLockedCase(trx, access.plan.id, caseId);
  return [caseId];
}

/**
 * The statements that write one month's values of a layer for each of the cases: a null clears the value, undefined
 * leaves it. One statement clears and one stores, whatever the number of values and cases, so that a month saved from
 * the grid is two statements rather than one per value.
 */
function valueStatements(
  trx: Db,
  caseIds: number[],
  t: number,
  layer: 'estimate' | 'actual',
  values: Record<string, number | null | undefined>,
): BlindStatement[] {
  const entries = Object.entries(values);
  const cleared = entries.filter(([, value]) => value === null).map(([key]) => key);
  const stored = entries.flatMap(([key, value]) =>
    typeof value === 'number' ? caseIds.map((caseId) => ({ case_id: caseId, month: t, layer, key, value })) : [],
  );
  const statements: BlindStatement[] = [];
  if (cleared.length > 0 && caseIds.length > 0) {
    statements.push(
      trx('monthly_inputs').whereIn('case_id', caseIds).andWhere({ month: t, layer }).whereIn('key', cleared).delete(),
    );
  }
  if (stored.length > 0) {
    statements.push(trx('monthly_inputs').insert(stored).onConflict(['case_id', 'month', 'layer', 'key']).merge());
  }
  return statements;
}

/** Saves a month of actuals and marks it ACT, for one case or (without `case_id`) every case of the plan. */
export async function saveActuals(db: Db, access: PlanAccess, edit: ActualsEdit): Promise<void> {
  const t = planMonth(edit.year, edit.month);
  const values = actualValuesOf(edit, access.plan.template);
  await planWriteBlind(
    db,
    access,
    (trx) => {
      const caseIds = targetCases(trx, access, edit.case_id);
      const statements = valueStatements(trx, caseIds, t, 'actual', values);
      if (caseIds.length > 0) {
        statements.push(
          trx('monthly_status')
            .insert(caseIds.map((caseId) => ({ case_id: caseId, month: t, status: 'ACT' })))
            .onConflict(['case_id', 'month'])
            .merge(),
        );
      }
      return { statements, value: caseIds };
    },
    (caseIds) => (ids) => actualsEdits(edit, access.plan.template, caseIds, ids),
  );
}

/** Returns a month to forecast (EST); its entered values stay for later. */
export async function reverseMonth(db: Db, access: PlanAccess, year: number, month: number, caseId?: number) {
  const t = planMonth(year, month);
  await planWrite(
    db,
    access,
    async (trx) => {
      const targets = targetCases(trx, access, caseId);
      const actual = await trx('monthly_status').whereIn('case_id', targets).andWhere({ month: t, status: 'ACT' });
      if (actual.length === 0) throw badRequest({ month: 'this month has no actuals to return to the forecast' });
      const caseIds = actual.map((row) => Number(row.case_id));
      await trx('monthly_status').whereIn('case_id', caseIds).andWhere({ month: t }).update({ status: 'EST' });
      return caseIds;
    },
    (caseIds) => (ids) => reverseEdits({ year, month }, caseIds, ids),
  );
}

/** The plan's cash-flow items of one month (the estimate view). */
export async function saveCashflow(db: Db, access: PlanAccess, edit: CashflowEdit): Promise<void> {
  const t = planMonth(edit.year, edit.month);
  const values = cashValuesOf(edit);
  await planWriteBlind(
    db,
    access,
    (trx) => {
      requireLockedCase(trx, access.plan.id, edit.case_id);
      return { statements: valueStatements(trx, [edit.case_id], t, 'estimate', values), value: undefined };
    },
    () => (ids) => cashflowEdits(edit, ids),
  );
}

export async function saveComment(db: Db, access: PlanAccess, edit: CommentEdit) {
  await planWriteBlind(
    db,
    access,
    (trx) => {
      requireLockedCase(trx, access.plan.id, edit.case_id);
      const key = {
        case_id: edit.case_id,
        year: edit.year,
        column_name: String(edit.column_name),
        section: edit.section,
      };
      const statement =
        edit.content.trim() === ''
          ? trx('comments').where(key).delete()
          : trx('comments')
              .insert({ ...key, content: edit.content, updated_at: trx.fn.now() })
              .onConflict(['case_id', 'year', 'column_name', 'section'])
              .merge();
      return { statements: [statement], value: undefined };
    },
    () => (ids) => commentEdits(edit, ids),
  );
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
  await planWrite(
    db,
    access,
    async (trx) => {
      await requireCase(trx, access.plan.id, caseId);
      const act = await trx('monthly_status').where({ case_id: caseId, status: 'ACT' }).pluck('month');
      const L = revisionFrom(act.map(Number), year);
      await trx('revisions')
        .insert({ case_id: caseId, year, pattern, month: L })
        .onConflict(['case_id', 'year'])
        .merge();
    },
    () => (ids) => reviseEdits({ case_id: caseId, year, pattern }, ids),
  );
}

/** Daily actuals from home; they add up into the month's actual of that metric (MODEL.md section 5). */
export async function saveDaily(db: Db, access: PlanAccess, date: string, kpi: HomeKpi, value: number) {
  const metric = homeMetricOf(access.plan.template, kpi);
  await planWriteBlind(
    db,
    access,
    (trx) => ({
      statements: [
        trx('daily_entries')
          .insert({ plan_id: access.plan.id, date, key: metric, value })
          .onConflict(['plan_id', 'date', 'key'])
          .merge(),
      ],
      value: undefined,
    }),
    // Daily entries belong to the plan; every case reads them.
    () => (ids) => dailyEdits({ kpi_title: kpi, value }, access.plan.template, date, ids),
  );
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
