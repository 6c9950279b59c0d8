/**
 * Who may do what: areas and levels of a plan's members, the screens and the areas they need, the tiers and their
 * limits (product-and-account.md sections 6 and 9, working-screens.md section 6). The API enforces these; the web
 * shows them.
 */

import { COST_GROUPS, type CostGroup, MAX_CASES, type YearKey } from '@topline/engine/schema';
import { costGroupOf } from '@topline/engine/shapes';

export const AREAS = [
  'pl',
  'monthly_pl',
  'kpi',
  'sales_detail',
  'cogs',
  'sm',
  'rd',
  'ga',
  'dashboard',
  'actuals',
] as const;
export type Area = (typeof AREAS)[number];
export const LEVELS = ['no_access', 'can_view', 'can_edit'] as const;
export type Level = (typeof LEVELS)[number];
export type Roles = Record<Area, Level>;

/** The cost areas: one per cost group of the engine. */
export const COST_AREAS = COST_GROUPS satisfies readonly Area[];

/** What a screen or call needs: an area, the Expenses screen (any cost area), or home (every member). */
export type Scope = Area | 'expenses' | 'home';
export type Operation = 'read' | 'write';

/** The working screens of a plan and the scope each needs. */
export const SCREEN_SCOPES = {
  home: 'home',
  pl: 'pl',
  dashboard: 'dashboard',
  monthly_pl: 'monthly_pl',
  kpi: 'kpi',
  revenue: 'sales_detail',
  expenses: 'expenses',
} as const satisfies Record<string, Scope>;
export type ScreenKey = keyof typeof SCREEN_SCOPES | 'setting';

export const TIERS = ['free', 'basic', 'team'] as const;
export type Tier = (typeof TIERS)[number];

/**
 * What governs an owner's plans: a tier, or the trial a new account starts with. The trial is no tier of its own on
 * the price table (the user's plan reads Free with `is_trial`), but it has its own policy.
 */
export const STANDINGS = [...TIERS, 'trial'] as const;
export type Standing = (typeof STANDINGS)[number];

export interface TierPolicy {
  /** How many plans a user of this tier may own. */
  ownedPlans: number;
  /** Whether the owner may invite members at all. */
  members: boolean;
  /** How many members may hold can_edit in any area (0: members may only view). */
  editors: number;
  /** Scopes the tier opens; every other scope answers 403 `tier_lock`. `null` opens every scope. */
  openScopes: readonly Scope[] | null;
}

/**
 * The tiers (product-and-account.md section 9) and the trial. The trial opens every working screen and Basic's
 * viewers, with Free's one owned plan ("Free or trial 1"); no member may edit, as on Basic, so that its end takes
 * nothing from a member but the can_edit a trial never gave.
 */
export const TIER_POLICY: Record<Standing, TierPolicy> = {
  free: { ownedPlans: 1, members: false, editors: 0, openScopes: ['home', 'pl'] },
  trial: { ownedPlans: 1, members: true, editors: 0, openScopes: null },
  basic: { ownedPlans: 2, members: true, editors: 0, openScopes: null },
  team: { ownedPlans: 3, members: true, editors: 4, openScopes: null },
};

/** A plan holds at most this many cases (the engine's own limit). */
export { MAX_CASES };

export const ownedPlanLimit = (tier: Standing): number => TIER_POLICY[tier].ownedPlans;
export const editorLimit = (tier: Standing): number => TIER_POLICY[tier].editors;

/**
 * Whether an owned plan is read-only: after a downgrade, the owner's oldest plans up to the tier's limit keep working
 * and the rest stay readable but refuse writes (403 `tier_lock`, limit `owned_plans`) until the owner upgrades or
 * deletes one. `olderPlans` counts the owner's plans created before this one.
 */
export const isPlanReadOnly = (tier: Standing, olderPlans: number): boolean => olderPlans >= ownedPlanLimit(tier);

/** Whether the owner's tier locks a scope (403 `tier_lock`, the web shows the upgrade placeholder). */
export function isTierLocked(tier: Standing, scope: Scope): boolean {
  const open = TIER_POLICY[tier].openScopes;
  return open !== null && !open.includes(scope);
}

/** The screens a tier locks, for the side menu. */
export const lockedScreens = (tier: Standing): ScreenKey[] =>
  (Object.keys(SCREEN_SCOPES) as (keyof typeof SCREEN_SCOPES)[]).filter((screen) =>
    isTierLocked(tier, SCREEN_SCOPES[screen]),
  );

export const fullRoles = (): Roles => Object.fromEntries(AREAS.map((a) => [a, 'can_edit'])) as Roles;
export const noRoles = (): Roles => Object.fromEntries(AREAS.map((a) => [a, 'no_access'])) as Roles;

export const hasEdit = (roles: Roles): boolean => AREAS.some((a) => roles[a] === 'can_edit');

/** Members may edit only where the tier allows editors; elsewhere (or after a downgrade) can_edit reads as can_view. */
export function clampRoles(roles: Roles, ownerTier: Standing): Roles {
  if (editorLimit(ownerTier) > 0) return roles;
  const clamped = { ...roles };
  for (const area of AREAS) if (clamped[area] === 'can_edit') clamped[area] = 'can_view';
  return clamped;
}

/** The caller's level for a scope, given their effective roles. */
export function levelFor(roles: Roles, scope: Scope): Level {
  // Home is open to every member; its daily entries are actuals, so writing them needs can_edit on actuals.
  if (scope === 'home') return roles.actuals === 'can_edit' ? 'can_edit' : 'can_view';
  if (scope === 'expenses') {
    const levels = COST_AREAS.map((a) => roles[a]);
    if (levels.includes('can_edit')) return 'can_edit';
    return levels.includes('can_view') ? 'can_view' : 'no_access';
  }
  return roles[scope];
}

/** Which area each per-year assumption belongs to, and so which role edits it (working-screens.md section 6). */
export const YEAR_KEY_AREAS = {
  arr: 'pl',
  cogs_rate: 'pl',
  sm_rate: 'pl',
  rd_rate: 'pl',
  ga_rate: 'pl',
  employees: 'pl',
  arpa: 'kpi',
  upselling_rate: 'kpi',
  upselling_month: 'kpi',
  churn_rate: 'kpi',
  lead_rate: 'kpi',
  meeting_rate: 'kpi',
  order_rate: 'kpi',
  registration_rate: 'kpi',
  billing_rate: 'kpi',
  recurring_revenue_rate: 'sales_detail',
} as const satisfies Record<YearKey, Area>;

/** A cost item's area: its cost group, as the engine reads it from `item_title` (`sm_advertising` is `sm`). */
export const costAreaOf = (itemTitle: string): CostGroup => costGroupOf({ item_title: itemTitle });

/**
 * What an XLSX import reads at most (MODEL.md section 8). A plan's own export at 300 cost items a case is about 3 MB,
 * 30 MB inflated and 240,000 cells in 2,700 rows; the bounds leave twice that for a file re-saved by Excel or
 * LibreOffice. Each is checked while the file is read, off the API's thread, and a file over one is refused with a
 * 400 naming it (limit `xlsx_<bound>`).
 */
export const XLSX_IMPORT_LIMITS = {
  /** The uploaded file. */
  bytes: 20_000_000,
  /** Every part of the file inflated, as its zip directory declares it and as it inflates. */
  uncompressedBytes: 64_000_000,
  /** Cells and rows of every sheet. */
  cells: 500_000,
  rows: 20_000,
  /** Characters of one cell's text or formula (Excel's own limit for a cell). */
  stringLength: 32_767,
  /** Time the reading may take before it is stopped. */
  readMs: 60_000,
  /** Memory the reading may take (its own heap, freed whole when it ends). */
  memoryMb: 1_024,
  /** Imports at once: of one plan, of one user, and of the whole server (each reads on a core of its own). */
  perPlan: 1,
  perUser: 2,
  running: 2,
} as const;

/**
 * What a user can grow in a plan, at most (refused with a 400 `limit` naming the count). A real plan holds a few
 * cost items per case (the fixtures at most two); fifty is room for every line of a top-down budget, and a plan of
 * three such cases with actuals still builds within five times the three-case fixture (each item is some 100
 * formulas of the Costs sheet). The to-dos' limit is `TODO_LIMIT` (todos.ts); memos and daily
 * entries are one per cell and day of the plan, so the plan's shape bounds them.
 */
export const COLLECTION_LIMITS = {
  /** Cost items of one case. */
  costItemsPerCase: 50,
} as const;
