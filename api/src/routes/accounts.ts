import type Router from '@koa/router';
import { tooManyRequests, unauthorized, unavailable } from '@topline/contract';
import type { Services } from '../deps';
import type { AppContext, AppState } from '../http/context';
import { refuseIfLimited } from '../http/refusal';
import { handle } from '../http/route';
import {
  applyPasswordReset,
  demoRequired,
  resetTokenIsValid,
  setPasswordWithToken,
  signinWithEmail,
  signinWithGoogle,
  signupStatus,
} from '../services/accounts/accounts';
import { editProfile, meView } from '../services/accounts/profile';
import { confirmSignup, requestSignup } from '../services/accounts/signups';
import { LIMITS, type Limit, Throttle, type Verdict } from '../services/accounts/throttle';
import { findUserByEmail, normalizeEmail, signOut, type UserRow } from '../services/accounts/users';
import { acceptInvitationLink } from '../services/members/invitations';
import { GoogleSignin } from '../services/spreadsheets/google';

/** Accounts: product-and-account.md section 7; billing is `billing.ts`. */
export function accountRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;
  const throttle = new Throttle(db, services.now);
  /** 429 with Retry-After; `throttle.ts` has the limits and why. */
  const tooMany = (ctx: AppContext, verdict: Verdict & { allowed: false }) => {
    ctx.set('Retry-After', String(verdict.retryAfterSeconds));
    const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
    return tooManyRequests(`too many attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`);
  };

  const newTrial = () => ({ days: services.config.TRIAL_DAYS, today: services.now() });

  const answerToken = async (ctx: AppContext, user: UserRow) => {
    const token = await services.tokens.issue(user);
    ctx.set('App-Token', token);
    return { app_token: token, data: { app_token: token } };
  };

  handle(router, services, 'signupAuth', async ({ ctx }) => {
    const verdict = await throttle.take([LIMITS.lookupPerClient, ctx.ip]);
    if (!verdict.allowed) throw tooMany(ctx, verdict);
    return { data: { status_code: signupStatus() } };
  });

  handle(router, services, 'emailSignup', async ({ ctx, input }) => {
    const email = normalizeEmail(input.email);
    refuseIfLimited(ctx, await throttle.take([LIMITS.mailPerAddress, email], [LIMITS.signupMailPerClient, ctx.ip]));
    await requestSignup(db, services.mailer, email, input.password, {
      publicUrl: services.config.PUBLIC_URL,
      demoBookingUrl: services.config.DEMO_BOOKING_URL,
      contactUrl: services.config.CONTACT_URL,
      now: services.now(),
    });
    return { title: 'Check your mailbox', message: `we sent a message to ${email} that says what to do next` };
  });

  handle(router, services, 'signupConfirm', async ({ ctx, input }) =>
    answerToken(ctx, await confirmSignup(db, input.token, services.now(), newTrial())),
  );

  handle(router, services, 'invitationAccept', async ({ user, input }) => ({
    data: { business_plan_id: await acceptInvitationLink(db, user, input.token, services.now()) },
  }));

  handle(router, services, 'emailSignin', async ({ ctx, input }) => {
    const account = normalizeEmail(input.email);
    const found = await findUserByEmail(db, account);
    // Failures are counted per account and client together, so a guesser locks out only itself; the account's
    // token version in the key lets a password reset start those counts afresh (`throttle.ts` has the limits).
    const pair = `${account}\n${found?.token_version ?? 0}\n${ctx.ip}`;
    const failedHere = (await throttle.count(LIMITS.signinPerAccountClientLong, pair)) > 0;
    const counts: Array<readonly [Limit, string]> = [
      [LIMITS.signinPerAccountClient, pair],
      [LIMITS.signinPerAccountClientLong, pair],
      [LIMITS.signinPerClient, ctx.ip],
    ];
    // The account-wide count refuses only clients that have already failed on this account.
    if (failedHere) counts.push([LIMITS.signinPerAccount, account]);
    const verdict = await throttle.take(...counts);
    if (!verdict.allowed) throw tooMany(ctx, verdict);
    const user = await signinWithEmail(db, found, input.password, services.now());
    if (!user) {
      if (!failedHere) await throttle.take([LIMITS.signinPerAccount, account]);
      ctx.status = 209;
      return { title: 'Login failed', message: 'login failed, check your input' };
    }
    await throttle.clear(LIMITS.signinPerAccount, account);
    for (const [limit, key] of counts) if (limit !== LIMITS.signinPerAccount) await throttle.giveBack(limit, key);
    return answerToken(ctx, user);
  });

  const { GOOGLE_CLIENT_ID, GOOGLE_CERTS_URL } = services.config;
  const google = GOOGLE_CLIENT_ID ? new GoogleSignin(GOOGLE_CLIENT_ID, GOOGLE_CERTS_URL) : null;

  handle(router, services, 'googleAuth', async ({ ctx, input }) => {
    // Without a client id no token can be checked against this app: Google sign-in is off, and says so.
    if (!google) throw unavailable('Google sign-in is not configured');
    const identity = await google.identity(input.credential);
    if (!identity) throw unauthorized();
    const result = await signinWithGoogle(db, identity, newTrial());
    if (result.kind === 'demo_required') {
      ctx.status = 209;
      const { title, message } = demoRequired().body;
      return { title, message };
    }
    if (result.kind === 'email_user') {
      ctx.status = 210;
      return { title: 'Email login user', message: 'this user is an email login user' };
    }
    return answerToken(ctx, result.user);
  });

  handle(router, services, 'passwordApply', async ({ ctx, input }) => {
    // Not the sign-in counts: an account locked out by wrong passwords can still ask for a link.
    const email = normalizeEmail(input.email);
    const verdict = await throttle.take(
      [LIMITS.resetMailPerAccount, email],
      [LIMITS.resetMailPerClient, ctx.ip],
      [LIMITS.mailPerAddress, email],
    );
    refuseIfLimited(ctx, verdict);
    await applyPasswordReset(db, services.mailer, input.email, {
      publicUrl: services.config.PUBLIC_URL,
      ttlMinutes: services.config.PASSWORD_RESET_TTL_MINUTES,
      now: services.now(),
    });
    return { title: 'Success', message: 'if the address has an account, a password reset link has been sent to it' };
  });

  handle(router, services, 'passwordVerify', async ({ input }) => ({
    data: { valid: await resetTokenIsValid(db, input.token, services.now()) },
  }));

  handle(router, services, 'passwordSet', async ({ input }) => {
    const email = await setPasswordWithToken(db, input.token, input.password, services.now());
    // The owner proved they hold the mailbox: wrong guesses by anyone before no longer keep them out (the new token
    // version starts every per-client count of the account afresh).
    await throttle.clear(LIMITS.signinPerAccount, email);
    return { title: 'Success', message: 'the password has been reset; sign in with the new password' };
  });

  handle(router, services, 'signout', async ({ user }) => {
    await signOut(db, user.id);
    return { title: 'Success', message: 'signed out' };
  });

  handle(router, services, 'me', async ({ user }) => ({ data: await meView(db, user, services.now()) }));

  handle(router, services, 'profileEdit', async ({ user, input }) => {
    await editProfile(db, user, input);
    return { title: 'Success', message: 'profile saved' };
  });
}
