import type Router from '@koa/router';
import type { Services } from '../app';
import {
  emailSigninRequest,
  emailSignupRequest,
  googleAuthRequest,
  passwordApplyRequest,
  passwordSetRequest,
  passwordVerifyRequest,
  profileEditRequest,
  signupAuthRequest,
} from '../contract/accounts';
import { billingAnswer, meAnswer, signupAuthAnswer } from '../contract/answers';
import { ApiError, unauthorized } from '../errors';
import { requireUser } from '../http/auth';
import { type AppContext, type AppState, currentUser } from '../http/context';
import { parseInput } from '../http/validate';
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
import { editProfile, meView } from '../services/profile';
import { Throttle } from '../services/throttle';
import { normalizeEmail, type UserRow } from '../services/users';

/** Accounts: product-and-account.md section 7, without billing. */
export function accountRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;
  const auth = requireUser(services);
  // At most 10 failed sign-ins per address and 5 reset mails per address in 15 minutes.
  const failedSignins = new Throttle(10, 15 * 60_000);
  const resetMails = new Throttle(5, 15 * 60_000);
  const tooMany = (retryAfterSeconds: number) =>
    new ApiError(
      429,
      'Too Many Requests',
      `too many attempts; try again in ${Math.ceil(retryAfterSeconds / 60)} minutes`,
    );

  const answerToken = async (ctx: AppContext, user: UserRow) => {
    const token = await services.tokens.issue(user);
    ctx.set('App-Token', token);
    ctx.body = { app_token: token, data: { app_token: token } };
  };

  router.post('/users/email-signup-auth', async (ctx) => {
    const { email } = parseInput(signupAuthRequest, ctx.request.body);
    ctx.body = signupAuthAnswer.parse({ data: { status_code: await signupStatus(db, email) } });
  });

  router.post('/users/email-signup', async (ctx) => {
    const input = parseInput(emailSignupRequest, ctx.request.body);
    const user = await signupWithEmail(db, input.email, input.password);
    ctx.status = 201;
    await answerToken(ctx, user);
  });

  router.post('/users/email-signin', async (ctx) => {
    const input = parseInput(emailSigninRequest, ctx.request.body);
    const key = normalizeEmail(input.email);
    const now = services.now().getTime();
    const gate = failedSignins.check(key, now);
    if (!gate.allowed) throw tooMany(gate.retryAfterSeconds);
    const user = await signinWithEmail(db, input.email, input.password);
    if (user) failedSignins.clear(key);
    else failedSignins.record(key, now);
    if (!user) {
      ctx.status = 209;
      ctx.body = { title: 'Login failed', message: 'login failed, check your input' };
      return;
    }
    await answerToken(ctx, user);
  });

  router.post('/user/google-auth', async (ctx) => {
    const { access_token } = parseInput(googleAuthRequest, ctx.request.body);
    const result = await signinWithGoogle(db, access_token, {
      tokenInfoUrl: services.config.GOOGLE_TOKENINFO_URL,
      clientId: services.config.GOOGLE_CLIENT_ID,
    });
    if (result.kind === 'invalid_token') throw unauthorized();
    if (result.kind === 'demo_required') {
      const error = demoRequired();
      ctx.status = 209;
      ctx.body = { title: error.title, message: error.message };
      return;
    }
    if (result.kind === 'email_user') {
      ctx.status = 210;
      ctx.body = { title: 'Email login user', message: 'this user is an email login user' };
      return;
    }
    await answerToken(ctx, result.user);
  });

  router.post('/users/password/apply', async (ctx) => {
    const { email } = parseInput(passwordApplyRequest, ctx.request.body);
    const now = services.now().getTime();
    const gate = resetMails.check(normalizeEmail(email), now);
    if (!gate.allowed) throw tooMany(gate.retryAfterSeconds);
    resetMails.record(normalizeEmail(email), now);
    await applyPasswordReset(db, services.mailer, email, {
      publicUrl: services.config.PUBLIC_URL,
      ttlMinutes: services.config.PASSWORD_RESET_TTL_MINUTES,
      now: services.now(),
    });
    ctx.body = {
      title: 'Success',
      message: 'if the address has an account, a password reset link has been sent to it',
    };
  });

  router.post('/users/password/verify', async (ctx) => {
    const { token } = parseInput(passwordVerifyRequest, ctx.request.body);
    ctx.body = { data: { valid: await resetTokenIsValid(db, token, services.now()) } };
  });

  router.post('/users/password/set', async (ctx) => {
    const input = parseInput(passwordSetRequest, ctx.request.body);
    await setPasswordWithToken(db, input.token, input.password, services.now());
    ctx.body = { title: 'Success', message: 'the password has been reset; sign in with the new password' };
  });

  router.post('/user/signout', auth, async (ctx) => {
    const user = currentUser(ctx);
    await db('users')
      .where({ id: user.id })
      .update({ token_version: db.raw('token_version + 1') });
    ctx.body = { title: 'Success', message: 'signed out' };
  });

  router.get('/user/me', auth, async (ctx) => {
    ctx.body = meAnswer.parse({ data: await meView(db, currentUser(ctx), services.now()) });
  });

  // Billing runs through Stripe in a later step; until then the plan tab reads what the database holds.
  router.get('/billing/retrieve', auth, async (ctx) => {
    const user = currentUser(ctx);
    const subscription = await db('subscriptions').where({ user_id: user.id }).first();
    const invoices = await db('invoices').where({ user_id: user.id }).orderBy('created_at', 'desc');
    ctx.body = billingAnswer.parse({
      data: {
        invoice: {
          plan: subscription
            ? { status: subscription.status, current_period_end: subscription.current_period_end ?? null }
            : null,
          last4: null,
          exp_year: null,
          exp_month: null,
          invoice_list: invoices.map((i) => ({ url: i.url, created_at: i.created_at, price: Number(i.price) })),
        },
      },
    });
  });

  router.post('/user/edit', auth, async (ctx) => {
    const input = parseInput(profileEditRequest, ctx.request.body);
    await editProfile(db, currentUser(ctx), input);
    ctx.body = { title: 'Success', message: 'profile computed' };
  });
}
