import {
  badRequest,
  type ColorSet,
  caseNameChanges,
  caseYearChanges,
  DEFAULT_COLORS,
  limitReached,
  MAX_CASES,
  modelChanges,
  modelRatesOf,
  notFound,
  ownedPlanLimit,
  type PlanCreate,
  planSettingChanges,
  tierLock,
} from '@topline/contract';
import { GROWTH_TEMPLATES, type ModelName, type YearKey } from '@topline/engine';
import type { Db } from '../../db';
import type { PlanAccess } from '../access/access';
import { lockUser, tierOf, type UserRow } from '../accounts/users';
import { claimIdempotencyKey } from '../requests/idempotency';
import { nameChange } from './changes';
import { type Icon, storeIcon } from './icons';
import { writePlanChanges } from './planChanges';
import { dailyFileOf, planInputRow } from './planColumns';
import { audit, lockedCaseIds, planTransaction, planWrite, requireCase } from './planWrites';

/**
 * Inside a transaction that will add a plan of the user: locks the user's account row, so that the user's account
 * writes serialise, and checks the tier's owned-plan limit.
 * @throws ApiError 403 `tier_lock` with the `owned_plans` limit when the user owns as many plans as the tier allows
 */
export async function requireRoomForPlan(trx: Db, userId: number, today: Date): Promise<void> {
  await lockUser(trx, userId);
  const tier = await tierOf(trx, userId, today);
  const [row] = await trx('business_plans')
    .where({ owner_id: userId })
    .count<{ count: string | number }[]>('id as count');
  const owned = Number(row?.count ?? 0);
  const max = ownedPlanLimit(tier.tier);
  if (owned >= max) throw tierLock('another business plan', { name: 'owned_plans', max, value: owned + 1 });
}

/**
 * Creates a plan with its base case from the wizard, saving the profile fields on the user.
 * @throws ApiError 403 `tier_lock` when the tier's owned-plan limit is reached
 */
export async function createPlan(db: Db, user: UserRow, input: PlanCreate, icon: Icon | null, today: Date) {
  return db.transaction(async (trx) => {
    await requireRoomForPlan(trx, user.id, today);
    await claimIdempotencyKey(trx);
    // The profile choices are optional on this call: one left out (empty) keeps what the profile holds.
    const choices = Object.fromEntries(
      (['position', 'employees', 'stage'] as const).filter((key) => input[key] !== '').map((key) => [key, input[key]]),
    );
    await trx('users')
      .where({ id: user.id })
      .update({ name: input.name, company_name: input.company_name, ...choices, updated_at: trx.fn.now() });
    await nameChange(trx, 'new', { userId: user.id, action: 'plan.create' });
    const [plan] = await trx('business_plans')
      .insert({
        owner_id: user.id,
        ...planInputRow(input),
        icon_hash: icon?.hash ?? null,
        icon_type: icon?.type ?? null,
        theme_color: input.theme_color,
      })
      .returning('id');
    const planId = Number(plan?.id);
    if (icon) await storeIcon(trx, planId, icon);
    await trx('cases').insert({
      plan_id: planId,
      position: 0,
      name: 'Base case',
      rate: 1,
      model_name: input.model_name,
      model_rates: JSON.stringify(modelRatesOf(input.model_name, input.model_rate, GROWTH_TEMPLATES.t2d3)),
    });
    await trx('plan_colors').insert(DEFAULT_COLORS.map((c, i) => ({ plan_id: planId, set_index: i, ...c })));
    await audit(trx, user.id, planId, 'plan.create');
    return planId;
  });
}

export async function editPlan(
  db: Db,
  access: PlanAccess,
  userId: number,
  changes: { name?: string | undefined; start_year?: number | undefined; start_month?: number | undefined },
  icon: Icon | null,
): Promise<void> {
  const planChanges = planSettingChanges({ business_plan_name: changes.name, ...changes });
  const fields = [
    ...Object.keys(planChanges[0]?.type === 'plan' ? planChanges[0].values : {}),
    ...(icon ? ['icon'] : []),
  ];
  await writePlanChanges(db, access, async (trx) => {
    // The icon is no input of the workbook: stored beside the change set.
    if (icon) {
      await storeIcon(trx, access.plan.id, icon);
      await trx('business_plans').where({ id: access.plan.id }).update({ icon_hash: icon.hash, icon_type: icon.type });
    }
    await audit(trx, userId, access.plan.id, 'plan.edit', { fields });
    return planChanges;
  });
}

export async function deletePlan(db: Db, access: PlanAccess, userId: number): Promise<void> {
  // After the plan's writes in flight: the plan's rows go only once none of them holds one.
  await planTransaction(db, access.plan.id, async (trx) => {
    await trx('business_plans').where({ id: access.plan.id }).delete();
    await audit(trx, userId, access.plan.id, 'plan.delete');
  });
}

export async function setThemeColor(db: Db, access: PlanAccess, color: string): Promise<void> {
  await planWrite(db, access, async (trx) => {
    await trx('business_plans').where({ id: access.plan.id }).update({ theme_color: color });
  });
}

export async function planColors(db: Db, planId: number): Promise<ColorSet[]> {
  const rows = await db('plan_colors').where({ plan_id: planId }).orderBy('set_index');
  if (rows.length === 0) return DEFAULT_COLORS;
  return rows.map((r) => ({ arr: r.arr, pl: r.pl, gross_profit: r.gross_profit }));
}

/** Stores the colour sets; missing 2nd and 3rd sets keep the defaults. */
export async function setPlanColors(db: Db, access: PlanAccess, colors: ColorSet[]): Promise<void> {
  await planWrite(db, access, async (trx) => {
    await trx('plan_colors').where({ plan_id: access.plan.id }).delete();
    const sets = DEFAULT_COLORS.map((fallback, i) => colors[i] ?? fallback);
    await trx('plan_colors').insert(sets.map((c, i) => ({ plan_id: access.plan.id, set_index: i, ...c })));
  });
}

export interface CaseRow {
  id: number;
  plan_id: number;
  position: number;
  name: string;
  rate: number;
  model_name: ModelName;
  model_rates: number[] | string;
}

export async function casesOf(db: Db, planId: number): Promise<CaseRow[]> {
  return db<CaseRow>('cases').where({ plan_id: planId }).orderBy(['position', 'id']);
}

/** @throws ApiError 404 when the case is not in this plan */
export async function caseOf(db: Db, planId: number, caseId: number): Promise<CaseRow> {
  const row = await db<CaseRow>('cases').where({ plan_id: planId, id: caseId }).first();
  if (!row) throw notFound('the case');
  return row;
}

export const ratesOf = (row: CaseRow): number[] =>
  typeof row.model_rates === 'string' ? (JSON.parse(row.model_rates) as number[]) : row.model_rates;

/** Adds a case (at most 3) with the first case's growth model; answers its id. */
export async function createCase(db: Db, access: PlanAccess, name: string, rate: number): Promise<number> {
  const [added] = await writePlanChanges(db, access, async (trx) => {
    const existing = await casesOf(trx, access.plan.id);
    if (existing.length >= MAX_CASES) {
      throw limitReached('case_name', `a plan has at most ${MAX_CASES} cases`, {
        name: 'cases',
        max: MAX_CASES,
        value: existing.length + 1,
      });
    }
    const first = existing[0];
    const model = {
      model_name: first?.model_name ?? 't2d3',
      model_rate: first ? ratesOf(first) : [...GROWTH_TEMPLATES.t2d3],
    };
    // Every case reads the plan's daily entries: the new one starts with them.
    const daily = dailyFileOf(await trx('daily_entries').where({ plan_id: access.plan.id }));
    return [{ type: 'addCase', caseId: null, case: { case_name: name, case_rate: rate, model, daily } }];
  });
  return Number(added?.type === 'addCase' ? added.caseId : Number.NaN);
}

/** @throws ApiError 400 for the plan's last case (a plan always has one), 404 when the case is not in the plan */
export async function deleteCase(db: Db, access: PlanAccess, caseId: number): Promise<void> {
  await writePlanChanges(db, access, async (trx) => {
    await requireCase(trx, access.plan.id, caseId);
    if (lockedCaseIds(trx, access.plan.id).length <= 1) {
      throw badRequest({ case_id: 'the last case of a plan cannot be deleted' });
    }
    return [{ type: 'deleteCase', caseId }];
  });
}

export async function renameCase(db: Db, access: PlanAccess, caseId: number, name: string): Promise<void> {
  await writePlanChanges(db, access, () => caseNameChanges({ case_id: caseId, case_name: name }));
}

/** Sets (or with null clears) one per-year assumption; `case_rate` sets the case's rate. */
export async function editCaseYear(
  db: Db,
  access: PlanAccess,
  caseId: number,
  year: number,
  key: YearKey | 'case_rate',
  value: number | null,
): Promise<void> {
  if (key === 'case_rate' && value === null) throw badRequest({ value: 'case_rate needs a value' });
  await writePlanChanges(db, access, () => caseYearChanges({ case_id: caseId, year, key, value }));
}

export async function editModel(
  db: Db,
  access: PlanAccess,
  caseId: number,
  name: ModelName,
  rates: number[] | undefined,
): Promise<void> {
  await writePlanChanges(db, access, async (trx) => {
    // Read after the lock: the rates kept are those of the write before this one.
    const current = ratesOf(await caseOf(trx, access.plan.id, caseId));
    return modelChanges({ business_plan_id: access.plan.id, case_id: caseId, model: { name, rates } }, current);
  });
}
