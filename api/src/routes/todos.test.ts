import { TODO_LIMIT, TODO_TEXT_MAX } from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, rolesAt, startTestApi, type TestApi } from '../testing/harness';

/**
 * Home's to-dos on the server, shared by a plan's members, and the reminders derived from the plan. The clock is
 * 2026-07-15 (a Wednesday); the plans start in April 2026, so July is plan month 4 and June (3) the last month ended.
 */
const TODAY = new Date('2026-07-15T09:00:00Z');
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ now: () => TODAY });
});
afterAll(async () => {
  await api.close();
});

/** A Team owner's plan with a viewer, an editor of COGS only, and a stranger. */
async function sharedPlan(tag: string, start: Record<string, string> = {}) {
  const owner = await api.user(`owner-${tag}@example.com`, 'team');
  const created = await api.call('POST', '/business-plan/create', { token: owner.token, form: planForm(start) });
  expect(created.status).toBe(201);
  const planId: number = created.body.data.business_plan_id;
  const invite = async (email: string, r: Record<string, string>) => {
    const added = await api.call('POST', '/authority/add', {
      token: owner.token,
      body: { business_plan_id: planId, email, ...r },
    });
    expect(added.status).toBe(200);
    return (await api.user(email, 'free')).token;
  };
  const viewer = await invite(`viewer-${tag}@example.com`, rolesAt('can_view'));
  const editor = await invite(`editor-${tag}@example.com`, rolesAt('can_view', { cogs: 'can_edit' }));
  const stranger = (await api.user(`stranger-${tag}@example.com`, 'team')).token;
  return { planId, owner: owner.token, viewer, editor, stranger };
}

const list = (token: string, planId: number) =>
  api.call('GET', '/todos/retrieve', { token, query: { business_plan_id: planId } });
const add = (token: string, planId: number, text: string) =>
  api.call('POST', '/todos/create', { token, body: { business_plan_id: planId, text } });

describe('to-dos', () => {
  it('are the plan’s: every member sees the same list; the owner and editors change it, viewers only read', async () => {
    const p = await sharedPlan('share');
    const first = await add(p.owner, p.planId, '  Send the board pack  ');
    expect(first.status).toBe(201);
    expect(first.body.data.todo).toMatchObject({ text: 'Send the board pack', done: false, version: 1 });
    // The wizard's form named the owner.
    expect(first.body.data.todo.created_by).toBe('Hana Sato');
    const second = await add(p.editor, p.planId, 'Check the COGS invoices');
    expect(second.status).toBe(201);
    expect(second.body.data.todo.created_by).toBe('editor-share');

    for (const token of [p.owner, p.viewer, p.editor]) {
      const answer = await list(token, p.planId);
      expect(answer.status).toBe(200);
      expect(answer.body.data.todos.map((t: { text: string }) => t.text)).toEqual([
        'Send the board pack',
        'Check the COGS invoices',
      ]);
    }
    expect((await list(p.owner, p.planId)).body.data.can_edit).toBe(true);
    expect((await list(p.editor, p.planId)).body.data.can_edit).toBe(true);
    expect((await list(p.viewer, p.planId)).body.data.can_edit).toBe(false);

    // A viewer may not add, tick or delete; a stranger cannot even tell the plan exists.
    const id: number = first.body.data.todo.id;
    expect((await add(p.viewer, p.planId, 'x')).status).toBe(403);
    const tick = { business_plan_id: p.planId, todo_id: id, version: 1, done: true };
    expect((await api.call('POST', '/todos/edit', { token: p.viewer, body: tick })).status).toBe(403);
    const gone = { business_plan_id: p.planId, todo_id: id, version: 1 };
    expect((await api.call('POST', '/todos/delete', { token: p.viewer, body: gone })).status).toBe(403);
    expect((await list(p.stranger, p.planId)).status).toBe(404);
    expect((await add(p.stranger, p.planId, 'x')).status).toBe(404);

    // A to-do of another plan is not this plan's to edit.
    const other = await sharedPlan('other');
    const foreign = { business_plan_id: other.planId, todo_id: id, version: 1, done: true };
    expect((await api.call('POST', '/todos/edit', { token: other.owner, body: foreign })).status).toBe(404);
    expect((await list(p.owner, p.planId)).body.data.todos[0]).toMatchObject({ id, done: false, version: 1 });
  });

  it('refuse blank, too long and too many, by field', async () => {
    const p = await sharedPlan('bounds');
    const blank = await add(p.owner, p.planId, '   ');
    expect(blank.status).toBe(400);
    expect(blank.body.errors.text).toBe('text is required');
    const long = await add(p.owner, p.planId, 'x'.repeat(TODO_TEXT_MAX + 1));
    expect(long.status).toBe(400);
    expect(long.body.errors.text).toBe(`text may not be greater than ${TODO_TEXT_MAX} characters`);
    const longest = await add(p.owner, p.planId, '字'.repeat(TODO_TEXT_MAX));
    expect(longest.status).toBe(201);
    expect(longest.body.data.todo.text).toBe('字'.repeat(TODO_TEXT_MAX));
    const unknown = await api.call('POST', '/todos/create', {
      token: p.owner,
      body: { business_plan_id: p.planId, text: 'a', done: true },
    });
    expect(unknown.status).toBe(400);
    const empty = await api.call('POST', '/todos/edit', {
      token: p.owner,
      body: { business_plan_id: p.planId, todo_id: longest.body.data.todo.id, version: 1 },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.text).toBe('text or done is required');

    // Ten parallel adds from two members when five places are left: five are saved, five refused, never more.
    const rows = Array.from({ length: TODO_LIMIT - 6 }, (_, i) => ({ plan_id: p.planId, text: `filler ${i}` }));
    await api.db('plan_todos').insert(rows);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => add(i % 2 ? p.editor : p.owner, p.planId, `late ${i}`)),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 400);
    expect(refused).toHaveLength(5);
    for (const answer of refused) {
      expect(answer.body.errors.text).toBe(`a plan holds at most ${TODO_LIMIT} to-dos: delete done ones first`);
      expect(answer.body.limit).toEqual({ name: 'todos', max: TODO_LIMIT, value: TODO_LIMIT + 1 });
    }
    expect((await list(p.viewer, p.planId)).body.data.todos).toHaveLength(TODO_LIMIT);
  });

  it('keep both members’ parallel adds, and refuse an edit made on an older version', async () => {
    const p = await sharedPlan('versions');
    const texts = Array.from({ length: 20 }, (_, i) => `task ${i + 1}`);
    const added = await Promise.all(texts.map((text, i) => add(i % 2 ? p.editor : p.owner, p.planId, text)));
    expect(added.map((a) => a.status)).toEqual(texts.map(() => 201));
    const seen = (await list(p.viewer, p.planId)).body.data.todos as { id: number; text: string }[];
    expect(seen.map((t) => t.text).sort()).toEqual([...texts].sort());
    expect(new Set(seen.map((t) => t.id)).size).toBe(20);

    // Both read version 1; the owner ticks it, then the editor's rewording of version 1 is refused, not merged away.
    const todo = added[0]?.body.data.todo as { id: number; version: number };
    const edit = (token: string, change: object) =>
      api.call('POST', '/todos/edit', { token, body: { business_plan_id: p.planId, todo_id: todo.id, ...change } });
    const ticked = await edit(p.owner, { version: 1, done: true });
    expect(ticked.status).toBe(200);
    expect(ticked.body.data.todo).toMatchObject({ done: true, version: 2, text: 'task 1' });
    const stale = await edit(p.editor, { version: 1, text: 'task 1 (reworded)' });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('conflict');
    const fresh = await edit(p.editor, { version: 2, text: 'task 1 (reworded)' });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.todo).toMatchObject({ done: true, version: 3, text: 'task 1 (reworded)' });

    // Two parallel edits of the same version: exactly one wins, the other is told.
    const race = await Promise.all([
      edit(p.owner, { version: 3, done: false }),
      edit(p.editor, { version: 3, text: 'x' }),
    ]);
    expect(race.map((a) => a.status).sort()).toEqual([200, 409]);

    const remove = (version: number) =>
      api.call('POST', '/todos/delete', {
        token: p.editor,
        body: { business_plan_id: p.planId, todo_id: todo.id, version },
      });
    expect((await remove(3)).status).toBe(409);
    expect((await remove(4)).status).toBe(200);
    expect((await remove(4)).status).toBe(404);
    expect((await edit(p.owner, { version: 4, done: true })).status).toBe(404);
    expect((await list(p.owner, p.planId)).body.data.todos).toHaveLength(19);
  });

  it('go with the plan', async () => {
    const p = await sharedPlan('delete');
    expect((await add(p.owner, p.planId, 'soon gone')).status).toBe(201);
    const deleted = await api.call('POST', '/business-plan/delete', {
      token: p.owner,
      body: { business_plan_id: p.planId },
    });
    expect(deleted.status).toBe(200);
    expect(await api.db('plan_todos').where({ plan_id: p.planId })).toEqual([]);
  });
});

describe('reminders', () => {
  const reminders = async (token: string, planId: number) => {
    const answer = await api.call('GET', '/home/reminders', { token, query: { business_plan_id: planId } });
    expect(answer.status).toBe(200);
    return answer.body.data.reminders as { code: string; month: string | null; days: number | null }[];
  };

  it('follow the plan: last month’s actuals, this week’s daily inputs, members', async () => {
    const owner = await api.user('reminded@example.com', 'team');
    const created = await api.call('POST', '/business-plan/create', { token: owner.token, form: planForm() });
    const planId: number = created.body.data.business_plan_id;
    expect(await reminders(owner.token, planId)).toEqual([
      { code: 'actuals_missing', month: '2026-06', days: null, date: null },
      { code: 'daily_none_this_week', month: null, days: null, date: null },
      { code: 'no_members', month: null, days: null, date: null },
    ]);
    // June's actuals (plan year 1, month 3), a daily entry this week and a member: nothing left to remind of.
    const actuals = { business_plan_id: planId, year: 1, month: 3, meeting: 4 };
    expect((await api.call('POST', '/pl/monthly/edit', { token: owner.token, body: actuals })).status).toBe(200);
    const daily = { business_plan_id: planId, kpi_title: 'meeting', value: 2, date: '2026-07-13' };
    expect((await api.call('POST', '/home/edit', { token: owner.token, body: daily })).status).toBe(200);
    const member = { business_plan_id: planId, email: 'reminded-member@example.com', ...rolesAt('can_view') };
    expect((await api.call('POST', '/authority/add', { token: owner.token, body: member })).status).toBe(200);
    expect(await reminders(owner.token, planId)).toEqual([]);
    // A daily entry of last week does not count for this one.
    await api.db('daily_entries').where({ plan_id: planId }).update({ date: '2026-07-12' });
    expect((await reminders(owner.token, planId)).map((r) => r.code)).toEqual(['daily_none_this_week']);
  });

  it('tell the owner of a trial’s end, and a plan that has not started', async () => {
    const owner = await api.user('trial-reminded@example.com', 'free', 3);
    // Three days from the test's clock (the harness counts them from the real one).
    await api.db('subscriptions').where({ user_id: owner.user.id }).update({ trial_end: '2026-07-18' });
    const form = planForm({ start_year: '2026', start_month: '9' });
    const created = await api.call('POST', '/business-plan/create', { token: owner.token, form });
    expect(created.status).toBe(201);
    const planId: number = created.body.data.business_plan_id;
    expect(await reminders(owner.token, planId)).toEqual([
      { code: 'trial_ending', month: null, days: 3, date: '2026-07-18' },
      { code: 'no_members', month: null, days: null, date: null },
      { code: 'plan_not_started', month: '2026-09', days: null, date: null },
    ]);
    // A member hears nothing of the owner's trial or invitations.
    const member = { business_plan_id: planId, email: 'trial-member@example.com', ...rolesAt('can_view') };
    expect((await api.call('POST', '/authority/add', { token: owner.token, body: member })).status).toBe(200);
    const memberToken = (await api.user('trial-member@example.com', 'free')).token;
    expect((await reminders(memberToken, planId)).map((r) => r.code)).toEqual(['plan_not_started']);
  });
});
