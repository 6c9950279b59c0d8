import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, startTestApi, type TestApi } from '../../testing/harness';
import { SPENT_ROWS_KEPT_DAYS, sweepSpentLinks } from './spentRows';

/**
 * Spent links are deleted 30 days after they were used or expired, on both databases; what is live or recently spent
 * stays, and the owner still sees each member as before (an expired invitation stays "expired").
 */
let api: TestApi;
let ownerToken: string;
let planId: number;
const DAY = 86_400_000;
const now = new Date();
const ago = (days: number) => new Date(now.getTime() - days * DAY);

const status = async (email: string) =>
  (
    await api.call('GET', '/authority/retrieve', { token: ownerToken, query: { business_plan_id: planId } })
  ).body.data.role.find((m: { email: string }) => m.email === email)?.status;

beforeAll(async () => {
  api = await startTestApi();
  ({ token: ownerToken } = await api.user('spent-owner@example.com', 'team'));
  const created = await api.call('POST', '/business-plan/create', {
    token: ownerToken,
    form: planForm({ business_plan_name: 'Spent links' }),
  });
  planId = created.body.data.business_plan_id;
});

afterAll(async () => {
  await api?.close();
});

describe('spent links', () => {
  it(`are deleted ${SPENT_ROWS_KEPT_DAYS} days after use or expiry; live and recent ones stay, statuses do not move`, async () => {
    for (const email of ['live@example.com', 'lapsed@example.com', 'long-lapsed@example.com']) {
      const add = await api.call('POST', '/authority/add', {
        token: ownerToken,
        body: { business_plan_id: planId, email, pl: 'can_view' },
      });
      expect(add.status).toBe(200);
    }
    const memberId = async (email: string) =>
      (await api.db('plan_members').where({ plan_id: planId, email }).first('id')).id as number;
    const lapsed = await memberId('lapsed@example.com');
    const longLapsed = await memberId('long-lapsed@example.com');
    await api
      .db('plan_invitations')
      .where({ member_id: lapsed })
      .update({ expires_at: ago(SPENT_ROWS_KEPT_DAYS - 1) });
    await api
      .db('plan_invitations')
      .where({ member_id: longLapsed })
      .update({ expires_at: ago(SPENT_ROWS_KEPT_DAYS + 1) });
    // An older link voided by a resend (used 40 days ago) beside the live one of the same member.
    const live = await memberId('live@example.com');
    await api.db('plan_invitations').insert({
      member_id: live,
      token_hash: 'f'.repeat(64),
      expires_at: ago(20),
      used_at: ago(SPENT_ROWS_KEPT_DAYS + 10),
    });

    const { user } = await api.user('resetter@example.com');
    const link = (hash: string, expires: Date, used: Date | null) => ({
      token_hash: hash,
      expires_at: expires,
      used_at: used,
    });
    await api.db('password_resets').insert([
      { user_id: user.id, ...link('a'.repeat(64), ago(SPENT_ROWS_KEPT_DAYS + 2), null) },
      { user_id: user.id, ...link('b'.repeat(64), ago(-1), null) },
      { user_id: user.id, ...link('c'.repeat(64), ago(1), ago(SPENT_ROWS_KEPT_DAYS + 1)) },
    ]);
    const signup = (email: string, expires: Date, used: Date | null) => ({
      email,
      token_hash: `${email}`.padEnd(64, '0'),
      password_hash: 'x',
      expires_at: expires,
      used_at: used,
    });
    await api
      .db('signup_confirmations')
      .insert([
        signup('old@example.com', ago(SPENT_ROWS_KEPT_DAYS + 5), null),
        signup('recent@example.com', ago(2), null),
        signup('waiting@example.com', ago(-1), null),
      ]);
    const before = {
      live: await status('live@example.com'),
      lapsed: await status('lapsed@example.com'),
      longLapsed: await status('long-lapsed@example.com'),
    };
    expect(before).toEqual({ live: 'invited', lapsed: 'expired', longLapsed: 'expired' });

    expect(await sweepSpentLinks(api.db, now)).toEqual({
      signup_confirmations: 1,
      plan_invitations: 2,
      password_resets: 2,
    });
    expect((await api.db('signup_confirmations').orderBy('email').select('email')).map((r) => r.email)).toEqual([
      'recent@example.com',
      'waiting@example.com',
    ]);
    expect((await api.db('password_resets').select('token_hash')).map((r) => r.token_hash)).toEqual(['b'.repeat(64)]);
    const invitations = await api.db('plan_invitations').select('member_id');
    expect(invitations.map((r) => r.member_id).sort()).toEqual([live, lapsed].sort());
    expect({
      live: await status('live@example.com'),
      lapsed: await status('lapsed@example.com'),
      longLapsed: await status('long-lapsed@example.com'),
    }).toEqual(before);
    // A second sweep finds nothing more.
    expect(await sweepSpentLinks(api.db, now)).toEqual({
      signup_confirmations: 0,
      plan_invitations: 0,
      password_resets: 0,
    });
  });
});
