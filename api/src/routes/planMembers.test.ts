import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, rolesAt, startTestApi, type TestApi } from '../testing/harness';
import { signUpByMail } from '../testing/signup';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

async function createPlan(token: string, overrides: Record<string, string> = {}) {
  const answer = await api.call('POST', '/business-plan/create', { token, form: planForm(overrides) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data.business_plan_id as number;
}

describe('members', () => {
  it('invites by e-mail, marks the member received on sign-up, and never edits the owner', async () => {
    const { token } = await api.user('team-owner@example.com', 'team');
    const planId = await createPlan(token);
    const add = await api.call('POST', '/authority/add', {
      token,
      body: { business_plan_id: planId, email: 'Invitee@example.com', ...rolesAt('can_view'), pl: 'can_edit' },
    });
    expect(add.status).toBe(200);
    let list = await api.call('GET', '/authority/retrieve', { token, query: { business_plan_id: planId } });
    expect(list.body.data.role).toHaveLength(2);
    expect(list.body.data.role[0]).toMatchObject({ email: 'team-owner@example.com', is_owner: true });
    expect(list.body.data.role[1]).toMatchObject({
      email: 'invitee@example.com',
      status: 'invited',
      roles: { pl: 'can_edit' },
    });

    await api.db('signup_allowlist').insert({ email: 'invitee@example.com' });
    const memberToken = await signUpByMail(api, 'invitee@example.com', 'Secret-pass1');
    list = await api.call('GET', '/authority/retrieve', { token, query: { business_plan_id: planId } });
    expect(list.body.data.role[1].status).toBe('joined');
    const memberMe = await api.call('GET', '/user/me', { token: memberToken });
    expect(memberMe.body.data.business_plans[0]).toMatchObject({ business_plan_id: planId, is_owner: false });
    expect(memberMe.body.data.business_plans[0].role.pl).toBe('can_edit');

    const edit = await api.call('POST', '/authority/edit', {
      token,
      body: { business_plan_id: planId, email: 'invitee@example.com', ...rolesAt('no_access') },
    });
    expect(edit.status).toBe(200);
    const editOwner = await api.call('POST', '/authority/edit', {
      token,
      body: { business_plan_id: planId, email: 'team-owner@example.com', ...rolesAt('can_view') },
    });
    expect(editOwner.status).toBe(400);
    const deleteOwner = await api.call('POST', '/authority/delete', {
      token,
      body: { business_plan_id: planId, email: 'team-owner@example.com' },
    });
    expect(deleteOwner.status).toBe(400);
    const del = await api.call('POST', '/authority/delete', {
      token,
      body: { business_plan_id: planId, email: 'invitee@example.com' },
    });
    expect(del.status).toBe(200);
    const gone = await api.call('GET', '/user/me', { token: memberToken });
    expect(gone.body.data.business_plans).toEqual([]);
    // Removed already, or never a member: nothing to remove, on either database, and nothing is audited.
    const audited = await api.db('audit_log').where({ action: 'member.delete' }).count<{ n: number }[]>('* as n');
    for (const email of ['invitee@example.com', 'never-invited@example.com']) {
      const again = await api.call('POST', '/authority/delete', { token, body: { business_plan_id: planId, email } });
      expect(again.status).toBe(404);
    }
    expect(await api.db('audit_log').where({ action: 'member.delete' }).count<{ n: number }[]>('* as n')).toEqual(
      audited,
    );
  });

  it('allows members only on Basic and Team, can_edit only on Team and for at most 4', async () => {
    const free = await api.user('free-owner@example.com', 'free');
    const freePlan = await createPlan(free.token);
    const freeAdd = await api.call('POST', '/authority/add', {
      token: free.token,
      body: { business_plan_id: freePlan, email: 'v@example.com', ...rolesAt('can_view') },
    });
    expect(freeAdd.status).toBe(403);
    expect(freeAdd.body.code).toBe('tier_lock');

    const basic = await api.user('basic-owner@example.com', 'basic');
    const basicPlan = await createPlan(basic.token);
    for (let i = 0; i < 6; i++) {
      const viewer = await api.call('POST', '/authority/add', {
        token: basic.token,
        body: { business_plan_id: basicPlan, email: `viewer${i}@example.com`, ...rolesAt('can_view') },
      });
      expect(viewer.status).toBe(200);
    }
    const basicEditor = await api.call('POST', '/authority/add', {
      token: basic.token,
      body: { business_plan_id: basicPlan, email: 'editor@example.com', ...rolesAt('can_view'), kpi: 'can_edit' },
    });
    expect(basicEditor.status).toBe(403);
    expect(basicEditor.body.code).toBe('tier_lock');

    const team = await api.user('team-limit@example.com', 'team');
    const teamPlan = await createPlan(team.token);
    for (let i = 0; i < 4; i++) {
      const editor = await api.call('POST', '/authority/add', {
        token: team.token,
        body: { business_plan_id: teamPlan, email: `ed${i}@example.com`, ...rolesAt('can_edit') },
      });
      expect(editor.status).toBe(200);
    }
    const fifth = await api.call('POST', '/authority/add', {
      token: team.token,
      body: { business_plan_id: teamPlan, email: 'ed4@example.com', ...rolesAt('no_access'), sm: 'can_edit' },
    });
    expect(fifth.status).toBe(400);
    expect(fifth.body.errors.email).toMatch(/at most 4/);
    // Re-saving one of the four editors is still allowed.
    const resave = await api.call('POST', '/authority/edit', {
      token: team.token,
      body: { business_plan_id: teamPlan, email: 'ed0@example.com', ...rolesAt('can_edit') },
    });
    expect(resave.status).toBe(200);
    const viewerOk = await api.call('POST', '/authority/add', {
      token: team.token,
      body: { business_plan_id: teamPlan, email: 'ed4@example.com', ...rolesAt('can_view') },
    });
    expect(viewerOk.status).toBe(200);
    const list = await api.call('GET', '/authority/retrieve', {
      token: team.token,
      query: { business_plan_id: teamPlan },
    });
    expect(list.body.data).toMatchObject({ editor_count: 4, editor_limit: 4, can_grant_edit: true });
  });

  it('refuses bad member input per field', async () => {
    const { token } = await api.user('bad-member@example.com', 'team');
    const planId = await createPlan(token);
    const answer = await api.call('POST', '/authority/add', {
      token,
      body: { business_plan_id: planId, email: 'nope', pl: 'admin' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toMatchObject({ email: 'enter in email format' });
    expect(answer.body.errors.pl).toBeTruthy();
    expect(await api.db('plan_members').where({ plan_id: planId })).toEqual([]);
  });
});
