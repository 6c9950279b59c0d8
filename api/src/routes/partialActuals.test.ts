/**
 * A month of actuals with some values entered (engine/DECISIONS.md, "Missing actual values"): only the entered values are
 * stored, and the others read as the month's forecast, never 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlan, startTestApi, type TestApi } from '../testing/harness';

let api: TestApi;
let token: string;
let planId: number;
let caseId: number;

beforeAll(async () => {
  api = await startTestApi({ now: () => new Date('2026-06-15T09:00:00Z') });
  ({ token } = await api.user('partial-actuals@example.com', 'team'));
  // Target ARR 100,000,000 reached in 12 months, ARPA 50,000, from April 2026.
  ({ planId, caseId } = await createPlan(api, token));
});
afterAll(async () => {
  await api.close();
});

/** The answer's records round counts to whole numbers and money to the currency's unit (0 decimals for JPY). */
const close = (actual: unknown, expected: number) =>
  expect(Math.abs(Number(actual) - expected)).toBeLessThanOrEqual(0.5);

describe('a month of actuals with only ARPA entered', () => {
  it('stores ARPA alone and reads sessions, meetings, new customers and costs from the forecast', async () => {
    const saved = await api.call('POST', '/pl/monthly/edit', {
      token,
      body: { business_plan_id: planId, year: 1, month: 1, arpa: 12_000 },
    });
    expect(saved.status).toBe(200);
    const rows = await api.db('monthly_inputs').where({ case_id: caseId, month: 1, layer: 'actual' });
    expect(rows.map((r) => [r.key, Number(r.value)])).toEqual([['arpa', 12_000]]);

    const answer = await api.call('GET', '/pl/monthly/retrieve', {
      token,
      query: { business_plan_id: planId, case_id: caseId, year: 1 },
    });
    expect(answer.status).toBe(200);
    const year = answer.body.data.monthly_pl.find((y: { year: number }) => y.year === 1);
    const actual = year.actual.monthly[0];
    expect(actual.status).toBe('ACT');
    // Month 1 of the estimate: MRR 100,000,000 / 12 x 1/12 = 694,444.44; customers / 50,000 = 125/9 = 13.889, all new;
    // meetings / 27% = 51.44; leads / 36% = 142.89; sessions / 7% = 2,041.3; COGS 30% of revenue = 208,333.33.
    const newCustomers = 125 / 9;
    // Shown whole: 14 new customers, 51 meetings, 143 leads, 2,041 sessions (never 0).
    expect([actual.order, actual.meeting, actual.lead, actual.session]).toEqual([14, 51, 143, 2041]);
    close(actual.order, newCustomers);
    close(actual.meeting, newCustomers / 0.27);
    close(actual.lead, newCustomers / 0.27 / 0.36);
    close(actual.session, newCustomers / 0.27 / 0.36 / 0.07);
    close(actual.churn, 0);
    close(actual.cogs, 694_444.444444 * 0.3);
    // The entered ARPA counts: MRR = 125/9 customers x 12,000 = 166,666.67.
    close(actual.arpa, 12_000);
    close(actual.mrr, newCustomers * 12_000);
  });

  it('clears an entered value back to the forecast, storing nothing for it', async () => {
    const entered = await api.call('POST', '/pl/monthly/edit', {
      token,
      body: { business_plan_id: planId, year: 1, month: 1, meeting: 40 },
    });
    expect(entered.status).toBe(200);
    const cleared = await api.call('POST', '/pl/monthly/edit', {
      token,
      body: { business_plan_id: planId, year: 1, month: 1, meeting: null },
    });
    expect(cleared.status).toBe(200);
    const rows = await api.db('monthly_inputs').where({ case_id: caseId, month: 1, layer: 'actual' });
    expect(rows.map((r) => r.key)).toEqual(['arpa']);
    const answer = await api.call('GET', '/pl/monthly/retrieve', {
      token,
      query: { business_plan_id: planId, case_id: caseId, year: 1 },
    });
    const year = answer.body.data.monthly_pl.find((y: { year: number }) => y.year === 1);
    close(year.actual.monthly[0].meeting, 125 / 9 / 0.27);
  });
});

describe('a month of actuals saved for every case at once', () => {
  it('stores each entered value and clears each null for every case, as one change in two statements', async () => {
    const plan = await createPlan(api, token, { business_plan_name: 'Every case' });
    const created = await api.call('POST', '/case/create', {
      token,
      body: { business_plan_id: plan.planId, case_name: 'Upside', case_rate: 1.2 },
    });
    expect(created.status).toBe(200);
    const caseIds = (await api.db('cases').where({ plan_id: plan.planId }).orderBy('position')).map((c) =>
      Number(c.id),
    );
    expect(caseIds).toHaveLength(2);
    const save = (values: Record<string, number | null>) =>
      api.call('POST', '/pl/monthly/edit', {
        token,
        body: { business_plan_id: plan.planId, year: 1, month: 2, ...values },
      });
    expect((await save({ session: 1_800, lead: 120, meeting: 40, arpa: 11_000 })).status).toBe(200);

    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    api.db.on('query', record);
    const saved = await save({ session: 2_000, lead: null, meeting: 45, order: 12, arpa: null }).finally(() =>
      api.db.off('query', record),
    );
    expect(saved.status).toBe(200);

    const stored = await api
      .db('monthly_inputs')
      .whereIn('case_id', caseIds)
      .andWhere({ month: 2, layer: 'actual' })
      .orderBy(['case_id', 'key']);
    expect(stored.map((r) => [Number(r.case_id), r.key, Number(r.value)])).toEqual(
      caseIds.flatMap((id) => [
        [id, 'meeting', 45],
        [id, 'order', 12],
        [id, 'session', 2_000],
      ]),
    );
    const statuses = await api.db('monthly_status').whereIn('case_id', caseIds).andWhere({ month: 2 });
    expect(statuses.map((s) => s.status)).toEqual(['ACT', 'ACT']);
    // Under the plan's lock: one statement clears, one stores the values, one marks the month ACT, whatever the
    // number of values and cases.
    const writes = statements.filter((sql) => /^(insert|delete|update)/i.test(sql) && !/business_plans/.test(sql));
    expect(writes.map((sql) => sql.split(' ').slice(0, 3).join(' '))).toEqual([
      'delete from "monthly_inputs"',
      'insert into "monthly_inputs"',
      'insert into "monthly_status"',
    ]);

    // One change in the plan's history, holding every row: 2 cleared and 3 stored per case.
    const history = await api.call('GET', '/history', { token, query: { business_plan_id: plan.planId } });
    const change = history.body.data.changes[0];
    expect(change.action).toBe('/pl/monthly/edit');
    const ops = change.items.map((item: { case_id: number; key: string; op: string }) => [
      item.case_id,
      item.key,
      item.op,
    ]);
    expect(ops.sort()).toEqual(
      caseIds
        .flatMap((id) => [
          [id, 'arpa', 'remove'],
          [id, 'lead', 'remove'],
          [id, 'meeting', 'change'],
          [id, 'order', 'add'],
          [id, 'session', 'change'],
        ])
        .sort(),
    );
  });
});
