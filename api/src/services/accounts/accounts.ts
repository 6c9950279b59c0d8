import type { SignupAuthStatus } from '@topline/contract';
import { ApiError, badRequest } from '@topline/contract';
import type { Db } from '../../db';
import { isInvited } from '../members/invitations';
import type { GoogleIdentity } from '../spreadsheets/google';
import type { Mailer } from './mail';
import { hashPassword, passwordMatches } from './passwords';
import { hashResetToken, newResetToken } from './tokens';
import {
  acceptInvitations,
  findUserByEmail,
  isAllowListed,
  lockUser,
  markVerified,
  normalizeEmail,
  startTrial,
  type TrialStart,
  type UserRow,
} from './users';

/** A new account's trial when the caller names none: the default `TRIAL_DAYS`, from now. */
const defaultTrial = (): TrialStart => ({ days: 14, today: new Date() });

/**
 * The login step after the e-mail (product-and-account.md section 4): the same for every address, whether it has an
 * account (e-mail or Google), a pending invitation or nothing (`signupAuthStatus` says why).
 */
export const signupStatus = (): SignupAuthStatus => 'email_next';

/** A newcomer may sign up when the address is on the demo allow-list or a plan's invitation to it is live. */
export async function maySignUp(db: Db, email: string, now: Date): Promise<boolean> {
  return (await isAllowListed(db, email)) || (await isInvited(db, email, now));
}

export const demoRequired = () =>
  new ApiError(403, {
    title: 'Demo required',
    message: 'a live demo is needed before the first login: the sign-in page says how to get one',
    code: 'no_access',
  });

/**
 * The user whose password matches, else null (answered as 209 by the route). An unknown address, or a Google
 * account, costs the same password check as a wrong password, so the time taken does not tell them apart.
 */
export async function signinWithEmail(
  db: Db,
  user: UserRow | undefined,
  password: string,
  now: Date,
): Promise<UserRow | null> {
  const hash = user?.auth_provider === 'email' ? user.password_hash : null;
  if (!(await passwordMatches(hash, password)) || !user) return null;
  await acceptInvitations(db, user, now);
  return user;
}

export type GoogleSigninResult = { kind: 'user'; user: UserRow } | { kind: 'demo_required' } | { kind: 'email_user' };

/**
 * Google sign-in of a verified identity (`GoogleSignin.identity`): existing Google users, or allow-listed or invited
 * newcomers get in (on a trial); e-mail accounts are told so.
 */
export async function signinWithGoogle(
  db: Db,
  identity: GoogleIdentity,
  trial: TrialStart = defaultTrial(),
): Promise<GoogleSigninResult> {
  const now = trial.today;
  const existing = await findUserByEmail(db, identity.email);
  if (existing) {
    if (existing.auth_provider !== 'google') return { kind: 'email_user' };
    if (existing.google_sub !== identity.sub)
      await db('users').where({ id: existing.id }).update({ google_sub: identity.sub });
    // Google's ID token vouches for the address (`GoogleSignin.identity` accepts verified addresses only).
    const user = await markVerified(db, existing, now);
    await acceptInvitations(db, user, now);
    return { kind: 'user', user };
  }
  if (!(await maySignUp(db, identity.email, now))) return { kind: 'demo_required' };
  const user = await db.transaction(async (trx) => {
    const [row] = await trx<UserRow>('users')
      .insert({
        email: normalizeEmail(identity.email),
        google_sub: identity.sub,
        auth_provider: 'google',
        email_verified_at: now,
      })
      .returning('*');
    if (!row) throw new Error('user insert returned nothing');
    await acceptInvitations(trx, row, now);
    await startTrial(trx, row.id, trial);
    return row;
  });
  return { kind: 'user', user };
}

/**
 * Sends a single-use reset link to an e-mail account. Unknown addresses get the same answer, so the call
 * does not reveal who has an account.
 */
export async function applyPasswordReset(
  db: Db,
  mailer: Mailer,
  email: string,
  options: { publicUrl: string; ttlMinutes: number; now: Date },
): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (user?.auth_provider !== 'email') return;
  const { token, hash } = newResetToken();
  await db('password_resets').insert({
    user_id: user.id,
    token_hash: hash,
    expires_at: new Date(options.now.getTime() + options.ttlMinutes * 60_000),
  });
  const link = new URL('/password-reset', options.publicUrl);
  link.searchParams.set('key', token);
  await mailer.send({
    to: user.email,
    subject: 'Topline: reset your password',
    text: `Open this link within ${options.ttlMinutes} minutes to choose a new password:\n\n${link.toString()}\n\nIf you did not ask for this, ignore this message.`,
  });
}

async function liveReset(db: Db, token: string, now: Date) {
  return db('password_resets')
    .where({ token_hash: hashResetToken(token) })
    .whereNull('used_at')
    .andWhere('expires_at', '>', now)
    .first();
}

export async function resetTokenIsValid(db: Db, token: string, now: Date): Promise<boolean> {
  return (await liveReset(db, token, now)) !== undefined;
}

/**
 * Sets the new password and signs out every session of that user. The link is used up, and so is every other link of
 * that user still outstanding (the password change voids them: migrations/003_account_security.ts).
 * @returns the e-mail of the account whose password was set.
 * @throws ApiError 400 when the link is unknown, used, voided or expired.
 */
export async function setPasswordWithToken(db: Db, token: string, password: string, now: Date): Promise<string> {
  const invalid = () => badRequest({ token: 'the reset link is invalid or has expired' });
  const found = await liveReset(db, token, now);
  if (!found) throw invalid();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (trx) => {
    // The account row first: two links of one account used at once then take turns, and the second finds its link
    // voided by the first, instead of each holding its own link and waiting for the other's.
    await lockUser(trx, found.user_id);
    const reset = await trx('password_resets')
      .where({ id: found.id })
      .whereNull('used_at')
      .andWhere('expires_at', '>', now)
      .first();
    if (!reset) throw invalid();
    await trx('password_resets').where({ id: reset.id }).update({ used_at: now });
    // The link was mailed to the address: using it proves the account holds it.
    const [user] = await trx('users')
      .where({ id: reset.user_id })
      .update({
        password_hash: passwordHash,
        token_version: trx.raw('token_version + 1'),
        email_verified_at: trx.raw('coalesce(email_verified_at, ?)', [now]),
        updated_at: now,
      })
      .returning(['email']);
    if (!user) throw invalid();
    return user.email as string;
  });
}
