import type { SignupAuthStatus } from '../contract/accounts';
import type { Db } from '../db';
import { ApiError, badRequest, conflict } from '../errors';
import { googleIdentity } from './google';
import type { Mailer } from './mail';
import { hashPassword, passwordMatches } from './passwords';
import { hashResetToken, newResetToken } from './tokens';
import { acceptInvitations, findUserByEmail, isAllowListed, normalizeEmail, type UserRow } from './users';

/** Which login step the e-mail leads to (product-and-account.md section 4). */
export async function signupStatus(db: Db, email: string): Promise<SignupAuthStatus> {
  const user = await findUserByEmail(db, email);
  if (user) return user.auth_provider === 'google' ? 'google_signup_user' : 'email_signup_user';
  return (await isAllowListed(db, email)) ? 'can_signup' : 'cant_signup';
}

export const demoRequired = () =>
  new ApiError(
    403,
    'Demo required',
    'a live demo is needed before the first login: go back to the top page and click Demo Request',
  );

/** Creates an e-mail account for an allow-listed address. */
export async function signupWithEmail(db: Db, email: string, password: string): Promise<UserRow> {
  const status = await signupStatus(db, email);
  if (status === 'cant_signup') throw demoRequired();
  if (status !== 'can_signup') throw conflict('this e-mail address already has an account; sign in instead');
  const passwordHash = await hashPassword(password);
  const user = await db.transaction(async (trx) => {
    const [row] = await trx<UserRow>('users')
      .insert({ email: normalizeEmail(email), password_hash: passwordHash, auth_provider: 'email' })
      .returning('*');
    if (!row) throw new Error('user insert returned nothing');
    await acceptInvitations(trx, row);
    return row;
  });
  return user;
}

/** The user whose password matches, else null (answered as 209 by the route). */
export async function signinWithEmail(db: Db, email: string, password: string): Promise<UserRow | null> {
  const user = await findUserByEmail(db, email);
  if (user?.auth_provider !== 'email' || !(await passwordMatches(user.password_hash, password))) return null;
  await acceptInvitations(db, user);
  return user;
}

export type GoogleSigninResult =
  | { kind: 'user'; user: UserRow }
  | { kind: 'demo_required' }
  | { kind: 'email_user' }
  | { kind: 'invalid_token' };

/** Google sign-in: existing Google users, or allow-listed newcomers, get in; e-mail accounts are told so. */
export async function signinWithGoogle(
  db: Db,
  accessToken: string,
  google: { tokenInfoUrl: string; clientId: string | undefined },
): Promise<GoogleSigninResult> {
  const identity = await googleIdentity(google.tokenInfoUrl, accessToken, google.clientId);
  if (!identity) return { kind: 'invalid_token' };
  const existing = await findUserByEmail(db, identity.email);
  if (existing) {
    if (existing.auth_provider !== 'google') return { kind: 'email_user' };
    if (existing.google_sub !== identity.sub)
      await db('users').where({ id: existing.id }).update({ google_sub: identity.sub });
    await acceptInvitations(db, existing);
    return { kind: 'user', user: existing };
  }
  if (!(await isAllowListed(db, identity.email))) return { kind: 'demo_required' };
  const user = await db.transaction(async (trx) => {
    const [row] = await trx<UserRow>('users')
      .insert({ email: normalizeEmail(identity.email), google_sub: identity.sub, auth_provider: 'google' })
      .returning('*');
    if (!row) throw new Error('user insert returned nothing');
    await acceptInvitations(trx, row);
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

/** Sets the new password, uses up the token and signs out every session of that user. */
export async function setPasswordWithToken(db: Db, token: string, password: string, now: Date): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (trx) => {
    const reset = await trx('password_resets')
      .where({ token_hash: hashResetToken(token) })
      .whereNull('used_at')
      .andWhere('expires_at', '>', now)
      .forUpdate()
      .first();
    if (!reset) throw badRequest({ token: 'the reset link is invalid or has expired' });
    await trx('password_resets').where({ id: reset.id }).update({ used_at: now });
    await trx('users')
      .where({ id: reset.user_id })
      .update({ password_hash: passwordHash, token_version: trx.raw('token_version + 1'), updated_at: now });
  });
}
