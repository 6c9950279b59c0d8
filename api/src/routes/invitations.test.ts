import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signinWithGoogle } from '../services/accounts/accounts';
import { planForm, startTestApi, type TestApi } from '../testing/harness';
import { mailedKey, signUpByMail } from '../testing/signup';

/**
 * Invitations over HTTP (product-and-account.md sections 5 and 7): the e-mail and its link, sign-up without a demo,
 * resend, removal. The attacks on them are in `accountSecurity.test.ts`.
 */
let api: TestApi;
let ownerToken: string;
let planId: number;

const signupStatus = async (email: string) =>
  (await api.call('POST', '/users/email-signup-auth', { body: { email } })).body.data.status_code;
const member = async (email: string) =>
  (
    await api.call('GET', '/authority/retrieve', { token: ownerToken, query: { business_plan_id: planId } })
  ).body.data.role.find((m: { email: string }) => m.email === email);

beforeAll(async () => {
  api = await startTestApi({ env: { PUBLIC_URL: 'https://topline.example' } });
  ({ token: ownerToken } = await api.user('owner@startup.example', 'team'));
  const created = await api.call('POST', '/business-plan/create', {
    token: ownerToken,
    form: planForm({ business_plan_name: 'Startup 2027' }),
  });
  expect(created.status).toBe(201);
  planId = created.body.data.business_plan_id;
});

afterAll(async () => {
  await api?.close();
});

describe('invitations', () => {
  it('mails the invitation with the plan, the inviter and a secret link; the invited address signs up without a demo', async () => {
    const add = await api.call('POST', '/authority/add', {
      token: ownerToken,
      body: { business_plan_id: planId, email: 'CFO@startup.example', pl: 'can_view' },
    });
    expect(add.status).toBe(200);
    expect(api.mail).toHaveLength(1);
    const [mail] = api.mail;
    expect(mail?.to).toBe('cfo@startup.example');
    expect(mail?.subject).toContain('Startup 2027');
    expect(mail?.text).toContain('Startup 2027');
    expect(mail?.text).toContain('Hana Sato');
    expect(mail?.text).toContain('https://topline.example/invitation?key=');
    const key = mailedKey(api, 'cfo@startup.example', '/invitation');
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await api.db('plan_invitations'))).not.toContain(key);
    expect(await member('cfo@startup.example')).toMatchObject({ status: 'invited' });

    // The look-up tells nothing; the sign-up mails the confirmation link to the invited address only.
    expect(await signupStatus('cfo@startup.example')).toBe('email_next');
    expect(await signupStatus('stranger@startup.example')).toBe('email_next');
    const refused = await api.call('POST', '/users/email-signup', {
      body: { email: 'stranger@startup.example', password: 'Secret-pass1', password_confirmation: 'Secret-pass1' },
    });
    expect(refused.status).toBe(202);
    expect(mailedKey(api, 'stranger@startup.example', '/signup/confirm')).toBeNull();

    const token = await signUpByMail(api, 'cfo@startup.example', 'Secret-pass1');
    const me = await api.call('GET', '/user/me', { token });
    expect(me.body.data.business_plans.map((p: { business_plan_id: number }) => p.business_plan_id)).toEqual([planId]);
    expect(await member('cfo@startup.example')).toMatchObject({ status: 'joined' });
    const pl = await api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: planId } });
    expect(pl.status).toBe(200);
  });

  it('resends to a member who has not joined, voiding the old link; refuses one who has, and 404s a non-member', async () => {
    await api.call('POST', '/authority/add', {
      token: ownerToken,
      body: { business_plan_id: planId, email: 'later@startup.example', pl: 'can_view' },
    });
    const firstKey = mailedKey(api, 'later@startup.example', '/invitation');
    const before = api.mail.length;
    const resend = await api.call('POST', '/authority/resend', {
      token: ownerToken,
      body: { business_plan_id: planId, email: 'later@startup.example' },
    });
    expect(resend.status).toBe(200);
    expect(api.mail).toHaveLength(before + 1);
    expect(api.mail.at(-1)).toMatchObject({ to: 'later@startup.example' });
    expect(api.mail.at(-1)?.text).toContain('Startup 2027');
    const secondKey = mailedKey(api, 'later@startup.example', '/invitation');
    expect(secondKey).not.toBe(firstKey);

    const joined = await api.call('POST', '/authority/resend', {
      token: ownerToken,
      body: { business_plan_id: planId, email: 'cfo@startup.example' },
    });
    expect(joined.status).toBe(400);
    expect(joined.body.errors.email).toMatch(/already joined/);
    const stranger = await api.call('POST', '/authority/resend', {
      token: ownerToken,
      body: { business_plan_id: planId, email: 'nobody@startup.example' },
    });
    expect(stranger.status).toBe(404);
    expect(api.mail).toHaveLength(before + 1);

    // An existing account joins by opening the link while signed in; the replaced link no longer works.
    const { token: memberToken } = await api.user('viewer@startup.example');
    await api.call('POST', '/authority/add', {
      token: ownerToken,
      body: { business_plan_id: planId, email: 'viewer@startup.example', pl: 'can_view' },
    });
    await api.call('POST', '/authority/resend', {
      token: ownerToken,
      body: { business_plan_id: planId, email: 'viewer@startup.example' },
    });
    const viewerKeys = api.mail
      .filter((m) => m.to === 'viewer@startup.example')
      .map((m) => /key=([A-Za-z0-9_-]+)/.exec(m.text)?.[1]);
    expect(viewerKeys).toHaveLength(2);
    const voided = await api.call('POST', '/invitation/accept', { token: memberToken, body: { token: viewerKeys[0] } });
    expect(voided.status).toBe(400);
    const accepted = await api.call('POST', '/invitation/accept', {
      token: memberToken,
      body: { token: viewerKeys[1] },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.business_plan_id).toBe(planId);
    expect(await member('viewer@startup.example')).toMatchObject({ status: 'joined' });
    // A joined member is still not the owner.
    const byMember = await api.call('POST', '/authority/resend', {
      token: memberToken,
      body: { business_plan_id: planId, email: 'later@startup.example' },
    });
    expect(byMember.status).toBe(403);
  });

  it('lets an invited address sign up with Google without a demo, and joins it at once', async () => {
    expect(await signinWithGoogle(api.db, { email: 'nope@startup.example', sub: 'g-nope' })).toEqual({
      kind: 'demo_required',
    });
    const result = await signinWithGoogle(api.db, { email: 'later@startup.example', sub: 'g-later' });
    expect(result.kind).toBe('user');
    expect(await member('later@startup.example')).toMatchObject({ status: 'joined' });
  });

  it('ends a removed member’s access at once', async () => {
    const signin = await api.call('POST', '/users/email-signin', {
      body: { email: 'cfo@startup.example', password: 'Secret-pass1' },
    });
    const token = signin.body.app_token as string;
    const read = () => api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: planId } });
    expect((await read()).status).toBe(200);
    const removed = await api.call('POST', '/authority/delete', {
      token: ownerToken,
      body: { business_plan_id: planId, email: 'cfo@startup.example' },
    });
    expect(removed.status).toBe(200);
    expect((await read()).status).toBe(404);
    const me = await api.call('GET', '/user/me', { token });
    expect(me.body.data.business_plans).toEqual([]);
  });
});
