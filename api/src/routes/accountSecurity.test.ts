import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signinWithGoogle } from '../services/accounts/accounts';
import { type Answer, planForm, startTestApi, TEST_PASSWORD, type TestApi } from '../testing/harness';
import { mailedKey, signUpByMail } from '../testing/signup';

/**
 * The attacks on sign-up, invitations, mail and sign-in, each replayed over HTTP: taking an invitation without its
 * mailbox, an invitation kept for 400 days, a flood of resends, the look-up as an account oracle, and a lockout of the
 * account's owner by a stranger's wrong passwords.
 */
let api: TestApi;
let ownerToken: string;
let planId: number;
/** How far the API's clock runs ahead of the real one. */
let ahead = 0;
const DAY = 86_400_000;

beforeAll(async () => {
  api = await startTestApi({
    // The tests speak for several clients through X-Forwarded-For, as a proxy in front of the API would.
    env: { PUBLIC_URL: 'https://topline.example', TRUST_PROXY: '127.0.0.1' },
    now: () => new Date(Date.now() + ahead),
  });
  ({ token: ownerToken } = await api.user('owner@acme.example', 'team'));
  const created = await api.call('POST', '/business-plan/create', {
    token: ownerToken,
    form: planForm({ business_plan_name: 'Acme 2027' }),
  });
  expect(created.status).toBe(201);
  planId = created.body.data.business_plan_id;
});

afterAll(async () => {
  await api?.close();
});

const from = (client: string) => ({ 'X-Forwarded-For': client });
const invite = (email: string, plan = planId, token = ownerToken) =>
  api.call('POST', '/authority/add', { token, body: { business_plan_id: plan, email, pl: 'can_view' } });
const resend = (email: string) =>
  api.call('POST', '/authority/resend', { token: ownerToken, body: { business_plan_id: planId, email } });
const statusOf = async (email: string) =>
  (
    await api.call('GET', '/authority/retrieve', { token: ownerToken, query: { business_plan_id: planId } })
  ).body.data.role.find((m: { email: string }) => m.email === email)?.status;
const signUp = (email: string, password: string, client = '198.51.100.1') =>
  api.call('POST', '/users/email-signup', {
    body: { email, password, password_confirmation: password },
    headers: from(client),
  });

function expectMailLimit(answer: Answer, name: string, max: number) {
  expect(answer.status).toBe(429);
  expect(answer.body).toMatchObject({ title: 'Too Many Requests', code: 'too_many_requests', limit: { name, max } });
  const wait = Number(answer.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(0);
  expect(answer.body.limit.retry_after_seconds).toBe(wait);
}

describe('taking an invitation', () => {
  it('needs the invited mailbox: a sign-up by anyone else makes no account and joins nothing', async () => {
    expect((await invite('cfo@acme.example')).status).toBe(200);
    const attempt = await signUp('cfo@acme.example', 'Attacker-pass1', '203.0.113.66');
    expect(attempt.status).toBe(202);
    // Without the mail, the attacker has no link: no account, and the password chosen cannot sign in.
    expect(await api.db('users').where({ email: 'cfo@acme.example' })).toEqual([]);
    const signin = await api.call('POST', '/users/email-signin', {
      body: { email: 'cfo@acme.example', password: 'Attacker-pass1' },
      headers: from('203.0.113.66'),
    });
    expect(signin.status).toBe(209);
    const guessed = await api.call('POST', '/users/email-signup/confirm', { body: { token: 'x'.repeat(43) } });
    expect(guessed.status).toBe(400);
    expect(await statusOf('cfo@acme.example')).toBe('invited');
  });

  it('is refused to an account of another address, and to one that never proved the invited address', async () => {
    // An account made for the address before sign-up proved mailboxes: it signs in, but joins nothing by it.
    const { token: squatter } = await api.user('coo@acme.example');
    await api.db('plan_members').where({ email: 'coo@acme.example' }).delete();
    expect((await invite('coo@acme.example')).status).toBe(200);
    const signin = await api.call('POST', '/users/email-signin', {
      body: { email: 'coo@acme.example', password: TEST_PASSWORD },
    });
    expect(signin.status).toBe(200);
    expect(await statusOf('coo@acme.example')).toBe('invited');
    expect(
      (await api.call('GET', '/pl/retrieve', { token: squatter, query: { business_plan_id: planId } })).status,
    ).toBe(404);
    const key = mailedKey(api, 'coo@acme.example', '/invitation');
    const { token: other } = await api.user('someone-else@acme.example');
    const wrongAccount = await api.call('POST', '/invitation/accept', { token: other, body: { token: key } });
    expect(wrongAccount.status).toBe(403);
    expect(await statusOf('coo@acme.example')).toBe('invited');
    // The holder of the mailbox opens the link: that proves the address, and the account joins.
    const accepted = await api.call('POST', '/invitation/accept', { token: squatter, body: { token: key } });
    expect(accepted.status).toBe(200);
    expect(await statusOf('coo@acme.example')).toBe('joined');
    const reused = await api.call('POST', '/invitation/accept', { token: squatter, body: { token: key } });
    expect(reused.status).toBe(400);
  });

  it('refuses a 400-day-old invitation, shown as expired, until the owner resends it', async () => {
    expect((await invite('old@acme.example')).status).toBe(200);
    const key = mailedKey(api, 'old@acme.example', '/invitation');
    const { token: holder } = await api.user('old-holder@acme.example');
    ahead = 400 * DAY;
    try {
      expect(await statusOf('old@acme.example')).toBe('expired');
      // The expired invitation no longer lets the address sign up: the mail asks for a demo instead.
      expect((await signUp('old@acme.example', 'Secret-pass1')).status).toBe(202);
      expect(mailedKey(api, 'old@acme.example', '/signup/confirm')).toBeNull();
      expect(api.mail.at(-1)?.text).toMatch(/a live demo: ask the company that runs this Topline service/);
      expect(await signinWithGoogle(api.db, { email: 'old@acme.example', sub: 'g-old' }, trialNow())).toEqual({
        kind: 'demo_required',
      });
      await api.db('users').where({ email: 'old-holder@acme.example' }).update({ email: 'old@acme.example' });
      const late = await api.call('POST', '/invitation/accept', { token: holder, body: { token: key } });
      expect(late.status).toBe(400);
      expect(late.body.errors.token).toMatch(/expired/);

      expect((await resend('old@acme.example')).status).toBe(200);
      expect(await statusOf('old@acme.example')).toBe('invited');
      const fresh = mailedKey(api, 'old@acme.example', '/invitation');
      expect(api.mail.at(-1)?.text).toContain(new Date(Date.now() + ahead + 14 * DAY).toISOString().slice(0, 10));
      const joined = await api.call('POST', '/invitation/accept', { token: holder, body: { token: fresh } });
      expect(joined.status).toBe(200);
      expect(await statusOf('old@acme.example')).toBe('joined');
    } finally {
      ahead = 0;
    }
  });
});

const trialNow = () => ({ days: 14, today: new Date(Date.now() + ahead) });

describe('mail floods', () => {
  it('sends at most 6 mails an hour to one address, however many resends are asked for', async () => {
    expect((await invite('flooded@acme.example')).status).toBe(200);
    const answers: Answer[] = [];
    for (let i = 0; i < 30; i++) answers.push(await resend('flooded@acme.example'));
    const sent = api.mail.filter((m) => m.to === 'flooded@acme.example');
    expect(sent).toHaveLength(6);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    for (const refused of answers.slice(5)) expectMailLimit(refused, 'mail_per_address', 6);
    expect(answers.at(-1)?.body.message).toMatch(/too many e-mails sent to this address \(at most 6\); try again in/);
    // The sign-up and reset mails count against the same address.
    expectMailLimit(await signUp('flooded@acme.example', 'Secret-pass1'), 'mail_per_address', 6);
  });

  it('limits invitation mails per plan and per sender', async () => {
    const { token } = await api.user('busy@acme.example', 'team');
    const plans: number[] = [];
    for (const name of ['One', 'Two']) {
      const created = await api.call('POST', '/business-plan/create', {
        token,
        form: planForm({ business_plan_name: name }),
      });
      plans.push(created.body.data.business_plan_id);
    }
    const [first = 0, second = 0] = plans;
    for (let i = 0; i < 20; i++) expect((await invite(`p1-${i}@acme.example`, first, token)).status).toBe(200);
    expectMailLimit(await invite('p1-20@acme.example', first, token), 'mail_per_plan', 20);
    for (let i = 0; i < 10; i++) expect((await invite(`p2-${i}@acme.example`, second, token)).status).toBe(200);
    expectMailLimit(await invite('p2-10@acme.example', second, token), 'mail_per_sender', 30);
  });

  it('limits sign-up mails per client address', async () => {
    for (let i = 0; i < 20; i++)
      expect((await signUp(`spam-${i}@victims.example`, 'Secret-pass1', '203.0.113.9')).status).toBe(202);
    expectMailLimit(await signUp('spam-20@victims.example', 'Secret-pass1', '203.0.113.9'), 'mail_per_sender', 20);
    expect((await signUp('spam-20@victims.example', 'Secret-pass1', '203.0.113.10')).status).toBe(202);
  });

  it('keeps plan and user names on one line in the subject and the text, and escapes them in HTML', async () => {
    const { user, token } = await api.user('eve@acme.example', 'team');
    const created = await api.call('POST', '/business-plan/create', { token, form: planForm() });
    const plan = created.body.data.business_plan_id;
    // Written past the API's own checks of these fields, as a name from an older version or an import could be.
    await api.db('users').where({ id: user.id }).update({ name: 'Eve\r\nBcc: all@victims.example' });
    await api.db('business_plans').where({ id: plan }).update({ name: '<b>Pay</b>\nnow at evil.example' });
    expect((await invite('target@acme.example', plan, token)).status).toBe(200);
    const mail = api.mail.at(-1);
    expect(mail?.subject).not.toMatch(/[\r\n]/);
    expect(mail?.subject).toContain('Eve Bcc: all@victims.example');
    expect(mail?.text).toContain('Eve Bcc: all@victims.example (eve@acme.example) invited you to the business plan');
    expect(mail?.text).toContain('"<b>Pay</b> now at evil.example"');
    expect(mail?.html).toContain('&lt;b&gt;Pay&lt;/b&gt; now at evil.example');
    expect(mail?.html).not.toContain('<b>Pay');
  });
});

describe('the look-up before sign-up', () => {
  it('answers identically for an account, a Google account, an invitation, an expired one, the allow list and nobody', async () => {
    await api.user('has-account@acme.example');
    await api.db('users').insert({ email: 'google@acme.example', auth_provider: 'google', google_sub: 'g-acme' });
    await api.db('signup_allowlist').insert({ email: 'listed@acme.example' });
    expect((await invite('pending@acme.example')).status).toBe(200);
    const lookups: Answer[] = [];
    const signups: Answer[] = [];
    const emails = [
      'has-account@acme.example',
      'google@acme.example',
      'pending@acme.example',
      'old@acme.example',
      'listed@acme.example',
      'nobody-at-all@acme.example',
    ];
    for (const email of emails) {
      lookups.push(
        await api.call('POST', '/users/email-signup-auth', { body: { email }, headers: from('192.0.2.30') }),
      );
      signups.push(await signUp(email, 'Secret-pass1', '192.0.2.31'));
    }
    const seen = (answers: Answer[]) =>
      new Set(answers.map((a) => `${a.status} ${JSON.stringify(a.body).replace(/[a-z-]+@acme\.example/, 'EMAIL')}`));
    expect(seen(lookups)).toEqual(new Set(['200 {"data":{"status_code":"email_next"}}']));
    expect(seen(signups)).toEqual(
      new Set(['202 {"title":"Check your mailbox","message":"we sent a message to EMAIL that says what to do next"}']),
    );
    // Each address got the mail that guides it, and only the invited and allow-listed ones a link.
    const links = emails.map((email) => mailedKey(api, email, '/signup/confirm') !== null);
    expect(links).toEqual([false, false, true, false, true, false]);
  });
});

describe('sign-in lockout', () => {
  it('lets ten wrong passwords from client A not stop the right one from client B', async () => {
    await api.user('ceo@acme.example');
    for (let i = 0; i < 10; i++) {
      const wrong = await api.call('POST', '/users/email-signin', {
        body: { email: 'ceo@acme.example', password: `guess-${i}` },
        headers: from('203.0.113.50'),
      });
      expect(wrong.status).toBe(209);
    }
    const a = await api.call('POST', '/users/email-signin', {
      body: { email: 'ceo@acme.example', password: TEST_PASSWORD },
      headers: from('203.0.113.50'),
    });
    expect(a.status).toBe(429);
    const b = await api.call('POST', '/users/email-signin', {
      body: { email: 'ceo@acme.example', password: TEST_PASSWORD },
      headers: from('203.0.113.51'),
    });
    expect(b.status).toBe(200);
    expect(b.body.app_token).toBeTruthy();
  });

  it('slows a guesser more the longer it goes on: 15 minutes after 10 failures, hours after 20', async () => {
    await api.user('cto@acme.example');
    const guess = async (n: number) =>
      api.call('POST', '/users/email-signin', {
        body: { email: 'cto@acme.example', password: `guess-${n}` },
        headers: from('203.0.113.60'),
      });
    for (let i = 0; i < 10; i++) expect((await guess(i)).status).toBe(209);
    const first = await guess(10);
    expect(first.status).toBe(429);
    expect(Number(first.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    ahead = 16 * 60_000;
    try {
      for (let i = 0; i < 10; i++) expect((await guess(20 + i)).status).toBe(209);
      const second = await guess(30);
      expect(second.status).toBe(429);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(60 * 60);
    } finally {
      ahead = 0;
    }
  });
});

describe('the proof of the mailbox', () => {
  it('signs up an invited address through its confirmation link, which joins the plan', async () => {
    expect((await invite('cmo@acme.example')).status).toBe(200);
    const token = await signUpByMail(api, 'cmo@acme.example', 'Secret-pass1');
    expect(await statusOf('cmo@acme.example')).toBe('joined');
    expect((await api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: planId } })).status).toBe(200);
  });
});
