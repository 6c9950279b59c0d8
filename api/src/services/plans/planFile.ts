/**
 * The one place where a plan's database rows and the engine's plan file (MODEL.md section 9) meet, both ways.
 */

import { badRequest } from '@topline/contract';
import { type PlanFile, planFileSchema } from '@topline/engine';
import type { z } from 'zod';
import type { Db } from '../../db';
import type { AccessPlan } from '../access/access';
import { claimIdempotencyKey } from '../requests/idempotency';
import { nameChange } from './changes';
import { requirePlanFileWithinLimits } from './collectionLimits';
import { dailyFileOf, planInputRow, planInputsOf } from './planColumns';
import { type CaseRow, casesOf, ratesOf, requireRoomForPlan } from './plans';

type PlanFileInput = z.input<typeof planFileSchema>;
type CaseInput = PlanFileInput['cases'][number];
type Numbers = Record<string, number>;

export interface LoadedPlan {
  plan: AccessPlan;
  /** The plan file the engine builds from. */
  file: PlanFileInput;
  /** Database ids of the cases, in the plan file's case order. */
  caseIds: number[];
}

/**
 * Reads every input row of a plan into a plan file. Values are passed as stored, even those outside the plan file's
 * bounds (stored before they existed, or written straight into the database): `PlanWorkbook.build` leaves those out,
 * so that their defaults apply, and flags them in its answers (engine/DECISIONS.md), where a refusal here would fail
 * every screen of the plan.
 */
export async function loadPlanFile(db: Db, plan: AccessPlan): Promise<LoadedPlan> {
  return planFileOf(plan, await readPlanRows(db, plan.id));
}

/** A plan's input rows as stored, by table: what a plan file is made from (`planFileOf`). */
export interface PlanRows {
  cases: CaseRow[];
  years: Record<string, unknown>[];
  monthly: Record<string, unknown>[];
  statuses: Record<string, unknown>[];
  revisions: Record<string, unknown>[];
  costItems: Record<string, unknown>[];
  comments: Record<string, unknown>[];
  daily: Record<string, unknown>[];
}

/** Reads every input row of a plan but its settings' row (the plan's columns are the caller's). */
export async function readPlanRows(db: Db, planId: number): Promise<PlanRows> {
  const cases = await casesOf(db, planId);
  const caseIds = cases.map((c) => c.id);
  // Knex runs a query when it is awaited: on the pool the seven run at once, each on a connection of its own; in a
  // transaction, its one connection takes them one after another (pg refuses queries queued on a busy client).
  const queries = [
    db('case_year_inputs').whereIn('case_id', caseIds),
    db('monthly_inputs').whereIn('case_id', caseIds),
    db('monthly_status').whereIn('case_id', caseIds),
    db('revisions').whereIn('case_id', caseIds),
    db('cost_items').whereIn('case_id', caseIds).orderBy('id'),
    db('comments').whereIn('case_id', caseIds),
    db('daily_entries').where({ plan_id: planId }),
  ];
  const rows: Record<string, unknown>[][] = [];
  if (db.isTransaction) for (const query of queries) rows.push(await query);
  else rows.push(...(await Promise.all(queries)));
  const [years = [], monthly = [], statuses = [], revisions = [], costItems = [], comments = [], daily = []] = rows;
  return { cases, years, monthly, statuses, revisions, costItems, comments, daily };
}

/**
 * A plan file of a plan's settings and input rows. Cases go in their order (position, then id), cost items in the
 * order they were added.
 */
export function planFileOf(plan: AccessPlan, rows: PlanRows): LoadedPlan {
  const cases = [...rows.cases].sort((a, b) => a.position - b.position || a.id - b.id);
  const caseIds = cases.map((c) => c.id);
  const costItems = [...rows.costItems].sort((a, b) => Number(a.id) - Number(b.id));
  const { years, monthly, statuses, revisions, comments } = rows;
  const dailyFile = dailyFileOf(rows.daily);
  const file: PlanFileInput = {
    ...planInputsOf(plan),
    cases: cases.map((c) => caseFile(c, { years, monthly, statuses, revisions, costItems, comments, dailyFile })),
  };
  return { plan, file, caseIds };
}

/** The rows a case's part of the plan file is made from: the plan's, each list filtered to the case. */
type CaseRows = Omit<PlanRows, 'cases' | 'daily'> & { dailyFile: Record<string, Numbers> };

function caseFile(c: CaseRow, rows: CaseRows): CaseInput {
  const mine = (list: Record<string, unknown>[]) => list.filter((r) => r.case_id === c.id);
  const years: Record<string, Numbers> = {};
  for (const r of mine(rows.years)) {
    const year = String(r.year);
    years[year] ??= {};
    (years[year] as Numbers)[r.key as string] = Number(r.value);
  }
  const cash: Record<string, Numbers> = {};
  const actuals: Record<string, Numbers & { status?: 'ACT' | 'EST' }> = {};
  for (const r of mine(rows.monthly)) {
    const target = r.layer === 'actual' ? actuals : cash;
    const month = String(r.month);
    target[month] ??= {};
    (target[month] as Numbers)[r.key as string] = Number(r.value);
  }
  for (const r of mine(rows.statuses)) {
    const month = String(r.month);
    actuals[month] = { ...actuals[month], status: r.status as 'ACT' | 'EST' } as Numbers & { status: 'ACT' | 'EST' };
  }
  // A month with values but no status row was never saved as actual.
  for (const values of Object.values(actuals)) if (values.status === undefined) values.status = 'EST';
  const revisions: Record<string, { pattern: 'upward' | 'downward'; month: number }> = {};
  for (const r of mine(rows.revisions)) {
    revisions[String(r.year)] = { pattern: r.pattern as 'upward' | 'downward', month: Number(r.month) };
  }
  return {
    case_name: c.name,
    case_rate: Number(c.rate),
    model: { model_name: c.model_name, model_rate: ratesOf(c) },
    years,
    cash,
    actuals,
    daily: rows.dailyFile,
    revisions,
    cost_items: mine(rows.costItems).map((r) => ({
      cost_id: Number(r.id),
      item_title: r.item_title as string,
      item_name: (r.item_name as string) || '-',
      price: Number(r.price),
      start_year: Number(r.start_year),
      start_month: Number(r.start_month),
      end_year: Number(r.end_year),
      end_month: Number(r.end_month),
    })),
    comments: mine(rows.comments)
      .filter((r) => /^\d+$/.test(String(r.column_name)))
      .map((r) => ({
        year: Number(r.year),
        column_name: Number(r.column_name),
        section: r.section as 'estimate' | 'actual' | 'difference',
        content: r.content as string,
      })),
  };
}

/**
 * Imports a plan file as a new plan of the owner, every input in one transaction.
 * @throws ApiError 400 naming each invalid field of the file, 400 `limit` for a case over `COLLECTION_LIMITS`
 */
export async function importPlanFile(db: Db, ownerId: number, planJson: unknown, today: Date): Promise<number> {
  const parsed = planFileSchema.safeParse(planJson);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[issue.path.join('.') || 'plan'] ??= issue.message;
    throw badRequest(errors, 'the plan file is invalid');
  }
  const file: PlanFile = parsed.data;
  requirePlanFileWithinLimits(file);
  return db.transaction(async (trx) => {
    await requireRoomForPlan(trx, ownerId, today);
    await claimIdempotencyKey(trx);
    await nameChange(trx, 'new', { userId: ownerId, action: 'plan.import' });
    const [plan] = await trx('business_plans')
      .insert({ owner_id: ownerId, ...planInputRow(file) })
      .returning('id');
    const planId = Number(plan?.id);
    const daily = new Map<string, Numbers>();
    for (const [position, c] of file.cases.entries()) {
      const [row] = await trx('cases')
        .insert({
          plan_id: planId,
          position,
          name: c.case_name,
          rate: c.case_rate,
          model_name: c.model.model_name,
          model_rates: JSON.stringify(c.model.model_rate),
        })
        .returning('id');
      const caseId = Number(row?.id);
      const yearRows = Object.entries(c.years).flatMap(([year, values]) =>
        Object.entries(values).map(([key, value]) => ({ case_id: caseId, year: Number(year), key, value })),
      );
      const monthRows = [
        ...Object.entries(c.cash).flatMap(([t, values]) =>
          Object.entries(values).map(([key, value]) => ({
            case_id: caseId,
            month: Number(t),
            layer: 'estimate',
            key,
            value,
          })),
        ),
        ...Object.entries(c.actuals).flatMap(([t, values]) =>
          Object.entries(values)
            .filter(([key]) => key !== 'status')
            .map(([key, value]) => ({ case_id: caseId, month: Number(t), layer: 'actual', key, value })),
        ),
      ];
      const statusRows = Object.entries(c.actuals).map(([t, values]) => ({
        case_id: caseId,
        month: Number(t),
        status: values.status ?? 'ACT',
      }));
      if (yearRows.length) await trx('case_year_inputs').insert(yearRows);
      if (monthRows.length) await trx('monthly_inputs').insert(monthRows);
      if (statusRows.length) await trx('monthly_status').insert(statusRows);
      const revisionRows = Object.entries(c.revisions).map(([year, r]) => ({
        case_id: caseId,
        year: Number(year),
        ...r,
      }));
      if (revisionRows.length) await trx('revisions').insert(revisionRows);
      // One insert of every item, in the file's order (their ids keep it).
      const itemRows = c.cost_items.map(({ cost_id: _ignored, ...fields }) => ({ case_id: caseId, ...fields }));
      if (itemRows.length) await trx('cost_items').insert(itemRows);
      const commentRows = c.comments.map((m) => ({ case_id: caseId, ...m, column_name: String(m.column_name) }));
      if (commentRows.length) await trx('comments').insert(commentRows);
      for (const [date, values] of Object.entries(c.daily))
        daily.set(date, { ...daily.get(date), ...values } as Numbers);
      if (position === 0 && c.colors) {
        await trx('plan_colors').insert(c.colors.map((set, i) => ({ plan_id: planId, set_index: i, ...set })));
      }
    }
    const dailyRows = [...daily.entries()].flatMap(([date, values]) =>
      Object.entries(values).map(([key, value]) => ({ plan_id: planId, date, key, value })),
    );
    if (dailyRows.length) await trx('daily_entries').insert(dailyRows);
    return planId;
  });
}
