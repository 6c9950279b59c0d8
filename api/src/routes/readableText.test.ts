import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costItem, createPlan, planForm, startTestApi, type TestApi } from '../testing/harness';

/**
 * Names and short texts are text a person can read (`singleLineText` of the contract): a write holding a control
 * character, a bidi control, stacked marks or nothing visible is refused by field and changes nothing; what is taken
 * is stored NFC-normalised.
 */
let api: TestApi;
let token: string;
let userId: number;
let planId: number;
let caseId: number;

beforeAll(async () => {
  api = await startTestApi();
  const made = await api.user('readable@example.com', 'team');
  token = made.token;
  userId = made.user.id;
  ({ planId, caseId } = await createPlan(api, token));
});
afterAll(async () => {
  await api.close();
});

const BAD: [string, RegExp][] = [
  ['\u200b\u200b\u200b', /must hold a visible character/],
  ['Plan\r\nB', /line breaks/],
  ['Plan\tB', /tabs/],
  ['Budget\u202Egnp.exe', /direction of text/],
  [`Z${'\u0336'.repeat(49)}`, /more than 4 marks/],
];

const caseNames = async () => (await api.db('cases').where({ plan_id: planId }).orderBy('id')).map((c) => c.name);

describe('readable text over HTTP', () => {
  it('refuses a case name by field and leaves the case as it was', async () => {
    const before = await caseNames();
    for (const [name, expected] of BAD) {
      const renamed = await api.call('POST', '/casename/edit', {
        token,
        body: { business_plan_id: planId, case_id: caseId, case_name: name },
      });
      expect(renamed.status).toBe(400);
      expect(renamed.body.errors.case_name).toMatch(expected);
      const created = await api.call('POST', '/case/create', {
        token,
        body: { business_plan_id: planId, case_name: name, case_rate: 1 },
      });
      expect(created.status).toBe(400);
      expect(created.body.errors.case_name).toMatch(expected);
    }
    expect(await caseNames()).toEqual(before);
  });

  it('refuses a profile name, a to-do, a cost item name and a plan name the same way', async () => {
    const [name, expected] = BAD[3] ?? ['', /./];
    const user = await api.db('users').where({ id: userId }).first();
    const profile = await api.call('POST', '/user/edit', {
      token,
      body: { name, company_name: 'Topline' },
    });
    expect(profile.status).toBe(400);
    expect(profile.body.errors.name).toMatch(expected);
    expect(await api.db('users').where({ id: userId }).first()).toEqual(user);

    const todo = await api.call('POST', '/todos/create', { token, body: { business_plan_id: planId, text: name } });
    expect(todo.status).toBe(400);
    expect(todo.body.errors.text).toMatch(expected);
    expect(await api.db('plan_todos').where({ plan_id: planId })).toHaveLength(0);

    const cost = await api.call('POST', '/cost/create', {
      token,
      body: { business_plan_id: planId, case_id: caseId, ...costItem({ item_name: 'Ads\nline two' }) },
    });
    expect(cost.status).toBe(400);
    expect(cost.body.errors.item_name).toMatch(/line breaks/);
    expect(await api.db('cost_items').where({ case_id: caseId })).toHaveLength(0);

    const plans = await api.db('business_plans').count({ n: '*' }).first();
    const plan = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({ business_plan_name: '\u2060\ufeff' }),
    });
    expect(plan.status).toBe(400);
    expect(plan.body.errors.business_plan_name).toMatch(/visible character/);
    expect(await api.db('business_plans').count({ n: '*' }).first()).toEqual(plans);
  });

  it('stores a name NFC-normalised, and emoji sequences and Japanese as typed', async () => {
    const renamed = await api.call('POST', '/casename/edit', {
      token,
      body: { business_plan_id: planId, case_id: caseId, case_name: 'Cafe\u0301 👩‍💻 計画' },
    });
    expect(renamed.status).toBe(200);
    expect(await api.db('cases').where({ id: caseId }).first()).toMatchObject({ name: 'Caf\u00e9 👩‍💻 計画' });
    const todo = await api.call('POST', '/todos/create', {
      token,
      body: { business_plan_id: planId, text: '山田さんに電話 📞' },
    });
    expect(todo.status).toBe(201);
    expect(todo.body.data.todo.text).toBe('山田さんに電話 📞');
  });

  it('holds a plan file to the same rule on import, by where the text is', async () => {
    const file = () =>
      JSON.parse(readFileSync(new URL('../../../fixtures/plans/three-cases.json', import.meta.url), 'utf8'));
    const plans = await api.db('business_plans').count({ n: '*' }).first();
    const reversed = file();
    reversed.cases[1].case_name = 'Ideal\u202Eesac';
    reversed.cases[0].cost_items = [{ ...costItem({ item_name: '\u200b' }) }];
    const refused = await api.call('POST', '/business-plan/import', { token, body: { plan: reversed } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({
      'cases.1.case_name': 'cases.1.case_name may not hold characters that change the direction of text',
      'cases.0.cost_items.0.item_name': 'cases.0.cost_items.0.item_name must hold a visible character',
    });
    expect(await api.db('business_plans').count({ n: '*' }).first()).toEqual(plans);

    const decomposed = file();
    decomposed.business_plan_name = 'Cafe\u0301 plan';
    decomposed.cases[0].comments = [{ year: 1, column_name: 1, section: 'estimate', content: 'Line one\nline two' }];
    const imported = await api.call('POST', '/business-plan/import', { token, body: { plan: decomposed } });
    expect(imported.status).toBe(201);
    const stored = await api.db('business_plans').where({ id: imported.body.data.business_plan_id }).first();
    expect(stored.name).toBe('Caf\u00e9 plan');
  });
});
