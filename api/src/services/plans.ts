import { GROWTH_TEMPLATES, type YearKey } from '@topline/engine';
import type { ColorSet, PlanCreate } from '../contract/plans';
import { DEFAULT_COLORS, type MODEL_NAMES } from '../contract/plans';
import type { Db } from '../db';
import { badRequest, notFound, tierLock } from '../errors';
import { audit, bumpVersion, committed, type PlanAccess } from './access';
import { ownedPlanLimit, tierOf, type UserRow } from './users';

export const MAX_ICON_BYTES = 2_000_000;
export const MAX_CASES = 3;

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

export function modelRates(name: (typeof MODEL_NAMES)[number], rates: number[] | undefined): number[] {
  if (name === 'custom') return rates ?? [...GROWTH_TEMPLATES.t2d3];
  return [...GROWTH_TEMPLATES[name]];
}

/** Whether the user may own one more plan (Free or trial 1, Basic 2, Team 3). */
export async function canCreatePlan(db: Db, userId: number, today: Date): Promise<boolean> {
  const tier = await tierOf(db, userId, today);
  const [row] = await db('business_plans')
    .where({ owner_id: userId })
    .count<{ count: string | number }[]>('id as count');
  return Number(row?.count ?? 0) < ownedPlanLimit(tier.tier);
}

/**
 * Creates a plan with its base case from the wizard, saving the profile fields on the user.
 * @throws ApiError 403 `tier_lock` when the tier's owned-plan limit is reached
 */
export async function createPlan(db: Db, user: UserRow, input: PlanCreate, icon: Icon | null, today: Date) {
  if (!(await canCreatePlan(db, user.id, today))) throw tierLock('another business plan');
  return db.transaction(async (trx) => {
    await trx('users').where({ id: user.id }).update({
      name: input.name,
      company_name: input.company_name,
      position: input.position,
      employees: input.employees,
      stage: input.stage,
      updated_at: trx.fn.now(),
    });
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
      model_rates: JSON.stringify(modelRates(input.model_name, input.model_rate)),
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
  const version = await db.transaction(async (trx) => {
    if (Object.keys(update).length > 0) await trx('business_plans').where({ id: access.plan.id }).update(update);
    await audit(trx, userId, access.plan.id, 'plan.edit', { fields: Object.keys(update) });
    return bumpVersion(trx, access.plan.id);
  });
  const values: { business_plan_name?: string; start_year?: number; start_month?: number } = {};
  if (changes.name !== undefined) values.business_plan_name = changes.name;
  if (changes.start_year !== undefined) values.start_year = changes.start_year;
  if (changes.start_month !== undefined) values.start_month = changes.start_month;
  committed(access, version, () => (Object.keys(values).length ? [{ type: 'plan', values }] : []));
}

export async function deletePlan(db: Db, access: PlanAccess, userId: number): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('business_plans').where({ id: access.plan.id }).delete();
    await audit(trx, userId, access.plan.id, 'plan.delete');
  });
}

export async function setThemeColor(db: Db, access: PlanAccess, color: string): Promise<void> {
  const version = await db.transaction(async (trx) => {
    await trx('business_plans').where({ id: access.plan.id }).update({ theme_color: color });
    return bumpVersion(trx, access.plan.id);
  });
  committed(access, version);
}

export async function planColors(db: Db, planId: number): Promise<ColorSet[]> {
  const rows = await db('plan_colors').where({ plan_id: planId }).orderBy('set_index');
  if (rows.length === 0) return DEFAULT_COLORS;
  return rows.map((r) => ({ arr: r.arr, pl: r.pl, gross_profit: r.gross_profit }));
}

/** Stores the colour sets; missing 2nd and 3rd sets keep the defaults. */
export async function setPlanColors(db: Db, access: PlanAccess, colors: ColorSet[]): Promise<void> {
  const version = await db.transaction(async (trx) => {
    await trx('plan_colors').where({ plan_id: access.plan.id }).delete();
    const sets = DEFAULT_COLORS.map((fallback, i) => colors[i] ?? fallback);
    await trx('plan_colors').insert(sets.map((c, i) => ({ plan_id: access.plan.id, set_index: i, ...c })));
    return bumpVersion(trx, access.plan.id);
  });
  committed(access, version);
}

export interface CaseRow {
  id: number;
  plan_id: number;
  position: number;
  name: string;
  rate: number;
  model_name: (typeof MODEL_NAMES)[number];
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
  const { caseId, version } = await db.transaction(async (trx) => {
    const existing = await casesOf(trx, access.plan.id);
    if (existing.length >= MAX_CASES) throw badRequest({ case_name: `a plan has at most ${MAX_CASES} cases` });
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
    return { caseId: Number(row?.id), version: await bumpVersion(trx, access.plan.id) };
  });
  // A new case changes the case order: the workbook is rebuilt on the next read.
  committed(access, version, null);
  return caseId;
}

export async function deleteCase(db: Db, access: PlanAccess, caseId: number): Promise<void> {
  const version = await db.transaction(async (trx) => {
    await caseOf(trx, access.plan.id, caseId);
    const existing = await casesOf(trx, access.plan.id);
    if (existing.length <= 1) throw badRequest({ case_id: 'the last case of a plan cannot be deleted' });
    await trx('cases').where({ id: caseId }).delete();
    return bumpVersion(trx, access.plan.id);
  });
  committed(access, version, null);
}

export async function renameCase(db: Db, access: PlanAccess, caseId: number, name: string): Promise<void> {
  const version = await db.transaction(async (trx) => {
    await caseOf(trx, access.plan.id, caseId);
    await trx('cases').where({ id: caseId }).update({ name });
    return bumpVersion(trx, access.plan.id);
  });
  committed(access, version, (ids) => [{ type: 'caseName', caseIndex: ids.indexOf(caseId), value: name }]);
}

/** Sets (or with null clears) one per-year assumption; `case_rate` sets the case's rate. */
export async function editCaseYear(
  db: Db,
  access: PlanAccess,
  caseId: number,
  year: number,
  key: string,
  value: number | null,
): Promise<void> {
  const version = await db.transaction(async (trx) => {
    await caseOf(trx, access.plan.id, caseId);
    if (key === 'case_rate') {
      if (value === null) throw badRequest({ value: 'case_rate needs a value' });
      await trx('cases').where({ id: caseId }).update({ rate: value });
    } else if (value === null) {
      await trx('case_year_inputs').where({ case_id: caseId, year, key }).delete();
    } else {
      await trx('case_year_inputs')
        .insert({ case_id: caseId, year, key, value })
        .onConflict(['case_id', 'year', 'key'])
        .merge();
    }
    return bumpVersion(trx, access.plan.id);
  });
  committed(access, version, (ids) => {
    const caseIndex = ids.indexOf(caseId);
    if (key === 'case_rate') return [{ type: 'caseRate', caseIndex, value: value ?? 1 }];
    return [{ type: 'year', caseIndex, year, key: key as YearKey, value }];
  });
}

export async function editModel(
  db: Db,
  access: PlanAccess,
  caseId: number,
  name: (typeof MODEL_NAMES)[number],
  rates: number[] | undefined,
): Promise<void> {
  const { version, next } = await db.transaction(async (trx) => {
    const row = await caseOf(trx, access.plan.id, caseId);
    const next = name === 'custom' ? (rates ?? ratesOf(row)) : modelRates(name, undefined);
    await trx('cases')
      .where({ id: caseId })
      .update({ model_name: name, model_rates: JSON.stringify(next) });
    return { version: await bumpVersion(trx, access.plan.id), next };
  });
  committed(access, version, (ids) => [
    { type: 'model', caseIndex: ids.indexOf(caseId), model: { model_name: name, model_rate: next } },
  ]);
}
