import { isoDay, type Standing, TIERS, type Tier, trialDaysLeft } from '@topline/contract';
import type { Db } from '../../db';
import { nameChange } from '../plans/changes';

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
  /** When the account proved it holds its address (migrations/013_signup_confirmation.ts); null: not yet. */
  email_verified_at: Date | null;
}

/** The tier a user's own plans are governed by (product-and-account.md sections 6 and 9). */
export interface TierInfo {
  /** What governs the user's plans: their tier, or the trial while it runs (`TIER_POLICY`). */
  tier: Standing;
  /** The user's plan as shown (`user.plan.plan`): Free during the trial, which `isTrial` tells. */
  plan: Tier;
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

/** A user's tier as of today: `tierFrom` of their subscription row. */
export async function tierOf(db: Db, userId: number, today: Date): Promise<TierInfo> {
  return tierFrom(await db('subscriptions').where({ user_id: userId }).first(), today);
}

/**
 * The tier of a subscription row (or of none: Free). A trial (trial_end set) opens the product with the trial's
 * policy while it runs and falls back to Free when it ends; a subscription that Stripe reports live ends the trial
 * (billing clears trial_end). Without a trial the stored tier applies: Stripe's, or the admin CLI's.
 */
export function tierFrom(row: { tier: string; trial_end: string | null } | undefined, today: Date): TierInfo {
  const none = { isTrial: false, trialDaysLeft: null };
  if (!row) return { tier: 'free', plan: 'free', trialEnd: null, ...none };
  const trialEnd: string | null = row.trial_end ?? null;
  if (trialEnd === null) {
    const tier = (TIERS as readonly string[]).includes(row.tier) ? (row.tier as Tier) : 'free';
    return { tier, plan: tier, trialEnd: null, ...none };
  }
  const daysLeft = trialDaysLeft(trialEnd, today) ?? -1;
  if (daysLeft < 0) return { tier: 'free', plan: 'free', trialEnd, ...none };
  return { tier: 'trial', plan: 'free', isTrial: true, trialEnd, trialDaysLeft: daysLeft };
}

/** The last day of a trial of `days` days starting today. */
const trialEndOf = (days: number, today: Date) => isoDay(new Date(today.getTime() + days * 86_400_000));

/**
 * Starts the trial of a new account (`TRIAL_DAYS`; 0 starts it on Free). Run in the transaction that creates the
 * user, so that no account exists without it.
 */
export async function startTrial(trx: Db, userId: number, trial: TrialStart): Promise<void> {
  if (trial.days <= 0) return;
  await trx('subscriptions').insert({ user_id: userId, tier: 'free', trial_end: trialEndOf(trial.days, trial.today) });
}

/** How long a new account's trial runs, from when. */
export interface TrialStart {
  days: number;
  today: Date;
}

/**
 * Sets a user's tier by hand (`npm run admin -- tier`), for an API without billing: with trial days, a trial that
 * ends on Free as a new account's does.
 */
export async function setTier(db: Db, userId: number, tier: Tier, trialDays: number | null, today: Date) {
  const trialEnd = trialDays === null ? null : trialEndOf(trialDays, today);
  await db('subscriptions')
    .insert({ user_id: userId, tier, trial_end: trialEnd, status: 'active', updated_at: db.fn.now() })
    .onConflict('user_id')
    .merge();
}

/**
 * Joins the plans whose invitation to this address is still live, once the account has proved it holds the address
 * (`email_verified_at`); an account that has not, or an invitation that expired, joins nothing.
 */
export async function acceptInvitations(db: Db, user: UserRow, now: Date): Promise<void> {
  if (!user.email_verified_at) return;
  // Recorded in each plan's history as the invited user's own change (migrations/010_plan_history.ts).
  const accept = async (trx: Db) => {
    await nameChange(trx, null, { userId: user.id, action: 'invitation.accept' });
    await acceptIn(trx, user, now);
  };
  if (db.isTransaction) await accept(db);
  else await db.transaction(accept);
}

async function acceptIn(db: Db, user: UserRow, now: Date): Promise<void> {
  const live = db('plan_invitations').whereNull('used_at').andWhere('expires_at', '>', now).select('member_id');
  const joined = await db('plan_members')
    .where({ email: user.email, status: 'yet' })
    .whereIn('id', live)
    .update({ status: 'received', user_id: user.id })
    .returning('id');
  const ids = joined.map((row: { id: number }) => row.id);
  if (ids.length > 0)
    await db('plan_invitations').whereIn('member_id', ids).whereNull('used_at').update({ used_at: now });
  // A member who joined before and whose account was deleted and made again is the same person at the same address.
  await db('plan_members')
    .where({ email: user.email, status: 'received' })
    .whereNull('user_id')
    .update({ user_id: user.id });
}

/** Records that the account proved it holds its address (a confirmation, reset or invitation link, or Google). */
export async function markVerified(db: Db, user: UserRow, now: Date): Promise<UserRow> {
  if (user.email_verified_at) return user;
  await db('users').where({ id: user.id }).whereNull('email_verified_at').update({ email_verified_at: now });
  return { ...user, email_verified_at: now };
}

/** Ends every session of the user: tokens issued before carry an older token version. */
export async function signOut(db: Db, userId: number): Promise<void> {
  await db('users')
    .where({ id: userId })
    .update({ token_version: db.raw('token_version + 1') });
}

/** Locks the user's account row until the transaction ends: one user's account writes (plans owned) serialise. */
export async function lockUser(trx: Db, userId: number): Promise<void> {
  await trx('users').where({ id: userId }).forUpdate().first('id');
}
