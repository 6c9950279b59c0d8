import type { Db } from '../db';

export interface UserRow {
  id: number;
  email: string;
  password_hash: string | null;
  google_sub: string | null;
  auth_provider: 'email' | 'google';
  name: string;
  picture: string | null;
  company_name: string;
  position: string;
  employees: string;
  stage: string;
  token_version: number;
}

export type Tier = 'free' | 'basic' | 'team';

/** The tier a user's own plans are governed by (product-and-account.md sections 6 and 9). */
export interface TierInfo {
  tier: Tier;
  isTrial: boolean;
  trialEnd: string | null;
  trialDaysLeft: number | null;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db<UserRow>('users')
    .where({ email: normalizeEmail(email) })
    .first();
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db<UserRow>('users').where({ id }).first();
}

export async function isAllowListed(db: Db, email: string): Promise<boolean> {
  const row = await db('signup_allowlist')
    .where({ email: normalizeEmail(email) })
    .first();
  return row !== undefined;
}

export async function allowSignup(db: Db, email: string): Promise<void> {
  await db('signup_allowlist')
    .insert({ email: normalizeEmail(email) })
    .onConflict('email')
    .ignore();
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/**
 * A trial (trial_end set) behaves as Free while it runs and falls back to Free when it ends without billing;
 * without a trial the stored tier applies.
 */
export async function tierOf(db: Db, userId: number, today: Date): Promise<TierInfo> {
  return tierFrom(await db('subscriptions').where({ user_id: userId }).first(), today);
}

/** The tier of a subscription row (or of none: Free). */
export function tierFrom(row: { tier: string; trial_end: string | null } | undefined, today: Date): TierInfo {
  if (!row) return { tier: 'free', isTrial: false, trialEnd: null, trialDaysLeft: null };
  const trialEnd: string | null = row.trial_end ?? null;
  if (trialEnd === null) return { tier: row.tier as Tier, isTrial: false, trialEnd: null, trialDaysLeft: null };
  const daysLeft = Math.round((Date.parse(trialEnd) - Date.parse(isoDate(today))) / 86_400_000);
  if (daysLeft < 0) return { tier: 'free', isTrial: false, trialEnd, trialDaysLeft: null };
  return { tier: 'free', isTrial: true, trialEnd, trialDaysLeft: daysLeft };
}

/** Sets a user's tier until billing exists (`npm run admin -- tier`). */
export async function setTier(db: Db, userId: number, tier: Tier, trialDays: number | null, today: Date) {
  const trialEnd = trialDays === null ? null : isoDate(new Date(today.getTime() + trialDays * 86_400_000));
  await db('subscriptions')
    .insert({ user_id: userId, tier, trial_end: trialEnd, status: 'active', updated_at: db.fn.now() })
    .onConflict('user_id')
    .merge();
}

/** Owned-plan limits: Free or trial 1, Basic 2, Team 3. */
export const ownedPlanLimit = (tier: Tier): number => ({ free: 1, basic: 2, team: 3 })[tier];

/** Marks invitations to this e-mail as received once the person signs up or in. */
export async function acceptInvitations(db: Db, user: UserRow): Promise<void> {
  await db('plan_members')
    .where({ email: user.email })
    .andWhere((q) => q.where({ status: 'yet' }).orWhereNull('user_id'))
    .update({ status: 'received', user_id: user.id });
}
