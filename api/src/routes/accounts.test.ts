import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMailer } from '../services/accounts/mail';
import { hashPassword } from '../services/accounts/passwords';
import { allowSignup } from '../services/accounts/users';
import { startTestApi, TEST_PASSWORD, type TestApi } from '../testing/harness';
import { mailedKey } from '../testing/signup';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await allowSignup(api.db, 'Allowed@Example.com');
  await allowSignup(api.db, 'newcomer@example.com');
});

afterAll(async () => {
  await api.close();
});

describe('email sign-up and sign-in', () => {
  it('answers the look-up alike for every address, and mails each what to do next', async () => {
    const status = async (email: string) =>
      (await api.call('POST', '/users/email-signup-auth', { body: { email } })).body.data.status_code;
    await api.user('existing@example.com');
    await api.db('users').insert({ email: 'g-only@example.com', auth_provider: 'google', google_sub: 'g-9' });
    for (const email of ['allowed@example.com', 'nobody@example.com', 'existing@example.com', 'g-only@example.com']) {
      expect(await status(email)).toBe('email_next');
    }
    const signUp = (email: string) =>
      api.call('POST', '/users/email-signup', {
        body: { email, password: 'Secret-pass1', password_confirmation: 'Secret-pass1' },
      });
    const answers = [];
    for (const email of ['nobody@example.com', 'existing@example.com', 'g-only@example.com']) {
      const answer = await signUp(email);
      answers.push({ status: answer.status, title: answer.body.title });
      const mail = api.mail.at(-1);
      expect(mail?.to).toBe(email);
      expect(mail?.text).not.toMatch(/signup\/confirm/);
    }
    expect(answers).toEqual(Array(3).fill({ status: 202, title: 'Check your mailbox' }));
    expect(api.mail.at(-3)?.text).toMatch(/a live demo: ask the company that runs this Topline service/);
    expect(api.mail.at(-2)?.text).toMatch(/already has one[\s\S]*Forgot password/);
    expect(api.mail.at(-1)?.text).toMatch(/Sign in with Google/);
    // Nothing was made or changed: the existing account keeps its password.
    expect(await api.db('users').where({ email: 'nobody@example.com' })).toEqual([]);
    const signin = await api.call('POST', '/users/email-signin', {
      body: { email: 'existing@example.com', password: TEST_PASSWORD },
    });
    expect(signin.status).toBe(200);
  });

  it("mails how to get a demo: the deployment's booking link, else its contact link", async () => {
    for (const [env, expected] of [
      [{ DEMO_BOOKING_URL: 'https://booking.acme-saas.test/demo' }, 'book one here, and we will be in touch'],
      [{ CONTACT_URL: 'https://www.acme-saas.test/contact' }, 'ask us for one here'],
    ] as const) {
      const linked = await startTestApi({ env });
      try {
        const answer = await linked.call('POST', '/users/email-signup', {
          body: { email: 'stranger@example.com', password: 'Secret-pass1', password_confirmation: 'Secret-pass1' },
        });
        expect(answer.status).toBe(202);
        const text = linked.mail.at(-1)?.text ?? '';
        expect(text).toContain(expected);
        expect(text).toContain(Object.values(env)[0]);
      } finally {
        await linked.close();
      }
    }
  });

  it('signs up an allow-listed address through the mailed link, which answers a working token once', async () => {
    const answer = await api.call('POST', '/users/email-signup', {
      body: { email: 'Allowed@example.com', password: 'Secret-pass1', password_confirmation: 'Secret-pass1' },
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({
      title: 'Check your mailbox',
      message: 'we sent a message to allowed@example.com that says what to do next',
    });
    // No account until the link is opened; only the link's hash is stored.
    expect(await api.db('users').where({ email: 'allowed@example.com' })).toEqual([]);
    const key = mailedKey(api, 'allowed@example.com', '/signup/confirm');
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const pending = await api.db('signup_confirmations').where({ email: 'allowed@example.com' });
    expect(pending).toHaveLength(1);
    expect(JSON.stringify(pending)).not.toContain(key);
    expect(pending[0].password_hash).toMatch(/^\$argon2id\$/);

    const confirmed = await api.call('POST', '/users/email-signup/confirm', { body: { token: key } });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.app_token).toEqual(confirmed.body.data.app_token);
    const me = await api.call('GET', '/user/me', { token: confirmed.body.app_token });
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe('allowed@example.com');
    // A new account starts its trial (TRIAL_DAYS, 14 by default).
    expect(me.body.data.user.plan).toMatchObject({
      plan: 'free',
      is_trial: true,
      trial_days_left: 14,
      owned_plan_limit: 1,
    });
    expect(me.body.data.business_plans).toEqual([]);
    const stored = await api.db('users').where({ email: 'allowed@example.com' }).first();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    expect(stored.email_verified_at).not.toBeNull();
    const signin = await api.call('POST', '/users/email-signin', {
      body: { email: 'allowed@example.com', password: 'Secret-pass1' },
    });
    expect(signin.status).toBe(200);

    const again = await api.call('POST', '/users/email-signup/confirm', { body: { token: key } });
    expect(again.status).toBe(400);
    expect(again.body.errors.token).toMatch(/invalid, used or expired/);
  });

  it('refuses sign-up off the allow list and bad passwords per field, writing nothing', async () => {
    const off = await api.call('POST', '/users/email-signup', {
      body: { email: 'nobody@example.com', password: 'Secret-pass1', password_confirmation: 'Secret-pass1' },
    });
    expect(off.status).toBe(202);
    expect(mailedKey(api, 'nobody@example.com', '/signup/confirm')).toBeNull();
    const bad = await api.call('POST', '/users/email-signup', {
      body: { email: 'not-an-email', password: 'short', password_confirmation: 'other' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.title).toBe('Bad Request');
    expect(bad.body.errors.email).toBe('enter in email format');
    expect(bad.body.errors.password).toBe('password must be at least 8 characters');
    const wide = await api.call('POST', '/users/email-signup', {
      body: { email: 'newcomer@example.com', password: 'パスワード12345', password_confirmation: 'パスワード12345' },
    });
    expect(wide.body.errors.password).toMatch(/half-width/);
    const mismatch = await api.call('POST', '/users/email-signup', {
      body: { email: 'newcomer@example.com', password: 'Secret-pass1', password_confirmation: 'Secret-pass2' },
    });
    expect(mismatch.body.errors.password_confirmation).toBe('password does not match the confirmation');
    expect(await api.db('users').whereIn('email', ['nobody@example.com', 'newcomer@example.com'])).toEqual([]);
    expect(await api.db('signup_confirmations').where({ email: 'newcomer@example.com' })).toEqual([]);
  });

  it('answers 209 on a failed sign-in and a token on a good one', async () => {
    await api.user('signin@example.com');
    const wrong = await api.call('POST', '/users/email-signin', {
      body: { email: 'signin@example.com', password: 'wrong-password' },
    });
    expect(wrong.status).toBe(209);
    expect(wrong.body.app_token).toBeUndefined();
    const unknown = await api.call('POST', '/users/email-signin', { body: { email: 'x@example.com', password: 'x' } });
    expect(unknown.status).toBe(209);
    const ok = await api.call('POST', '/users/email-signin', {
      body: { email: 'SIGNIN@example.com', password: TEST_PASSWORD },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('app-token')).toBe(ok.body.app_token);
  });

  it('stops a client guessing after 10 failed sign-ins for an address', async () => {
    await api.user('guessed@example.com');
    for (let i = 0; i < 10; i++) {
      const wrong = await api.call('POST', '/users/email-signin', {
        body: { email: 'guessed@example.com', password: `guess-${i}` },
      });
      expect(wrong.status).toBe(209);
    }
    const blocked = await api.call('POST', '/users/email-signin', {
      body: { email: 'guessed@example.com', password: TEST_PASSWORD },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.title).toBe('Too Many Requests');
  });

  it('signs out: the token stops working', async () => {
    const { token } = await api.user('signout@example.com');
    expect((await api.call('GET', '/user/me', { token })).status).toBe(200);
    expect((await api.call('POST', '/user/signout', { token })).status).toBe(200);
    const after = await api.call('GET', '/user/me', { token });
    expect(after.status).toBe(401);
    // Plan-scoped calls check the token with the plan in one query: still 401, not 404.
    expect((await api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: 999 } })).status).toBe(401);
    expect(after.body).toMatchObject({ title: 'Unauthorized' });
    expect((await api.call('GET', '/user/me', { token: 'garbage' })).status).toBe(401);
    expect((await api.call('GET', '/user/me')).status).toBe(401);
  });

  it('edits the profile with per-field limits', async () => {
    const { token } = await api.user('profile@example.com');
    const ok = await api.call('POST', '/user/edit', {
      token,
      body: { name: 'Aiko', company_name: 'Acme', position: 'CFO', employees: '11-30', stage: 'Series A-B' },
    });
    expect(ok.body).toEqual({ title: 'Success', message: 'profile saved' });
    const me = await api.call('GET', '/user/me', { token });
    expect(me.body.data.user).toMatchObject({
      name: 'Aiko',
      company: { company_name: 'Acme', position: 'CFO', employees: '11-30', stage: 'Series A-B' },
    });
    const long = await api.call('POST', '/user/edit', {
      token,
      body: { name: 'x'.repeat(51), company_name: '', position: 'CFO', employees: '11-30', stage: 'x' },
    });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual({
      name: 'name may not be greater than 50 characters',
      company_name: 'company_name is required',
    });
    expect((await api.call('GET', '/user/me', { token })).body.data.user.name).toBe('Aiko');
  });

  it('answers the billing tab 503 while billing is not configured (routes/billing.test.ts has the rest)', async () => {
    const { token } = await api.user('billing@example.com', 'basic');
    const answer = await api.call('GET', '/billing/retrieve', { token });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ message: 'billing is not configured', code: 'unavailable' });
  });

  it('shows the trial and its days left', async () => {
    const { token } = await api.user('trial@example.com', 'team', 10);
    const me = await api.call('GET', '/user/me', { token });
    expect(me.body.data.user.plan).toMatchObject({ plan: 'free', is_trial: true, trial_days_left: 10 });
  });
});

describe('password reset', () => {
  it('mails a single-use link whose token is stored only as a hash', async () => {
    await api.user('forgot@example.com');
    const apply = await api.call('POST', '/users/password/apply', { body: { email: 'forgot@example.com' } });
    expect(apply.body.title).toBe('Success');
    const message = api.mail.at(-1);
    expect(message?.to).toBe('forgot@example.com');
    const token = /key=([A-Za-z0-9_-]+)/.exec(message?.text ?? '')?.[1] ?? '';
    expect(token).not.toBe('');
    const rows = await api.db('password_resets');
    expect(JSON.stringify(rows)).not.toContain(token);

    expect((await api.call('POST', '/users/password/verify', { body: { token } })).body.data.valid).toBe(true);
    const set = await api.call('POST', '/users/password/set', { body: { token, password: 'Brand-new-pass9' } });
    expect(set.status).toBe(200);
    expect((await api.call('POST', '/users/password/verify', { body: { token } })).body.data.valid).toBe(false);
    const again = await api.call('POST', '/users/password/set', { body: { token, password: 'Another-pass9' } });
    expect(again.status).toBe(400);
    expect(again.body.errors.token).toMatch(/invalid or has expired/);
    const signin = await api.call('POST', '/users/email-signin', {
      body: { email: 'forgot@example.com', password: 'Brand-new-pass9' },
    });
    expect(signin.status).toBe(200);
  });

  const resetKey = (to: string, nth = -1) =>
    /key=([A-Za-z0-9_-]+)/.exec(api.mail.filter((m) => m.to === to).at(nth)?.text ?? '')?.[1] ?? '';
  const verify = async (token: string) =>
    (await api.call('POST', '/users/password/verify', { body: { token } })).body.data.valid;

  it('voids the older link of an account once a newer one is used', async () => {
    await api.user('two-links@example.com');
    await api.call('POST', '/users/password/apply', { body: { email: 'two-links@example.com' } });
    await api.call('POST', '/users/password/apply', { body: { email: 'two-links@example.com' } });
    const first = resetKey('two-links@example.com', -2);
    const second = resetKey('two-links@example.com', -1);
    expect(first).not.toBe(second);
    expect(await verify(first)).toBe(true);
    const set = await api.call('POST', '/users/password/set', { body: { token: second, password: 'Second-link-9' } });
    expect(set.status).toBe(200);
    expect(await verify(first)).toBe(false);
    const late = await api.call('POST', '/users/password/set', { body: { token: first, password: 'First-link-9' } });
    expect(late.status).toBe(400);
    expect(late.body.errors.token).toMatch(/invalid or has expired/);
    const signin = (password: string) =>
      api.call('POST', '/users/email-signin', { body: { email: 'two-links@example.com', password } });
    expect((await signin('First-link-9')).status).toBe(209);
    expect((await signin(TEST_PASSWORD)).status).toBe(209);
    expect((await signin('Second-link-9')).status).toBe(200);
  });

  it('voids outstanding links when the password changes by any other way', async () => {
    const { user } = await api.user('changed@example.com');
    const other = await api.user('bystander@example.com');
    await api.call('POST', '/users/password/apply', { body: { email: 'changed@example.com' } });
    await api.call('POST', '/users/password/apply', { body: { email: 'bystander@example.com' } });
    const link = resetKey('changed@example.com');
    const bystander = resetKey('bystander@example.com');
    // Written straight to the database, as a tool or another process would.
    await api
      .db('users')
      .where({ id: user.id })
      .update({ password_hash: await hashPassword('Changed-else-9') });
    expect(await verify(link)).toBe(false);
    const set = await api.call('POST', '/users/password/set', { body: { token: link, password: 'Via-old-link-9' } });
    expect(set.status).toBe(400);
    // Other accounts' links, and edits that leave the password alone, void nothing.
    await api.db('users').where({ id: other.user.id }).update({ name: 'Renamed' });
    expect(await verify(bystander)).toBe(true);
  });

  it('lets only one of two links used at once set the password', async () => {
    await api.user('racing@example.com');
    await api.call('POST', '/users/password/apply', { body: { email: 'racing@example.com' } });
    await api.call('POST', '/users/password/apply', { body: { email: 'racing@example.com' } });
    const links = [resetKey('racing@example.com', -2), resetKey('racing@example.com', -1)];
    const answers = await Promise.all(
      links.map((token, i) =>
        api.call('POST', '/users/password/set', { body: { token, password: `Racing-pass-${i}` } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const winner = answers.findIndex((a) => a.status === 200);
    const signin = await api.call('POST', '/users/email-signin', {
      body: { email: 'racing@example.com', password: `Racing-pass-${winner}` },
    });
    expect(signin.status).toBe(200);
  });

  it('answers the same for unknown addresses and sends nothing', async () => {
    const before = api.mail.length;
    const apply = await api.call('POST', '/users/password/apply', { body: { email: 'ghost@example.com' } });
    expect(apply.status).toBe(200);
    expect(api.mail.length).toBe(before);
  });

  it('expires tokens', async () => {
    let now = new Date('2026-05-01T00:00:00Z');
    const timed = await startTestApi({ now: () => now });
    try {
      await timed.user('late@example.com');
      await timed.call('POST', '/users/password/apply', { body: { email: 'late@example.com' } });
      const token = /key=([A-Za-z0-9_-]+)/.exec(timed.mail[0]?.text ?? '')?.[1] ?? '';
      now = new Date(now.getTime() + 61 * 60_000);
      expect((await timed.call('POST', '/users/password/verify', { body: { token } })).body.data.valid).toBe(false);
      const set = await timed.call('POST', '/users/password/set', { body: { token, password: 'Brand-new-pass9' } });
      expect(set.status).toBe(400);
    } finally {
      await timed.close();
    }
  });

  it('writes to the outbox without SMTP, never logging the token', async () => {
    const lines: string[] = [];
    const dir = join(api.config.DATA_DIR, 'outbox-test');
    const mailer = outboxMailer(dir, { info: (m) => lines.push(m), error: () => {} });
    await mailer.send({ to: 'a@example.com', subject: 'Topline: reset your password', text: 'key=SECRET123' });
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(readFileSync(join(dir, files[0] ?? ''), 'utf8')).toContain('key=SECRET123');
    expect(lines.join('\n')).not.toContain('SECRET123');
  });

  it('sends through SMTP when SMTP_URL is set', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString();
        });
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    const { smtpMailer } = await import('../services/accounts/mail');
    const viaSmtp = await startTestApi({
      mailer: smtpMailer(`smtp://127.0.0.1:${port}`, 'Topline <no-reply@topline.local>'),
    });
    try {
      await viaSmtp.user('smtp@example.com');
      const apply = await viaSmtp.call('POST', '/users/password/apply', { body: { email: 'smtp@example.com' } });
      expect(apply.status).toBe(200);
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('To: smtp@example.com');
      expect(received[0]).toMatch(/password-reset\?key=/);
    } finally {
      await viaSmtp.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
