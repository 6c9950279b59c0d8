import { type Area, COST_AREAS, COST_CATEGORIES, HISTORY_ITEMS_SHOWN, type Level } from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costItem, planForm, rolesAt, startTestApi, type TestApi } from '../../testing/harness';
import { setTier } from '../accounts/users';

/**
 * What the history (GET /history, /history/compare) shows each reader over the role matrix: for every area, a change
 * the owner makes there is seen, name and values, by the owner and by a member who may view that area, and by a member
 * who may not only as one hidden entry (no name, title, detail or value, nor how many), on the same pages as everyone.
 * Member changes are the owner's only; an area the owner's tier locks is hidden like one without access. The secrets
 * are looked for in the answers' JSON text. Runs on PGlite and on PostgreSQL.
 */
const TODAY = new Date('2026-07-15T09:00:00Z');
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ now: () => TODAY });
});
afterAll(async () => {
  await api.close();
});

type Roles = Record<string, Level>;
type Post = (path: string, body: Record<string, unknown>) => Promise<void>;

interface Matrix {
  /** What the changes belong to: an area, or the plan's members. */
  area: Area | 'members';
  /** The owner's changes, all in that area. */
  change: (post: Post, caseId: number) => Promise<void>;
  /** Text of those changes that a reader who may not see them must not get (names, e-mails, values, keys). */
  secrets: string[];
  /** Such text of a change undone within the changes, so in the page but not in the comparison. */
  undone?: string[];
  /** A member who may see everything but the area, and one who may see it; for the members, the owner alone. */
  blind: Roles;
  seer: Roles | null;
}

/** A member who may see every area but `area` (and edits one, so as to read the history). */
const allBut = (area: Area): Roles =>
  rolesAt('can_view', { [area]: 'no_access', [area === 'dashboard' ? 'kpi' : 'dashboard']: 'can_edit' });
/** A member who may view `area` and the P&L (which a comparison needs), and edits the dashboard. */
const viewerOf = (area: Area): Roles =>
  rolesAt('no_access', { pl: 'can_view', dashboard: 'can_edit', [area]: 'can_view' });

const assumption = (key: string, value: number) => async (post: Post, caseId: number) =>
  post('/case/edit', { case_id: caseId, year: 2, key, value });

const costChange = (group: (typeof COST_AREAS)[number]) => async (post: Post, caseId: number) => {
  const item = costItem({ item_title: `${group}_${COST_CATEGORIES[group][0]}`, item_name: `SECRET-${group}-item` });
  await post('/cost/create', { case_id: caseId, item });
};

// No input belongs to the Dashboard: it only reads the others.
const MATRIX: Matrix[] = [
  {
    area: 'pl',
    change: async (post, caseId) => {
      await assumption('employees', 4242)(post, caseId);
      await post('/pl/color', { colors: [{ arr: '#13A7E5', pl: '#2B3C4D', gross_profit: '#5E6F70' }] });
    },
    secrets: ['"key":"employees"', '4242', '#13a7e5', '"kind":"color"'],
    blind: allBut('pl'),
    seer: viewerOf('pl'),
  },
  ...(['kpi', 'sales_detail'] as const).map((area) => ({
    area,
    change: assumption(area === 'kpi' ? 'churn_rate' : 'recurring_revenue_rate', 0.0271828),
    secrets: [area === 'kpi' ? '"key":"churn_rate"' : '"key":"recurring_revenue_rate"', '0.0271828'],
    blind: allBut(area),
    seer: viewerOf(area),
  })),
  {
    area: 'monthly_pl',
    change: async (post, caseId) => {
      const place = { case_id: caseId, year: 1 };
      await post('/pl/monthly/comment/edit', {
        ...place,
        column_name: 2,
        section: 'estimate',
        content: 'SECRET-comment',
      });
      await post('/pl/monthly/cashflow/edit', { ...place, month: 2, equity_raised: 7_654_321 });
    },
    secrets: ['SECRET-comment', '"key":"equity_raised"', '"kind":"comment"'],
    blind: allBut('monthly_pl'),
    seer: viewerOf('monthly_pl'),
  },
  {
    area: 'actuals',
    change: async (post, caseId) => post('/pl/monthly/edit', { case_id: caseId, year: 1, month: 1, order: 3 }),
    secrets: ['"key":"order"', '"kind":"status"', '"ACT"'],
    blind: allBut('actuals'),
    seer: viewerOf('actuals'),
  },
  ...COST_AREAS.map((group) => ({
    area: group,
    change: costChange(group),
    secrets: [`SECRET-${group}-item`, `"${group}_${COST_CATEGORIES[group][0]}`, '"kind":"cost_item"'],
    blind: allBut(group),
    seer: viewerOf(group),
  })),
  {
    area: 'members',
    change: async (post) => {
      await post('/authority/add', { email: 'secret-invitee@example.com', ...rolesAt('can_view') });
      await post('/authority/edit', {
        email: 'secret-invitee@example.com',
        ...rolesAt('no_access', { pl: 'can_view' }),
      });
      await post('/authority/add', { email: 'secret-removed@example.com', ...rolesAt('can_view') });
      await post('/authority/delete', { email: 'secret-removed@example.com' });
    },
    secrets: ['secret-invitee', '"kind":"member"'],
    undone: ['secret-removed'],
    // Even a member who may edit every area.
    blind: rolesAt('can_edit'),
    seer: null,
  },
];

/** A plan of its own owner (Team), with the members invited and signed up. */
async function planWith(tag: string, members: Record<string, Roles>) {
  const owner = await api.user(`owner-${tag}@example.com`, 'team');
  const created = await api.call('POST', '/business-plan/create', { token: owner.token, form: planForm() });
  expect(created.status).toBe(201);
  const planId: number = created.body.data.business_plan_id;
  const caseId = Number((await api.db('cases').where({ plan_id: planId }).first()).id);
  const post = async (path: string, body: Record<string, unknown>, token = owner.token) => {
    const answer = await api.call('POST', path, { token, body: { business_plan_id: planId, ...body } });
    expect([200, 201], `${path}: ${answer.text}`).toContain(answer.status);
    return answer;
  };
  const get = (path: string, query: Record<string, number>, token: string) =>
    api.call('GET', path, { token, query: { business_plan_id: planId, ...query } });
  const tokens: Record<string, string> = { owner: owner.token };
  for (const [name, roles] of Object.entries(members)) {
    const email = `${name}-${tag}@example.com`;
    await post('/authority/add', { email, ...roles });
    tokens[name] = (await api.user(email, 'free')).token;
  }
  const newest = async () => (await get('/history', {}, owner.token)).body.data.changes[0].id as number;
  return { owner, planId, caseId, post, get, tokens, newest };
}

interface Change {
  id: number;
  by: string | null;
  action: string | null;
  item_count: number;
  items: { hidden: boolean }[];
}

describe('history by role', () => {
  it.each(MATRIX)('shows a change in $area to those who may see it only', async (m) => {
    const p = await planWith(`matrix-${m.area}`, { blind: m.blind, ...(m.seer ? { seer: m.seer } : {}) });
    const from = await p.newest();
    await m.change((path, body) => p.post(path, body).then(() => undefined), p.caseId);
    const to = await p.newest();
    expect(to).toBeGreaterThan(from);

    const read = async (who: string) => {
      const history = await p.get('/history', {}, p.tokens[who] as string);
      expect(history.status).toBe(200);
      const compare = await p.get('/history/compare', { from, to }, p.tokens[who] as string);
      return { history, compare };
    };
    // The owner and the member who may view the area see every secret, in the page and in the comparison.
    for (const who of m.seer ? ['owner', 'seer'] : ['owner']) {
      const { history, compare } = await read(who);
      expect(compare.status).toBe(200);
      for (const secret of m.secrets) {
        expect(history.text, `${who}: ${secret}`).toContain(secret);
        expect(JSON.stringify(compare.body.data.inputs), `${who}: ${secret}`).toContain(secret);
      }
      for (const secret of m.undone ?? []) expect(history.text, `${who}: ${secret}`).toContain(secret);
    }

    const { history, compare } = await read('blind');
    for (const secret of [...m.secrets, ...(m.undone ?? [])]) expect(history.text, secret).not.toContain(secret);
    // The same changes as the owner's, those made since `from` each one hidden entry alone.
    const owners: Change[] = (await p.get('/history', {}, p.tokens.owner as string)).body.data.changes;
    const seen: Change[] = history.body.data.changes;
    expect(seen.map((c) => c.id)).toEqual(owners.map((c) => c.id));
    const since = seen.filter((c) => c.id > from);
    expect(since.length).toBeGreaterThan(0);
    for (const change of since) {
      expect(change).toMatchObject({ by: null, action: null, item_count: 1, items: [{ hidden: true }] });
      expect(Object.keys(change.items[0] as object)).toEqual(['hidden']);
    }
    if (m.area === 'pl') {
      // No P&L area: no comparison at all.
      expect(compare.status).toBe(403);
    } else {
      expect(compare.status).toBe(200);
      expect(compare.body.data.inputs).toEqual([{ hidden: true }]);
      for (const secret of [...m.secrets, ...(m.undone ?? [])]) expect(compare.text, secret).not.toContain(secret);
    }
  });

  it('shows the plan settings and Home’s daily entries to every member who reads the history', async () => {
    const p = await planWith('settings', { narrow: rolesAt('no_access', { cogs: 'can_edit' }) });
    await p.post('/business-plan/theme-color', { theme_color: 'black' });
    await p.post('/home/edit', { kpi_title: 'meeting', value: 4, date: '2026-07-14' });
    const [daily, theme]: Change[] = (await p.get('/history', {}, p.tokens.narrow as string)).body.data.changes;
    expect(daily?.items).toEqual([expect.objectContaining({ kind: 'daily', key: 'meeting', new: 4, hidden: false })]);
    expect(theme?.items).toEqual([expect.objectContaining({ kind: 'plan', key: 'theme_color', new: 'black' })]);
  });

  it('lists what the reader may see before the hidden entry, and counts all that is hidden as one', async () => {
    const p = await planWith('mixed', { kpi: rolesAt('no_access', { kpi: 'can_edit' }) });
    const from = await p.newest();
    // One change of many rows: a restore to before 30 KPI and 30 P&L assumptions puts them all back.
    for (const year of [1, 2, 3, 4, 5, 6]) {
      for (const key of ['employees', 'cogs_rate', 'sm_rate', 'rd_rate', 'ga_rate']) {
        await p.post('/case/edit', { case_id: p.caseId, year, key, value: key === 'employees' ? year : year / 100 });
      }
      for (const key of ['churn_rate', 'lead_rate', 'meeting_rate', 'order_rate', 'arpa']) {
        await p.post('/case/edit', { case_id: p.caseId, year, key, value: year / 100 });
      }
    }
    await p.post('/history/restore', { at: from });
    const page = await p.get('/history', {}, p.tokens.kpi as string);
    expect(page.status, page.text).toBe(200);
    const [restore]: Change[] = page.body.data.changes;
    expect(restore?.action).toBe('history.restore');
    expect(restore?.item_count).toBe(31);
    expect(restore?.items).toHaveLength(HISTORY_ITEMS_SHOWN);
    expect(restore?.items.slice(0, -1).every((i) => !i.hidden)).toBe(true);
    expect(restore?.items.at(-1)).toEqual({ hidden: true });
    const [ownersRestore]: Change[] = (await p.get('/history', {}, p.tokens.owner as string)).body.data.changes;
    expect(ownersRestore?.item_count).toBe(60);
    expect(ownersRestore?.items.every((i) => !i.hidden)).toBe(true);
  });

  it('hides an area the owner’s tier locks, from the owner too, who may still restore', async () => {
    const p = await planWith('tier', {});
    const from = await p.newest();
    await p.post('/case/edit', { case_id: p.caseId, year: 2, key: 'churn_rate', value: 0.0271828 });
    await p.post('/case/edit', { case_id: p.caseId, year: 2, key: 'employees', value: 7 });
    const to = await p.newest();
    await setTier(api.db, p.owner.user.id, 'free', null, TODAY);
    // Free opens the P&L but not the KPI screen.
    const owners = async () => (await p.get('/history', {}, p.tokens.owner as string)).body.data;
    await expect.poll(async () => (await owners()).changes[1]?.action).toBeNull();
    const [employees, churn]: Change[] = (await owners()).changes;
    expect(churn).toMatchObject({ action: null, item_count: 1, items: [{ hidden: true }] });
    expect(employees?.items).toEqual([expect.objectContaining({ key: 'employees', new: 7 })]);
    const compare = await p.get('/history/compare', { from, to }, p.tokens.owner as string);
    expect(compare.status).toBe(200);
    expect(compare.body.data.inputs).toEqual([expect.objectContaining({ key: 'employees' }), { hidden: true }]);
    expect(compare.text).not.toContain('0.0271828');

    expect((await owners()).can_restore).toBe(true);
    expect((await p.post('/history/restore', { at: from })).status).toBe(200);
    expect(await api.db('case_year_inputs').where({ case_id: p.caseId, key: 'churn_rate', year: 2 })).toHaveLength(0);
  });

  it('does not say who made a change the reader may see nothing of', async () => {
    const p = await planWith('who', {
      'secret-editor': rolesAt('no_access', { kpi: 'can_edit' }),
      costs: rolesAt('no_access', { cogs: 'can_edit' }),
    });
    const edit = { business_plan_id: p.planId, case_id: p.caseId, year: 2, key: 'churn_rate', value: 0.03 };
    const edited = await api.call('POST', '/case/edit', { token: p.tokens['secret-editor'] as string, body: edit });
    expect(edited.status).toBe(200);
    const owners: Change[] = (await p.get('/history', {}, p.tokens.owner as string)).body.data.changes;
    expect(owners[0]).toMatchObject({ by: 'secret-editor-who', action: '/case/edit' });
    const costs = await p.get('/history', {}, p.tokens.costs as string);
    expect(costs.body.data.changes[0]).toMatchObject({ by: null, action: null, items: [{ hidden: true }] });
    expect(costs.text).not.toContain('secret-editor');
  });

  it('lets a member with every area restore, still without seeing the members', async () => {
    const p = await planWith('restorer', { full: rolesAt('can_edit') });
    const from = await p.newest();
    await p.post('/case/edit', { case_id: p.caseId, year: 2, key: 'churn_rate', value: 0.03 });
    await p.post('/authority/add', { email: 'secret-stays@example.com', ...rolesAt('can_view') });
    const token = p.tokens.full as string;
    expect((await p.get('/history', {}, token)).body.data.can_restore).toBe(true);
    expect((await p.post('/history/restore', { at: from }, token)).status).toBe(200);
    expect(await api.db('case_year_inputs').where({ case_id: p.caseId, key: 'churn_rate', year: 2 })).toHaveLength(0);
    expect(await api.db('plan_members').where({ plan_id: p.planId, email: 'secret-stays@example.com' })).toHaveLength(
      1,
    );
    const after = await p.get('/history', {}, token);
    expect(after.text).not.toContain('secret-stays');
    expect(after.body.data.changes[0].items).toEqual([
      expect.objectContaining({ key: 'churn_rate', op: 'remove', old: 0.03, hidden: false }),
    ]);
  });
});
