import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlan, planForm, startTestApi, type TestApi } from '../testing/harness';

/** Each refusal names the real problem of its field (product-and-account.md section 5's message catalogue). */
let api: TestApi;
let token: string;
let planId: number;
let caseId: number;

beforeAll(async () => {
  api = await startTestApi();
  ({ token } = await api.user('messages@example.com', 'team'));
  ({ planId, caseId } = await createPlan(api, token));
});

afterAll(async () => {
  await api?.close();
});

describe('field messages', () => {
  it('says a period of 13 is out of its range, not that it is not a number', async () => {
    const answer = await api.call('POST', '/business-plan/create', { token, form: planForm({ period: '13' }) });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.period).toBe('period must be a whole number from 1 to 12');
  });

  it('says a case rate of 123.5 is above its bound', async () => {
    const body = { business_plan_id: planId, case_id: caseId, year: 1, key: 'case_rate', value: 123.5 };
    const answer = await api.call('POST', '/case/edit', { token, body });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.value).toBe('case_rate must be a number above 0 and at most 99.99');
    const created = await api.call('POST', '/case/create', {
      token,
      body: { business_plan_id: planId, case_name: 'Ideal', case_rate: 123.5 },
    });
    expect(created.body.errors.case_rate).toBe('case_rate must be a number above 0 and at most 99.99');
  });

  it('says a business plan id of abc is not an id, not that it is missing', async () => {
    const answer = await api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: 'abc' } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.business_plan_id).toBe('business_plan_id must be a whole number from 1 to 2147483647');
    const missing = await api.call('GET', '/pl/retrieve', { token });
    expect(missing.body.errors.business_plan_id).toBe('business_plan_id is required');
  });

  it('answers one field message as the message of the refusal', async () => {
    const body = { business_plan_id: planId, case_id: caseId, year: 1, month: 1, meeting: -1 };
    const answer = await api.call('POST', '/pl/monthly/edit', { token, body });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('meeting must be a whole number from 0 to 1000000000');
  });

  it('refuses numbers that would break the plan, and keeps every screen open', async () => {
    const post = (path: string, body: Record<string, unknown>) =>
      api.call('POST', path, { token, body: { business_plan_id: planId, ...body } });
    const arr = await post('/case/edit', { case_id: caseId, year: 2, key: 'arr', value: 1e307 });
    expect(arr.status).toBe(400);
    expect(arr.body.errors.value).toMatch(/out of range for arr/);
    const daily = await post('/home/edit', { kpi_title: 'order', value: 1e307 });
    expect(daily.body.errors.value).toBe('value must be a whole number from 0 to 1000000000');
    const equity = await post('/pl/monthly/cashflow/edit', {
      case_id: caseId,
      year: 1,
      month: 3,
      equity_raised: 1e308,
    });
    expect(equity.status).toBe(400);
    expect(equity.body.errors.equity_raised).toMatch(/at most 1000000000000/);
    for (const path of ['/pl/retrieve', '/dashboard/retrieve', '/pl/monthly/retrieve']) {
      expect((await api.call('GET', path, { token, query: { business_plan_id: planId } })).status).toBe(200);
    }
  });

  it('refuses a plan file with a second memo for one cell, or a name that cannot be stored, by field', async () => {
    const file = (await api.call('GET', '/business-plan/file', { token, query: { business_plan_id: planId } })).body
      .data.plan;
    const memo = { year: 1, column_name: 2, section: 'actual', content: 'first' };
    const twice = { ...file, cases: [{ ...file.cases[0], comments: [memo, { ...memo, content: 'second' }] }] };
    const duplicate = await api.call('POST', '/business-plan/import', { token, body: { plan: twice } });
    expect(duplicate.status).toBe(400);
    expect(Object.keys(duplicate.body.errors)).toEqual(['cases.0.comments.1']);
    const nul = { ...file, cases: [{ ...file.cases[0], case_name: 'Base\u0000' }] };
    const refused = await api.call('POST', '/business-plan/import', { token, body: { plan: nul } });
    expect(refused.status).toBe(400);
    // NUL cannot be stored, and is a control character a name may not hold: either refusal names the field.
    expect(refused.body.errors['cases.0.case_name']).toMatch(/cannot be stored|control characters/);
  });
});
