import {
  badRequest,
  type ColorSet,
  caseNameEdits,
  caseYearEdits,
  DEFAULT_COLORS,
  limitReached,
  MAX_CASES,
  modelEdits,
  modelRatesOf,
  notFound,
  ownedPlanLimit,
  type PlanCreate,
  planSettingEdits,
  tierLock,
} from '@topline/contract';
import { GROWTH_TEMPLATES, type ModelName, type YearKey } from '@topline/engine';
import type { Db } from '../db';
import {
  audit,
  type PlanAccess,
  planTransaction,
  planWrite,
  planWriteBlind,
  requireCase,
  requireLockedCase,
} from './access';
import { nameChange } from './changes';
import { lockUser, tierOf, type UserRow } from './users';

export const MAX_ICON_BYTES = 2_000_000;

export interface Icon {
  bytes: Buffer;
  type: 'image/png' | 'image/jpeg';
}

/**
 * Accepts a PNG or JPEG of at most 2,000,000 bytes, recognised by its first bytes rather than its name.
 * @throws ApiError 400 on anything else
 */
export function checkIcon(bytes: Buffer): Icon {
  const invalid = () => badRequest({ business_plan_icon: 'the icon must be a JPEG or PNG of at most 2,000,000 bytes' });
  if (bytes.length === 0 || bytes.length > MAX_ICON_BYTES) throw invalid();
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.every((b, i) => bytes[i] === b)) return { bytes, type: 'image/png' };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { bytes, type: 'image/jpeg' };
  throw invalid();
}

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
        name: input.business_plan_name,
        icon: icon?.bytes ?? null,
        icon_type: icon?.type ?? null,
        template: input.template,
        currency: input.currency,
        arr: input.arr,
        period: input.period,
        arpa: input.arpa,
        start_year: input.start_year,
        start_month: input.start_month,
        theme_color: input.theme_color,
      })
      .returning('id');
    const planId = Number(plan?.id);
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
  const update: Record<string, unknown> = {};
  if (changes.name !== undefined) update.name = changes.name;
  if (changes.start_year !== undefined) update.start_year = changes.start_year;
  if (changes.start_month !== undefined) update.start_month = changes.start_month;
  if (icon) Object.assign(update, { icon: icon.bytes, icon_type: icon.type });
  const edits = planSettingEdits({ business_plan_name: changes.name, ...changes });
  await planWrite(
    db,
    access,
    async (trx) => {
      if (Object.keys(update).length > 0) await trx('business_plans').where({ id: access.plan.id }).update(update);
      await audit(trx, userId, access.plan.id, 'plan.edit', { fields: Object.keys(update) });
    },
    () => () => edits,
  );
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

/** Adds a case (at most 3) with the first case's growth model. */
export async function createCase(db: Db, access: PlanAccess, name: string, rate: number): Promise<number> {
  return planWrite(
    db,
    access,
    async (trx) => {
      const existing = await casesOf(trx, access.plan.id);
      if (existing.length >= MAX_CASES) {
        throw limitReached('case_name', `a plan has at most ${MAX_CASES} cases`, {
          name: 'cases',
          max: MAX_CASES,
          value: existing.length + 1,
        });
      }
      const first = existing[0];
      const [row] = await trx('cases')
        .insert({
          plan_id: access.plan.id,
          position: Math.max(-1, ...existing.map((c) => c.position)) + 1,
          name,
          rate,
          model_name: first?.model_name ?? 't2d3',
          model_rates: JSON.stringify(first ? ratesOf(first) : GROWTH_TEMPLATES.t2d3),
        })
        .returning('id');
      return Number(row?.id);
    },
    // A new case changes the case order: the workbook is rebuilt on the next read.
    () => null,
  );
}

/** @throws ApiError 400 for the plan's last case (a plan always has one), 404 when the case is not in the plan */
export async function deleteCase(db: Db, access: PlanAccess, caseId: number): Promise<void> {
  await planWrite(
    db,
    access,
    async (trx) => {
      await requireCase(trx, access.plan.id, caseId);
      const existing = await casesOf(trx, access.plan.id);
      if (existing.length <= 1) throw badRequest({ case_id: 'the last case of a plan cannot be deleted' });
      await trx('cases').where({ id: caseId }).delete();
    },
    () => null,
  );
}

export async function renameCase(db: Db, access: PlanAccess, caseId: number, name: string): Promise<void> {
  await planWriteBlind(
    db,
    access,
    (trx) => {
      requireLockedCase(trx, access.plan.id, caseId);
      return { statements: [trx('cases').where({ id: caseId }).update({ name })], value: undefined };
    },
    () => (ids) => caseNameEdits({ case_id: caseId, case_name: name }, ids),
  );
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
  await planWriteBlind(
    db,
    access,
    (trx) => {
      requireLockedCase(trx, access.plan.id, caseId);
      const statement =
        key === 'case_rate'
          ? trx('cases').where({ id: caseId }).update({ rate: value })
          : value === null
            ? trx('case_year_inputs').where({ case_id: caseId, year, key }).delete()
            : trx('case_year_inputs')
                .insert({ case_id: caseId, year, key, value })
                .onConflict(['case_id', 'year', 'key'])
                .merge();
      return { statements: [statement], value: undefined };
    },
    () => (ids) => caseYearEdits({ case_id: caseId, year, key, value }, ids),
  );
}

export async function editModel(
  db: Db,
  access: PlanAccess,
  caseId: number,
  name: ModelName,
  rates: number[] | undefined,
): Promise<void> {
  await planWrite(
    db,
    access,
    async (trx) => {
      // Read after the lock: the rates kept are those of the write before this one.
      const row = await caseOf(trx, access.plan.id, caseId);
      const next = modelRatesOf(name, rates, ratesOf(row));
      await trx('cases')
        .where({ id: caseId })
        .update({ model_name: name, model_rates: JSON.stringify(next) });
      return next;
    },
    (next) => (ids) =>
      modelEdits({ business_plan_id: access.plan.id, case_id: caseId, model: { name, rates: next } }, next, ids),
  );
}
