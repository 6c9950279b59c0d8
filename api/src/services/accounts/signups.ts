import { badRequest, conflict } from '@topline/contract';
import type { Db } from '../../db';
import { demoRequired, maySignUp } from './accounts';
import type { Mailer } from './mail';
import { hashPassword } from './passwords';
import { hashResetToken, newResetToken } from './tokens';
import { acceptInvitations, findUserByEmail, normalizeEmail, startTrial, type TrialStart, type UserRow } from './users';

/** A sign-up link works this long: the person is expected to open it at once, but mail may be slow. */
export const SIGNUP_LINK_TTL_HOURS = 24;

export interface SignupMailOptions {
  publicUrl: string;
  /** Where a demo is booked, else where the company is contacted (DEMO_BOOKING_URL, CONTACT_URL); either may be unset. */
  demoBookingUrl?: string | undefined;
  contactUrl?: string | undefined;
  now: Date;
}

/**
 * POST /users/email-signup. Every address gets the same answer and one mail, which says what to do next:
 * - an address that may sign up (allow-listed, or invited by a live invitation): a single-use link that creates the
 *   account once opened; the sign-up (the password's hash) waits for it in `signup_confirmations`;
 * - an address that has an account: "you already have one: sign in (with Google), or reset the password";
 * - any other address: "a live demo is needed first".
 * The password is hashed whichever case it is, so the time taken does not tell them apart either.
 */
export async function requestSignup(
  db: Db,
  mailer: Mailer,
  rawEmail: string,
  password: string,
  options: SignupMailOptions,
): Promise<void> {
  const email = normalizeEmail(rawEmail);
  const passwordHash = await hashPassword(password);
  const login = new URL('/login', options.publicUrl);
  login.searchParams.set('email', email);
  const existing = await findUserByEmail(db, email);
  if (existing) {
    const how =
      existing.auth_provider === 'google'
        ? 'This address signs in with Google: open the link and choose "Sign in with Google".'
        : 'Open the link and sign in with your password, or choose "Forgot password" there to set a new one.';
    await mailer.send({
      to: email,
      subject: 'Topline: you already have an account',
      text: `Someone (you, we hope) asked to create a Topline account for ${email}, which already has one. ${how}\n\n${login.toString()}\n\nIf it was not you, ignore this message: nothing was changed.`,
    });
    return;
  }
  if (!(await maySignUp(db, email, options.now))) {
    const how = options.demoBookingUrl
      ? `book one here, and we will be in touch:\n\n${options.demoBookingUrl}`
      : options.contactUrl
        ? `ask us for one here:\n\n${options.contactUrl}`
        : 'ask the company that runs this Topline service to arrange one.';
    await mailer.send({
      to: email,
      subject: 'Topline: a live demo comes first',
      text: `Someone (you, we hope) asked to create a Topline account for ${email}. Accounts open after a live demo: ${how}\n\nIf it was not you, ignore this message.`,
    });
    return;
  }
  const { token, hash } = newResetToken();
  await db('signup_confirmations').insert({
    email,
    password_hash: passwordHash,
    token_hash: hash,
    expires_at: new Date(options.now.getTime() + SIGNUP_LINK_TTL_HOURS * 3_600_000),
  });
  const link = new URL('/signup/confirm', options.publicUrl);
  link.searchParams.set('key', token);
  await mailer.send({
    to: email,
    subject: 'Topline: confirm your address to create your account',
    text: `Open this link within ${SIGNUP_LINK_TTL_HOURS} hours to create your Topline account for ${email} (and join the business plans that invited this address):\n\n${link.toString()}\n\nIf you did not ask for this, ignore this message: no account is made without the link.`,
  });
}

/**
 * The sign-up link opened: creates the e-mail account with the password chosen at sign-up, its address proved, on a
 * trial, joined to every plan whose invitation to it is live. The link is used up, and so is every other sign-up link
 * of the address.
 * @throws ApiError 400 for a link unknown, used or expired; 409 when the address has an account by now; 403 when it
 * may no longer sign up (its invitation expired or was withdrawn, and it is not allow-listed).
 */
export async function confirmSignup(db: Db, token: string, now: Date, trial: TrialStart): Promise<UserRow> {
  return db.transaction(async (trx) => {
    const [pending] = await trx('signup_confirmations')
      .where({ token_hash: hashResetToken(token) })
      .whereNull('used_at')
      .andWhere('expires_at', '>', now)
      .update({ used_at: now })
      .returning(['email', 'password_hash']);
    if (!pending) throw badRequest({ token: 'the sign-up link is invalid, used or expired; sign up again' });
    const email = pending.email as string;
    await trx('signup_confirmations').where({ email }).whereNull('used_at').update({ used_at: now });
    if (await findUserByEmail(trx, email))
      throw conflict('this e-mail address already has an account; sign in instead');
    if (!(await maySignUp(trx, email, now))) throw demoRequired();
    const [user] = await trx<UserRow>('users')
      .insert({ email, password_hash: pending.password_hash, auth_provider: 'email', email_verified_at: now })
      .onConflict('email')
      .ignore()
      .returning('*');
    if (!user) throw conflict('this e-mail address already has an account; sign in instead');
    await acceptInvitations(trx, user, now);
    await startTrial(trx, user.id, trial);
    return user;
  });
}
