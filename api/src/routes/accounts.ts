import type Router from '@koa/router';
import { tooManyRequests, unauthorized, unavailable } from '@topline/contract';
import type { Services } from '../app';
import type { AppContext, AppState } from '../http/context';
import { handle } from '../http/route';
import {
  applyPasswordReset,
  demoRequired,
  resetTokenIsValid,
  setPasswordWithToken,
  signinWithEmail,
  signinWithGoogle,
  signupStatus,
  signupWithEmail,
} from '../services/accounts';
import { GoogleSignin } from '../services/google';
import { editProfile, meView } from '../services/profile';
import { LIMITS, Throttle, type Verdict } from '../services/throttle';
import { normalizeEmail, signOut, type UserRow } from '../services/users';

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

  handle(router, services, 'signupAuth', async ({ ctx, input }) => {
    const verdict = await throttle.take([LIMITS.lookupPerClient, ctx.ip]);
    if (!verdict.allowed) throw tooMany(ctx, verdict);
    return { data: { status_code: await signupStatus(db, input.email) } };
  });

  handle(router, services, 'emailSignup', async ({ ctx, input }) =>
    answerToken(ctx, await signupWithEmail(db, input.email, input.password, newTrial())),
  );

  handle(router, services, 'emailSignin', async ({ ctx, input }) => {
    const account = normalizeEmail(input.email);
    const verdict = await throttle.take([LIMITS.signinPerAccount, account], [LIMITS.signinPerClient, ctx.ip]);
    if (!verdict.allowed) throw tooMany(ctx, verdict);
    const user = await signinWithEmail(db, input.email, input.password);
    if (!user) {
      ctx.status = 209;
      return { title: 'Login failed', message: 'login failed, check your input' };
    }
    await throttle.clear(LIMITS.signinPerAccount, account);
    await throttle.giveBack(LIMITS.signinPerClient, ctx.ip);
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
    const verdict = await throttle.take(
      [LIMITS.resetMailPerAccount, normalizeEmail(input.email)],
      [LIMITS.resetMailPerClient, ctx.ip],
    );
    if (!verdict.allowed) throw tooMany(ctx, verdict);
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
    // The owner proved they hold the mailbox: wrong guesses by anyone before no longer keep them out.
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
