import {
  AREAS,
  clampRoles,
  fullRoles,
  isPlanReadOnly,
  LEVELS,
  type Level,
  levelFor as levelOf,
  noPermission,
  notFound,
  type Operation,
  ownedPlanLimit,
  ownerOnly,
  type PlanChange,
  type Roles,
  type Scope,
  tierLock,
  isTierLocked as tierLocks,
  unauthorized,
} from '@topline/contract';
import type { PlanEdit } from '@topline/engine';
import { PLAN_INPUT_KEYS } from '@topline/engine/schema';
import type { Db } from '../../db';
import { type TierInfo, tierFrom, type UserRow } from '../accounts/users';
import { planInputColumn } from '../plans/planColumns';

export interface PlanRow {
  id: number;
  owner_id: number;
  name: string;
  /** The hash of the plan's current icon in `plan_icons`, or null. */
  icon_hash: string | null;
  icon_type: string | null;
  template: 'saas' | 'selfserve';
  currency: 'JPY' | 'USD';
  arr: number;
  period: number;
  arpa: number;
  start_year: number;
  start_month: number;
  theme_color: 'purple' | 'black' | 'gray';
  version: number;
}

/**
 * The engine edits that a committed write made, given the cached workbook's case ids (index -> id); with
 * `caseIdsAfter` when the write adds or deletes cases (the ids once its edits are applied), and `changes` when the
 * edits are a change set's (which the write's answer then carries).
 */
export type EditsFor = ((caseIds: number[]) => PlanEdit[]) & {
  caseIdsAfter?: (caseIds: number[]) => number[];
  changes?: readonly PlanChange[];
};

export interface PlanAccess {
  plan: AccessPlan;
  /**
   * Told after each committed write of this request: the plan's new version and the same change as engine edits
   * (null when the workbook must be rebuilt instead), so a warm cached workbook can follow without a rebuild.
   */
  changed?: (version: number, edits: EditsFor | null) => void;
  /** Told the version of the workbook a read was answered from. */
  served?: (version: number) => void;
  isOwner: boolean;
  /** Effective roles: the owner has can_edit everywhere; members are clamped by the owner's tier. */
  roles: Roles;
  ownerTier: TierInfo;
  /** The plan is over its owner's owned-plan limit (after a downgrade): readable, every write refused. */
  readOnly: boolean;
}

export function rolesOf(row: Record<string, unknown>): Roles {
  const roles = {} as Roles;
  for (const area of AREAS) {
    const value = row[area];
    roles[area] = (LEVELS as readonly unknown[]).includes(value) ? (value as Level) : 'no_access';
  }
  return roles;
}

/**
 * Loads a plan for a caller who owns it or is a member of it (invitation received).
 * Anyone else gets 404, so a stranger cannot even learn that the plan exists.
 * @throws ApiError 404
 */
export async function planAccess(db: Db, user: UserRow, planId: number, today: Date): Promise<PlanAccess> {
  // One round trip: the plan, its owner's subscription and the caller's membership.
  const row = await db('business_plans as bp')
    .leftJoin('subscriptions as s', 's.user_id', 'bp.owner_id')
    .leftJoin('plan_members as pm', (join) =>
      join.on('pm.plan_id', 'bp.id').andOnVal('pm.user_id', user.id).andOnVal('pm.status', 'received'),
    )
    .where('bp.id', planId)
    .first(...PLAN_COLUMNS.map((c) => `bp.${c}`), ...ACCESS_COLUMNS, olderPlans(db));
  if (!row) throw notFound('the business plan');
  return accessOf(factsFrom(row), user.id, today);
}

/** The plan as plan-scoped calls see it, frozen (its icon's bytes are in `plan_icons`). */
export type AccessPlan = Readonly<PlanRow>;

/** The plan columns a plan-scoped call and a workbook build read. */
export const PLAN_COLUMNS: readonly (keyof AccessPlan)[] = [
  'id',
  'owner_id',
  ...PLAN_INPUT_KEYS.map(planInputColumn),
  'icon_hash',
  'icon_type',
  'theme_color',
  'version',
];

const USER_COLUMNS = [
  'id',
  'email',
  'password_hash',
  'google_sub',
  'auth_provider',
  'name',
  'picture',
  'company_name',
  'position',
  'employees',
  'stage',
  'token_version',
] as const;

const ACCESS_COLUMNS = [
  's.tier as owner_tier',
  's.trial_end as owner_trial_end',
  'pm.id as member_id',
  ...AREAS.map((a) => `pm.${a} as role_${a}`),
];

/** How many plans the owner made before this one: those up to the tier's limit keep working (`isPlanReadOnly`). */
const olderPlans = (db: Db) =>
  db.raw(
    '(SELECT count(*) FROM business_plans AS older WHERE older.owner_id = bp.owner_id AND older.id < bp.id) AS older_plans',
  );

/**
 * What decides a user's access to a plan: the plan, its owner's subscription and the user's membership as stored.
 * It holds no date, so it can be kept until one of those rows changes (`AccessCache`); `accessOf` applies today.
 */
export interface AccessFacts {
  plan: AccessPlan;
  ownerSubscription: { tier: string; trial_end: string | null } | undefined;
  /** The member's roles as stored, or null when the user is not a received member. */
  memberRoles: Roles | null;
  /** How many plans the owner made before this one. */
  olderPlans: number;
}

/** A signed-in user and what decides their access to one plan; null parts are missing rows. */
export interface SignedInFacts {
  user: UserRow | null;
  facts: AccessFacts | null;
}

/**
 * The signed-in user and what decides their access to a plan, in one round trip: the hot path of every plan-scoped
 * call. The objects are frozen, since `AccessCache` shares them between requests.
 */
export async function loadSignedInFacts(db: Db, userId: number, planId: number): Promise<SignedInFacts> {
  const row = await db('users as u')
    .leftJoin('business_plans as bp', (join) => join.onVal('bp.id', planId))
    .leftJoin('subscriptions as s', 's.user_id', 'bp.owner_id')
    .leftJoin('plan_members as pm', (join) =>
      join.on('pm.plan_id', 'bp.id').andOn('pm.user_id', 'u.id').andOnVal('pm.status', 'received'),
    )
    .where('u.id', userId)
    .first(
      ...PLAN_COLUMNS.map((c) => `bp.${c}`),
      ...ACCESS_COLUMNS,
      olderPlans(db),
      ...USER_COLUMNS.map((c) => `u.${c} as user_${c}`),
    );
  if (!row) return { user: null, facts: null };
  const user = Object.freeze(Object.fromEntries(USER_COLUMNS.map((c) => [c, row[`user_${c}`]]))) as UserRow;
  return { user, facts: row.id === null || row.id === undefined ? null : factsFrom(row) };
}

/**
 * The signed-in user and their access to the plan, as of today.
 * @throws ApiError 401 when the user is gone or signed out since the token was issued, 404 as `planAccess`
 */
export function signedInAccess(
  loaded: SignedInFacts,
  claims: { userId: number; tokenVersion: number },
  today: Date,
): { user: UserRow; access: PlanAccess } {
  const { user, facts } = loaded;
  if (!user || user.token_version !== claims.tokenVersion) throw unauthorized();
  if (!facts) throw notFound('the business plan');
  return { user, access: accessOf(facts, user.id, today) };
}

function factsFrom(row: Record<string, unknown>): AccessFacts {
  const plan = Object.freeze(Object.fromEntries(PLAN_COLUMNS.map((c) => [c, row[c]]))) as AccessPlan;
  const ownerSubscription = row.owner_tier
    ? Object.freeze({ tier: row.owner_tier as string, trial_end: (row.owner_trial_end as string | null) ?? null })
    : undefined;
  const member = row.member_id !== null && row.member_id !== undefined;
  const memberRoles = member
    ? Object.freeze(rolesOf(Object.fromEntries(AREAS.map((a) => [a, row[`role_${a}`]]))))
    : null;
  return Object.freeze({ plan, ownerSubscription, memberRoles, olderPlans: Number(row.older_plans ?? 0) });
}

/** A fresh access object (callers attach `changed`), with the owner's tier as of today. */
function accessOf(facts: AccessFacts, userId: number, today: Date): PlanAccess {
  const ownerTier = tierFrom(facts.ownerSubscription, today);
  const readOnly = isPlanReadOnly(ownerTier.tier, facts.olderPlans);
  if (facts.plan.owner_id === userId)
    return { plan: facts.plan, isOwner: true, roles: fullRoles(), ownerTier, readOnly };
  if (!facts.memberRoles) throw notFound('the business plan');
  const roles = clampRoles({ ...facts.memberRoles }, ownerTier.tier);
  return { plan: facts.plan, isOwner: false, roles, ownerTier, readOnly };
}

export const levelFor = (access: PlanAccess, scope: Scope): Level => levelOf(access.roles, scope);

export const isTierLocked = (access: PlanAccess, scope: Scope) => tierLocks(access.ownerTier.tier, scope);

/**
 * Enforces the owner's tier first (403 `tier_lock`), then the caller's area role (403 `no_permission`).
 * @throws ApiError 403
 */
export function requireScope(access: PlanAccess, scope: Scope, operation: Operation): void {
  if (isTierLocked(access, scope)) throw tierLock(`the ${scope} area`);
  const level = levelFor(access, scope);
  if (level === 'no_access' || (operation === 'write' && level !== 'can_edit')) throw noPermission();
  if (operation === 'write') requireWritable(access);
}

/**
 * A plan over its owner's owned-plan limit takes no write (deleting it is no write to it: it goes).
 * @throws ApiError 403 `tier_lock` with the `owned_plans` limit
 */
export function requireWritable(access: PlanAccess): void {
  if (!access.readOnly) return;
  const max = ownedPlanLimit(access.ownerTier.tier);
  throw tierLock('editing a business plan beyond the owned-plan limit', { name: 'owned_plans', max, value: max + 1 });
}

/** @throws ApiError 403 `owner_only` */
export function requireOwner(access: PlanAccess): void {
  if (!access.isOwner) throw ownerOnly();
}
