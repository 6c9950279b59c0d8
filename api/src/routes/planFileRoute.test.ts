import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, startTestApi, type TestApi } from '../testing/harness';

let api: TestApi;
let ownerToken: string;
let planId: number;

const ALL_VIEW = {
  pl: 'can_view',
  monthly_pl: 'can_view',
  kpi: 'can_view',
  sales_detail: 'can_view',
  cogs: 'can_view',
  sm: 'can_view',
  rd: 'can_view',
  ga: 'can_view',
  dashboard: 'can_view',
  actuals: 'can_view',
};

beforeAll(async () => {
  api = await startTestApi();
  ({ token: ownerToken } = await api.user('file-owner@example.com', 'team'));
  const created = await api.call('POST', '/business-plan/create', {
    token: ownerToken,
    form: planForm({ business_plan_name: 'File plan' }),
  });
  planId = created.body.data.business_plan_id;
  const add = (email: string, roles: Record<string, string>) =>
    api.call('POST', '/authority/add', { token: ownerToken, body: { business_plan_id: planId, email, ...roles } });
  await add('viewer@example.com', ALL_VIEW);
  await add('partial@example.com', { ...ALL_VIEW, cogs: 'no_access' });
});
afterAll(async () => {
  await api.close();
});

const read = (token: string) => api.call('GET', '/business-plan/file', { token, query: { business_plan_id: planId } });

describe('GET /business-plan/file', () => {
  it('gives the owner the plan file with its version and case ids', async () => {
    const answer = await read(ownerToken);
    expect(answer.status).toBe(200);
    const { plan, version, case_ids } = answer.body.data;
    expect(plan).toMatchObject({ business_plan_name: 'File plan', template: 'saas', arr: 100_000_000, arpa: 50_000 });
    expect(plan.cases).toHaveLength(1);
    expect(typeof version).toBe('number');
    expect(case_ids).toHaveLength(1);
  });

  it('gives it to a member who may see every area', async () => {
    const { token } = await api.user('viewer@example.com', 'free');
    expect((await read(token)).status).toBe(200);
  });

  it('refuses a member with any area at no_access, and hides the plan from strangers', async () => {
    const { token } = await api.user('partial@example.com', 'free');
    const refused = await read(token);
    expect(refused.status).toBe(403);
    expect(refused.body.plan).toBeUndefined();
    const stranger = await api.user('stranger-file@example.com', 'team');
    expect((await read(stranger.token)).status).toBe(404);
  });
});
