import { AREAS, type Area, LEVELS, type Level } from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, planForm, startTestApi, type TestApi } from '../testing/harness';

/**
 * The permission matrix: every area x every role x read and write, the owner-only calls, a stranger and a member
 * of another plan.
 */
let api: TestApi;
let owner: string;
let planId: number;
let caseId: number;
const costIds: Record<string, number> = {};

type Op = 'read' | 'write';
interface Call {
  name: string;
  /** The area whose role decides, 'expenses' (any cost area), 'home', or 'owner' for owner-only calls. */
  scope: Area | 'expenses' | 'home' | 'owner';
  op: Op;
  send(token: string): Promise<Answer>;
}

const get =
  (path: string, extra: Record<string, string | number> = {}) =>
  (token: string) =>
    api.call('GET', path, { token, query: { business_plan_id: planId, ...extra } });
const post =
  (path: string, body: () => Record<string, unknown> | Promise<Record<string, unknown>>) => async (token: string) =>
    api.call('POST', path, { token, body: { business_plan_id: planId, ...(await body()) } });

/** The whole item, at the version it has now (an edit names the version it was made on). */
const costItem = async (group: string) => ({
  case_id: caseId,
  cost_id: costIds[group],
  version: costIds[group] ? ((await api.db('cost_items').where({ id: costIds[group] }).first())?.version ?? 1) : 1,
  item_title: `${group}_other`,
  item_name: `${group} item`,
  price: 1000,
  start_year: 2026,
  start_month: 4,
  end_year: 2026,
  end_month: 9,
});

const CALLS: Call[] = [
  { name: 'pl read', scope: 'pl', op: 'read', send: get('/pl/retrieve') },
  { name: 'suggestions read', scope: 'pl', op: 'read', send: get('/suggestions/per-employee') },
  {
    name: 'pl cell edit',
    scope: 'pl',
    op: 'write',
    send: post('/case/edit', () => ({ case_id: caseId, year: 1, key: 'sm_rate', value: 0.4 })),
  },
  {
    name: 'case rename',
    scope: 'pl',
    op: 'write',
    send: post('/casename/edit', () => ({ case_id: caseId, case_name: 'Base' })),
  },
  {
    name: 'model edit',
    scope: 'pl',
    op: 'write',
    send: post('/model/edit', () => ({ case_id: caseId, model: { name: 'okta' } })),
  },
  {
    name: 'colours',
    scope: 'pl',
    op: 'write',
    send: post('/pl/color', () => ({ colors: [{ arr: '#111111', pl: '#222222', gross_profit: '#333333' }] })),
  },
  { name: 'kpi read', scope: 'kpi', op: 'read', send: get('/kpi/retrieve') },
  {
    name: 'kpi cell edit',
    scope: 'kpi',
    op: 'write',
    send: post('/case/edit', () => ({ case_id: caseId, year: 1, key: 'churn_rate', value: 0.02 })),
  },
  { name: 'revenue read', scope: 'sales_detail', op: 'read', send: get('/revenue/retrieve') },
  {
    name: 'revenue edit',
    scope: 'sales_detail',
    op: 'write',
    send: post('/revenue/edit', () => ({ case_id: caseId, year: 1, value: 0.9 })),
  },
  { name: 'cost read', scope: 'expenses', op: 'read', send: get('/cost/retrieve') },
  ...(['cogs', 'sm', 'rd', 'ga'] as const).map(
    (group): Call => ({
      name: `${group} item edit`,
      scope: group,
      op: 'write',
      send: post('/cost/edit', () => costItem(group)),
    }),
  ),
  { name: 'dashboard read', scope: 'dashboard', op: 'read', send: get('/dashboard/retrieve') },
  { name: 'monthly read', scope: 'monthly_pl', op: 'read', send: get('/pl/monthly/retrieve') },
  {
    name: 'cash-flow edit',
    scope: 'monthly_pl',
    op: 'write',
    send: post('/pl/monthly/cashflow/edit', () => ({ case_id: caseId, year: 1, month: 2, equity_raised: 1000 })),
  },
  {
    name: 'comment edit',
    scope: 'monthly_pl',
    op: 'write',
    send: post('/pl/monthly/comment/edit', () => ({
      case_id: caseId,
      year: 1,
      column_name: 2,
      section: 'estimate',
      content: 'x',
    })),
  },
  { name: 'actuals read', scope: 'actuals', op: 'read', send: get('/actuals/retrieve') },
  {
    name: 'actuals edit',
    scope: 'actuals',
    op: 'write',
    send: post('/pl/monthly/edit', () => ({ year: 1, month: 1, order: 3 })),
  },
  { name: 'reverse', scope: 'actuals', op: 'write', send: post('/pl/monthly/reverse', () => ({ year: 1, month: 1 })) },
  { name: 'home read', scope: 'home', op: 'read', send: get('/home/retrieve') },
  { name: 'home edit', scope: 'home', op: 'write', send: post('/home/edit', () => ({ kpi_title: 'order', value: 1 })) },
  { name: 'members read', scope: 'owner', op: 'read', send: get('/authority/retrieve') },
  {
    name: 'member add',
    scope: 'owner',
    op: 'write',
    send: post('/authority/add', () => ({ email: `x${Math.random()}@example.com`, pl: 'can_view' })),
  },
  {
    name: 'theme colour',
    scope: 'owner',
    op: 'write',
    send: post('/business-plan/theme-color', () => ({ theme_color: 'gray' })),
  },
];

const COST: readonly string[] = ['cogs', 'sm', 'rd', 'ga'];

/** What a member holding only `level` on `area` may do with a call, stated from the spec's rules. */
function allowed(call: Call, area: Area, level: Level): boolean {
  if (call.scope === 'owner') return false;
  if (call.scope === 'home') return call.op === 'read' || (area === 'actuals' && level === 'can_edit');
  const matches = call.scope === area || (call.scope === 'expenses' && COST.includes(area));
  if (!matches) return false;
  return call.op === 'read' ? level !== 'no_access' : level === 'can_edit';
}

const onlyRole = (area: Area, level: Level) =>
  Object.fromEntries(AREAS.map((a) => [a, a === area ? level : 'no_access'])) as Record<Area, Level>;

beforeAll(async () => {
  api = await startTestApi({ now: () => new Date('2026-06-15T00:00:00Z') });
  ({ token: owner } = await api.user('matrix-owner@example.com', 'team'));
  const created = await api.call('POST', '/business-plan/create', {
    token: owner,
    form: planForm({ business_plan_name: 'Secret plan' }),
  });
  planId = created.body.data.business_plan_id;
  caseId = (await api.db('cases').where({ plan_id: planId }).first()).id;
  for (const group of COST) {
    const { cost_id: _id, version: _version, ...item } = await costItem(group);
    const answer = await api.call('POST', '/cost/create', {
      token: owner,
      body: { business_plan_id: planId, ...item },
    });
    costIds[group] = answer.body.data.cost_id;
  }
});
afterAll(async () => {
  await api.close();
});

describe('permission matrix', () => {
  it('lets the owner do everything', async () => {
    for (const call of CALLS) {
      const answer = await call.send(owner);
      expect([200, 201], `${call.name}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
    }
  });

  it('applies each area role to read and write, for every area and level', async () => {
    const failures: string[] = [];
    for (const area of AREAS) {
      for (const level of LEVELS) {
        const email = `${area}-${level}@example.com`.replaceAll('_', '-');
        // Stored straight in the table: the matrix checks enforcement, not the invitation rules.
        await api.db('plan_members').insert({ plan_id: planId, email, status: 'yet', ...onlyRole(area, level) });
        const { token } = await api.user(email, 'free');
        for (const call of CALLS) {
          const answer = await call.send(token);
          const expected = allowed(call, area, level);
          const ok = expected ? answer.status === 200 || answer.status === 201 : answer.status === 403;
          if (!ok) failures.push(`${area}=${level} ${call.name}: ${answer.status} ${JSON.stringify(answer.body)}`);
          if (!expected && answer.status === 403) {
            if (answer.body.code !== 'no_access')
              failures.push(`${area}=${level} ${call.name}: code ${answer.body.code}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('shows a cost member only the cost groups they may see', async () => {
    await api.db('plan_members').insert({
      plan_id: planId,
      email: 'cost-two@example.com',
      status: 'yet',
      ...onlyRole('sm', 'can_view'),
      rd: 'can_edit',
    });
    const { token } = await api.user('cost-two@example.com');
    const answer = await api.call('GET', '/cost/retrieve', { token, query: { business_plan_id: planId } });
    expect(answer.body.data.visible_groups).toEqual(['sm', 'rd']);
    const groups = Object.keys(answer.body.data.values[0].cost[0].groups).sort();
    expect(groups).toEqual(['rd', 'sm']);
    expect(answer.body.data.values[0].cost[0].total_cost).toBeNull();
  });

  it('tells a stranger and a member of another plan nothing about the plan', async () => {
    const { token: stranger } = await api.user('stranger@example.com', 'team');
    const other = await api.user('other-owner@example.com', 'team');
    const otherPlan = (await api.call('POST', '/business-plan/create', { token: other.token, form: planForm() })).body
      .data.business_plan_id;
    await api
      .db('plan_members')
      .insert({ plan_id: otherPlan, email: 'other-member@example.com', status: 'yet', ...onlyRole('pl', 'can_edit') });
    const { token: otherMember } = await api.user('other-member@example.com');
    for (const token of [stranger, otherMember]) {
      for (const call of CALLS) {
        const answer = await call.send(token);
        expect(answer.status, call.name).toBe(404);
        expect(answer.text).not.toContain('Secret plan');
      }
      const me = await api.call('GET', '/user/me', { token });
      expect(me.text).not.toContain('Secret plan');
    }
    // A case id of this plan used through another plan is not found either.
    const hijack = await api.call('POST', '/casename/edit', {
      token: other.token,
      body: { business_plan_id: otherPlan, case_id: caseId, case_name: 'mine' },
    });
    expect(hijack.status).toBe(404);
    const unauthenticated = await api.call('GET', '/pl/retrieve', { query: { business_plan_id: planId } });
    expect(unauthenticated.status).toBe(401);
  });
});

describe('tier locks', () => {
  it('locks every area but home, P&L and settings on Free, with a tier-lock body, and opens every area on the trial', async () => {
    for (const [email, tier, trial] of [
      ['free-lock@example.com', 'free', null],
      ['trial-lock@example.com', 'team', 14],
    ] as const) {
      const { token } = await api.user(email, tier, trial);
      const created = await api.call('POST', '/business-plan/create', { token, form: planForm() });
      const freePlan = created.body.data.business_plan_id;
      const freeCase = (await api.db('cases').where({ plan_id: freePlan }).first()).id;
      const send = (call: Call) => {
        const saved = { planId, caseId };
        planId = freePlan;
        caseId = freeCase;
        const answer = call.send(token);
        planId = saved.planId;
        caseId = saved.caseId;
        return answer;
      };
      for (const call of CALLS) {
        if (call.name.endsWith('item edit') || call.name === 'member add') continue;
        const answer = await send(call);
        const open = trial !== null || call.scope === 'pl' || call.scope === 'home' || call.scope === 'owner';
        if (open) expect([200, 201], `${email} ${call.name}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
        else {
          expect(answer.status, `${email} ${call.name}`).toBe(403);
          expect(answer.body).toMatchObject({ title: 'Upgrade required', code: 'tier_lock' });
        }
      }
    }
  });

  it('reads a member can_edit as can_view when the owner is on Basic', async () => {
    const basic = await api.user('basic-clamp@example.com', 'basic');
    const basicPlan = (await api.call('POST', '/business-plan/create', { token: basic.token, form: planForm() })).body
      .data.business_plan_id;
    const basicCase = (await api.db('cases').where({ plan_id: basicPlan }).first()).id;
    await api
      .db('plan_members')
      .insert({ plan_id: basicPlan, email: 'clamped@example.com', status: 'yet', ...onlyRole('pl', 'can_edit') });
    const { token } = await api.user('clamped@example.com');
    const read = await api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: basicPlan } });
    expect(read.status).toBe(200);
    const write = await api.call('POST', '/casename/edit', {
      token,
      body: { business_plan_id: basicPlan, case_id: basicCase, case_name: 'x' },
    });
    expect(write.status).toBe(403);
    const me = await api.call('GET', '/user/me', { token });
    expect(me.body.data.business_plans[0].role.pl).toBe('can_view');
  });
});
