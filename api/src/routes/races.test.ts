import {
  editorLimit,
  hasEdit,
  isTierLocked,
  MAX_CASES,
  ownedPlanLimit,
  type RouteName,
  requestSchema,
  routes,
  type Scope,
  type Tier,
} from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { rolesOf } from '../services/access/access';
import { type Answer, planForm, rolesAt, startTestApi, type TestApi } from '../testing/harness';

/**
 * Every limit and invariant holds under any interleaving: ten calls fired at once at each limit leave exactly the
 * count the limit allows, the others are refused with the contract's code and limit, and every screen answers after.
 */
let api: TestApi;
let emails = 0;
const PARALLEL = 10;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

async function owner(tier: Tier) {
  emails++;
  return api.user(`race-${tier}-${emails}@example.com`, tier);
}

async function newPlan(token: string): Promise<number> {
  const created = await api.call('POST', '/business-plan/create', { token, form: planForm() });
  expect(created.status).toBe(201);
  return created.body.data.business_plan_id;
}

const count = async (table: string, where: Record<string, unknown>) =>
  Number((await api.db(table).where(where).count<{ n: string }[]>('* as n'))[0]?.n);

const caseIds = async (planId: number): Promise<number[]> =>
  (await api.db('cases').where({ plan_id: planId }).orderBy('id').pluck('id')).map(Number);

/** Exactly `ok` calls answered with `success`, and every other answer is the same refusal. */
function expectOutcome(answers: Answer[], success: number, ok: number, refusal: (answer: Answer) => void): void {
  expect(answers.filter((a) => a.status === success)).toHaveLength(ok);
  for (const answer of answers.filter((a) => a.status !== success)) refusal(answer);
}

/** Every plan read of the route table answers: 200, or 403 `tier_lock` where the owner's tier locks its scope. */
async function expectScreensAnswer(token: string, planId: number, tier: Tier): Promise<void> {
  const [caseId] = await caseIds(planId);
  const planReads = (Object.keys(routes) as RouteName[]).filter((name) => {
    const { method, needs } = routes[name];
    // Google's consent page needs a Google client configured (routes/spreadsheet.test.ts).
    if (name === 'spreadsheetAuthUrl') return false;
    // A plan without an icon has none to serve (routes/planIcon.test.ts).
    if (name === 'planIcon') return false;
    // A plan without a snapshot has none to download (routes/snapshots.test.ts).
    if (name === 'snapshotXlsx') return false;
    // A plan without actuals has no year to revise, so no preview (routes/comparison.test.ts).
    if (name === 'revisePreview') return false;
    return method === 'GET' && needs.kind !== 'public' && needs.kind !== 'signed_in';
  });
  expect(planReads.length).toBeGreaterThan(10);
  // The history's moments are its changes: the plan's newest one.
  const latest = String((await api.db('plan_changes').where({ plan_id: planId }).max({ id: 'id' }))[0]?.id);
  const answers = await Promise.all(
    planReads.map(async (name) => {
      const route = routes[name];
      const withCase = { business_plan_id: String(planId), case_id: String(caseId) };
      // The smallest query the route takes: the plan, its case, then a year, a view, a period and a key.
      const queries: Record<string, string>[] = [
        { business_plan_id: String(planId) },
        withCase,
        { ...withCase, year: '1' },
        { ...withCase, year: '1', view: 'estimate' },
        { ...withCase, year: '1', period: '1', key: 'revenue' },
        { ...withCase, year: '1', period: '1', key: 'revenue', view: 'estimate' },
        { business_plan_id: String(planId), at: latest },
        { business_plan_id: String(planId), from: latest, to: latest },
      ];
      const query = queries.find((q) => (requestSchema(name, new Date()) as ZodType).safeParse(q).success);
      expect(query, `a query that ${route.path} takes`).toBeDefined();
      const answer = await api.call('GET', route.path, { token, query });
      // A scope may depend on the request (explain: the area of the figure asked).
      const needs = route.needs as { kind: string; scope?: Scope | ((input: unknown) => Scope) };
      const parsed = (requestSchema(name, new Date()) as ZodType).parse(query);
      const scope = typeof needs.scope === 'function' ? needs.scope(parsed) : needs.scope;
      return { path: route.path, status: answer.status, code: answer.body?.code, scope };
    }),
  );
  for (const { path, status, code, scope } of answers) {
    const locked = scope !== undefined && isTierLocked(tier, scope);
    expect({ path, status, code: locked ? code : undefined }).toEqual({
      path,
      status: locked ? 403 : 200,
      code: locked ? 'tier_lock' : undefined,
    });
  }
}

describe('ten calls at once', () => {
  it(`add at most one case to a plan of ${MAX_CASES - 1}`, async () => {
    const { token } = await owner('team');
    const planId = await newPlan(token);
    for (let i = (await caseIds(planId)).length; i < MAX_CASES - 1; i++) {
      const body = { business_plan_id: planId, case_name: `Case ${i}`, case_rate: 1 };
      expect((await api.call('POST', '/case/create', { token, body })).status).toBe(200);
    }
    const answers = await Promise.all(
      times(PARALLEL, (i) =>
        api.call('POST', '/case/create', {
          token,
          body: { business_plan_id: planId, case_name: `Race ${i}`, case_rate: 1.1 },
        }),
      ),
    );
    expectOutcome(answers, 200, 1, (refused) => {
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'limit',
        limit: { name: 'cases', max: MAX_CASES, value: MAX_CASES + 1 },
      });
    });
    expect(await count('cases', { plan_id: planId })).toBe(MAX_CASES);
    const positions = await api.db('cases').where({ plan_id: planId }).pluck('position');
    expect(new Set(positions).size).toBe(MAX_CASES);
    await expectScreensAnswer(token, planId, 'team');
  });

  it('leave one case when both cases of a plan are deleted at once', async () => {
    const { token } = await owner('team');
    const planId = await newPlan(token);
    const body = { business_plan_id: planId, case_name: 'Second', case_rate: 1.2 };
    expect((await api.call('POST', '/case/create', { token, body })).status).toBe(200);
    const [first, second] = await caseIds(planId);
    const answers = await Promise.all(
      times(PARALLEL, (i) =>
        api.call('POST', '/case/delete', {
          token,
          body: { business_plan_id: planId, case_id: i % 2 === 0 ? first : second },
        }),
      ),
    );
    expectOutcome(answers, 200, 1, (refused) => {
      // The deleted case is gone (404); the other is the last case (400).
      expect([400, 404]).toContain(refused.status);
      expect(refused.body.code).toBe(refused.status === 400 ? 'invalid' : 'not_found');
    });
    expect(await count('cases', { plan_id: planId })).toBe(1);
    await expectScreensAnswer(token, planId, 'team');
  });

  for (const tier of ['free', 'basic', 'team'] as const) {
    it(`create at most the ${tier} tier's plans`, async () => {
      const { token, user } = await owner(tier);
      const max = ownedPlanLimit(tier);
      const answers = await Promise.all(
        times(PARALLEL, (i) =>
          api.call('POST', '/business-plan/create', { token, form: planForm({ business_plan_name: `Plan ${i}` }) }),
        ),
      );
      expectOutcome(answers, 201, max, (refused) => {
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({
          code: 'tier_lock',
          limit: { name: 'owned_plans', max, value: max + 1 },
        });
      });
      expect(await count('business_plans', { owner_id: user.id })).toBe(max);
      for (const answer of answers.filter((a) => a.status === 201)) {
        expect(await count('cases', { plan_id: answer.body.data.business_plan_id })).toBe(1);
        await expectScreensAnswer(token, answer.body.data.business_plan_id, tier);
      }
    });
  }

  it('import and create at most the tier allows, together', async () => {
    const { token, user } = await owner('team');
    const source = await newPlan(token);
    const file = await api.call('GET', '/business-plan/file', { token, query: { business_plan_id: source } });
    expect(file.status).toBe(200);
    const answers = await Promise.all(
      times(PARALLEL, (i) =>
        i % 2 === 0
          ? api.call('POST', '/business-plan/import', { token, body: { plan: file.body.data.plan } })
          : api.call('POST', '/business-plan/create', { token, form: planForm() }),
      ),
    );
    const max = ownedPlanLimit('team');
    expectOutcome(answers, 201, max - 1, (refused) => {
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'tier_lock', limit: { name: 'owned_plans', max, value: max + 1 } });
    });
    expect(await count('business_plans', { owner_id: user.id })).toBe(max);
    for (const answer of answers.filter((a) => a.status === 201)) {
      await expectScreensAnswer(token, answer.body.data.business_plan_id, 'team');
    }
  });

  it("invite at most the Team tier's editors", async () => {
    const { token } = await owner('team');
    const planId = await newPlan(token);
    const max = editorLimit('team');
    const answers = await Promise.all(
      times(PARALLEL, (i) =>
        api.call('POST', '/authority/add', {
          token,
          body: { business_plan_id: planId, email: `editor-${emails}-${i}@example.com`, ...rolesAt('can_edit') },
        }),
      ),
    );
    expectOutcome(answers, 200, max, (refused) => {
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'limit', limit: { name: 'editors', max, value: max + 1 } });
    });
    expect(await count('plan_members', { plan_id: planId })).toBe(max);
    await expectScreensAnswer(token, planId, 'team');
  });

  it('invite one e-mail address once', async () => {
    const { token } = await owner('team');
    const planId = await newPlan(token);
    const email = `twice-${emails}@example.com`;
    const answers = await Promise.all(
      times(PARALLEL, () =>
        api.call('POST', '/authority/add', {
          token,
          body: { business_plan_id: planId, email, ...rolesAt('can_view') },
        }),
      ),
    );
    expectOutcome(answers, 200, 1, (refused) => {
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('conflict');
    });
    expect(await count('plan_members', { plan_id: planId })).toBe(1);
  });

  it('promote at most the editor limit of view-only members to can_edit', async () => {
    const { token } = await owner('team');
    const planId = await newPlan(token);
    const viewers = times(PARALLEL, (i) => `viewer-${emails}-${i}@example.com`);
    for (const email of viewers) {
      const body = { business_plan_id: planId, email, ...rolesAt('can_view') };
      expect((await api.call('POST', '/authority/add', { token, body })).status).toBe(200);
    }
    const max = editorLimit('team');
    const answers = await Promise.all(
      viewers.map((email) =>
        api.call('POST', '/authority/edit', {
          token,
          body: { business_plan_id: planId, email, ...rolesAt('can_view'), pl: 'can_edit' },
        }),
      ),
    );
    expectOutcome(answers, 200, max, (refused) => {
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'limit', limit: { name: 'editors', max, value: max + 1 } });
    });
    const members = await api.db('plan_members').where({ plan_id: planId });
    expect(members.filter((m) => hasEdit(rolesOf(m)))).toHaveLength(max);
    const list = await api.call('GET', '/authority/retrieve', { token, query: { business_plan_id: planId } });
    expect(list.body.data.editor_count).toBe(max);
    await expectScreensAnswer(token, planId, 'team');
  });

  it('keep every write to a plan, each once, in the order they commit', async () => {
    const { token } = await owner('team');
    const planId = await newPlan(token);
    const body = { business_plan_id: planId, case_name: 'Second', case_rate: 1.2 };
    expect((await api.call('POST', '/case/create', { token, body })).status).toBe(200);
    const [first, second] = await caseIds(planId);
    // Warm the workbook, so that the writes are followed as edits rather than rebuilt.
    await expectScreensAnswer(token, planId, 'team');
    const { version: before } = await api.db('business_plans').where({ id: planId }).first('version');
    const plan = { business_plan_id: planId };
    const writes: [string, Record<string, unknown>][] = [
      ['/case/edit', { case_id: first, year: 1, key: 'sm_rate', value: 0.3 }],
      ['/case/edit', { case_id: first, year: 2, key: 'churn_rate', value: 0.02 }],
      ['/casename/edit', { case_id: first, case_name: 'Renamed' }],
      ['/model/edit', { case_id: first, model: { name: 'okta' } }],
      ['/pl/monthly/cashflow/edit', { case_id: first, year: 1, month: 5, equity_raised: 1_000_000 }],
      ['/pl/monthly/edit', { year: 1, month: 1, order: 3, churn: 1 }],
      ['/pl/monthly/comment/edit', { case_id: first, year: 1, column_name: 2, section: 'estimate', content: 'x' }],
      ['/home/edit', { kpi_title: 'meeting', value: 4, date: '2026-04-02' }],
      ['/pl/color', { colors: [{ arr: '#111111', pl: '#222222', gross_profit: '#333333' }] }],
      ['/business-plan/theme-color', { theme_color: 'black' }],
      ['/case/delete', { case_id: second }],
      ['/case/edit', { case_id: second, year: 1, key: 'sm_rate', value: 0.2 }],
      ['/authority/add', { email: `member-${emails}@example.com`, ...rolesAt('can_view') }],
    ];
    const answers = await Promise.all(
      writes.map(([path, fields]) => api.call('POST', path, { token, body: { ...plan, ...fields } })),
    );
    const done = (answer: Answer) => answer.status === 200 || answer.status === 201;
    const failed = answers
      .map((a, i) => [writes[i]?.[0], a.status, a.body?.code])
      .filter((_, i) => !done(answers[i] as Answer));
    // The one write to the deleted case may run before or after the delete.
    expect(failed.filter(([path, status]) => !(path === '/case/edit' && status === 404))).toEqual([]);
    const ok = answers.filter(done).length;
    const { version: after } = await api.db('business_plans').where({ id: planId }).first('version');
    expect(Number(after) - Number(before)).toBe(ok);
    await expectScreensAnswer(token, planId, 'team');
    // What the warm workbook followed is what a build from the database gives.
    const warm = await Promise.all(screenTexts(token, planId, first));
    api.workbooks.drop(planId);
    expect(await Promise.all(screenTexts(token, planId, first))).toEqual(warm);
  });
});

describe('a plan deleted while it is written to', () => {
  it('answers every write with success or 404, and leaves nothing of the plan', async () => {
    const { token } = await owner('team');
    for (let round = 0; round < 3; round++) {
      const planId = await newPlan(token);
      const body = { business_plan_id: planId, case_name: 'Second', case_rate: 1.2 };
      expect((await api.call('POST', '/case/create', { token, body })).status).toBe(200);
      const [first, second] = await caseIds(planId);
      const writes = allWrites(planId, first ?? 0, second ?? 0);
      const answers = await Promise.all([
        ...writes.slice(0, 6).map(([path, fields]) => api.call('POST', path, { token, body: fields })),
        api.call('POST', '/business-plan/delete', { token, body: { business_plan_id: planId } }),
        ...writes.slice(6).map(([path, fields]) => api.call('POST', path, { token, body: fields })),
      ]);
      const unexpected = answers
        .map((a, i) => ({ status: a.status, code: a.body?.code, i }))
        .filter((a) => a.status !== 200 && a.status !== 201 && a.status !== 404);
      expect(unexpected).toEqual([]);
      expect(await count('business_plans', { id: planId })).toBe(0);
      expect(await count('cases', { plan_id: planId })).toBe(0);
      expect(await count('plan_members', { plan_id: planId })).toBe(0);
      expect(await count('daily_entries', { plan_id: planId })).toBe(0);
      const read = await api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: planId } });
      expect(read.status).toBe(404);
    }
  });
});

/** One of each write to a plan's inputs, none of them refused on its own. */
function allWrites(planId: number, first: number, second: number): [string, Record<string, unknown>][] {
  const plan = { business_plan_id: planId };
  const writes: [string, Record<string, unknown>][] = [
    ['/case/edit', { case_id: first, year: 1, key: 'sm_rate', value: 0.3 }],
    ['/revenue/edit', { case_id: first, year: 1, value: 0.5 }],
    ['/casename/edit', { case_id: second, case_name: 'Renamed' }],
    ['/model/edit', { case_id: first, model: { name: 'okta' } }],
    ['/pl/monthly/cashflow/edit', { case_id: first, year: 1, month: 5, equity_raised: 1_000_000 }],
    ['/pl/monthly/edit', { year: 1, month: 1, order: 3, churn: 1 }],
    ['/pl/monthly/comment/edit', { case_id: first, year: 1, column_name: 2, section: 'estimate', content: 'x' }],
    ['/home/edit', { kpi_title: 'meeting', value: 4, date: '2026-04-02' }],
    ['/pl/color', { colors: [{ arr: '#111111', pl: '#222222', gross_profit: '#333333' }] }],
    ['/business-plan/theme-color', { theme_color: 'black' }],
    ['/authority/add', { email: `member-${planId}@example.com`, ...rolesAt('can_view') }],
    ['/case/create', { case_name: 'Third', case_rate: 0.8 }],
    ['/case/delete', { case_id: second }],
  ];
  return writes.map(([path, fields]) => [path, { ...plan, ...fields }]);
}

function screenTexts(token: string, planId: number, caseId: number | undefined): Promise<string>[] {
  const paths = ['/pl/retrieve', '/kpi/retrieve', '/pl/monthly/retrieve', '/actuals/retrieve', '/home/retrieve'];
  return paths.map(async (path) => {
    const answer = await api.call('GET', path, { token, query: { business_plan_id: planId, case_id: caseId ?? 0 } });
    expect(answer.status).toBe(200);
    return answer.text;
  });
}
