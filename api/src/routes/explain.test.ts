import { AREAS, type Area, type Level } from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExplainedInput, type ExplainPlan, explainPlan } from '../testing/explainPlan';

let api: ExplainPlan['api'];
let owner: string;
let planId: number;
let caseId: number;
let explain: ExplainPlan['explain'];

// Start 2026-04; target ARR 100,000,000 JPY in 12 months, ARPA 50,000 (planForm's defaults); today 2026-06-15.
beforeAll(async () => {
  ({ api, owner, planId, caseId, explain } = await explainPlan());
});
afterAll(async () => {
  await api.close();
});

type Input = ExplainedInput;

describe('GET /explain', () => {
  it('explains revenue of a planned month by its formula and inputs, which add up', async () => {
    const answer = await explain({ case_id: caseId, year: 1, period: '3', key: 'revenue' });
    expect(answer.status).toBe(200);
    const { label, value, formula, inputs } = answer.body as {
      label: string;
      value: number;
      formula: string;
      inputs: Input[];
    };
    expect(label).toBe('Revenue');
    expect(formula).toBe('Revenue = MRR + Professional services');
    // MRR ramps to 100,000,000 / 12 over 12 months: month 3 is 100,000,000 / 12 x 3 / 12 = 2,083,333.33; recurring
    // revenue is 100% of revenue, so professional services are 0.
    expect(value).toBeCloseTo(2_083_333.333333, 4);
    expect(inputs.map((i) => [i.key, i.year, i.period, i.source, i.explainable])).toEqual([
      ['mrr', 1, '3', 'formula', true],
      ['professional_service', 1, '3', 'formula', true],
    ]);
    expect((inputs[0]?.value ?? 0) + (inputs[1]?.value ?? 0)).toBeCloseTo(value, 6);
    const ja = await explain({ year: 1, period: '3', key: 'revenue', lang: 'ja' });
    expect(ja.body.formula).toBe('売上高 = MRR + プロフェッショナルサービス');
  });

  it('leads from a figure down to the stored assumptions', async () => {
    const mrr = await explain({ year: 1, period: '3', key: 'mrr' });
    const target = (mrr.body.inputs as Input[]).find((i) => i.key === 'assumption.arr' && i.year === 1);
    expect(target).toMatchObject({ source: 'default', explainable: true, value: 100_000_000 });
    const arr = await explain({ year: 1, period: 'cy', key: 'assumption.arr' });
    expect(arr.status).toBe(200);
    // T_1 = A x r = 100,000,000 x 1.
    expect(arr.body.inputs).toEqual([
      expect.objectContaining({ key: 'plan.target_arr', source: 'assumption', value: 100_000_000, explainable: false }),
      expect.objectContaining({ key: 'assumption.case_rate', source: 'assumption', value: 1, explainable: false }),
    ]);
    // A stored assumption is a leaf named as such.
    await api.call('POST', '/case/edit', {
      token: owner,
      body: { business_plan_id: planId, case_id: caseId, year: 1, key: 'cogs_rate', value: 0.25 },
    });
    const cogs = await explain({ year: 1, period: '3', key: 'cogs' });
    expect(cogs.body.formula).toBe('COGS = Revenue × COGS / revenue');
    expect(cogs.body.inputs[1]).toMatchObject({ key: 'assumption.cogs_rate', source: 'assumption', value: 0.25 });
    // 2,083,333.33 x 25%
    expect(cogs.body.value).toBeCloseTo(520_833.333333, 4);
  });

  it('names the whole number the monthly grid shows for a count, beside its computed value', async () => {
    // Customers are MRR / ARPA: 694,444.44 / 50,000 = 13.889 in month 1, 27.778 in month 2, 41.667 in month 3, with
    // 2 % of the month's opening customers churning from month 2. New customers: 13.889, 27.778 - 13.889 + 0.278 =
    // 14.167 and 41.667 - 27.778 + 0.556 = 14.444; running totals 13.889, 28.056 and 42.5. The grid shows the steps of
    // the rounded running total (half up): 14, 28 - 14 = 14, 43 - 28 = 15, and the quarter their sum, 43.
    const orders = await Promise.all(['1', '2', '3', 'q1'].map((period) => explain({ year: 1, period, key: 'order' })));
    expect(orders.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(orders.map((a) => a.body.value)).toEqual([
      expect.closeTo(13.888889, 5),
      expect.closeTo(14.166667, 5),
      expect.closeTo(14.444444, 5),
      expect.closeTo(42.5, 9),
    ]);
    expect(orders.map((a) => a.body.shown)).toEqual([14, 14, 15, 43]);
    const grid = await api.call('GET', '/pl/monthly/retrieve', {
      token: owner,
      query: { business_plan_id: planId, year: 1 },
    });
    const { monthly, quarterly } = grid.body.data.monthly_pl[0].estimate as Record<string, { order: number }[]>;
    expect([...(monthly ?? []).slice(0, 3), quarterly?.[0]].map((record) => record?.order)).toEqual([14, 14, 15, 43]);
    // Money is shown as computed: no `shown`.
    expect((await explain({ year: 1, period: '3', key: 'revenue' })).body).not.toHaveProperty('shown');
  });

  it('answers the annual P&L by its own field names', async () => {
    const answer = await explain({ year: 1, period: 'cy', key: 'operating_pl' });
    expect(answer.status).toBe(200);
    expect(answer.body.label).toBe('Operating income');
    const quarters = answer.body.inputs as Input[];
    expect(quarters.map((i) => i.period)).toEqual(['q1', 'q2', 'q3', 'q4']);
    expect(quarters.reduce((s, i) => s + (i.value ?? 0), 0)).toBeCloseTo(answer.body.value, 4);
  });

  it('refuses a figure the plan does not have and a period that does not exist', async () => {
    expect((await explain({ year: 1, period: '3', key: 'registration' })).status).toBe(400);
    expect((await explain({ year: 1, period: '3', key: 'nonsense' })).status).toBe(400);
    expect((await explain({ year: 1, period: '13', key: 'revenue' })).status).toBe(400);
    expect((await explain({ year: 7, period: 'cy', key: 'revenue' })).status).toBe(400);
    expect((await explain({ case_id: 999_999, year: 1, period: 'cy', key: 'revenue' })).status).toBe(404);
  });

  it("lets the key's area decide who may ask, and offers only the inputs the caller may open", async () => {
    const member = async (email: string, roles: Partial<Record<Area, Level>>) => {
      const all = Object.fromEntries(AREAS.map((a) => [a, roles[a] ?? 'no_access']));
      await api.db('plan_members').insert({ plan_id: planId, email, status: 'yet', ...all });
      return (await api.user(email, 'free')).token;
    };
    const monthly = await member('explain-monthly@example.com', { monthly_pl: 'can_view' });
    const revenue = await explain({ year: 1, period: '3', key: 'revenue' }, monthly);
    expect(revenue.status).toBe(403);
    expect(revenue.body.code).toBe('no_access');
    expect((await explain({ year: 1, period: '3', key: 'ending_cash_balance' }, monthly)).status).toBe(200);
    expect((await explain({ year: 1, period: '3', key: 'mrr' }, monthly)).status).toBe(403);
    expect((await explain({ year: 1, period: 'cy', key: 'assumption.churn_rate' }, monthly)).status).toBe(403);

    const pl = await member('explain-pl@example.com', { pl: 'can_view' });
    const allowed = await explain({ year: 1, period: '3', key: 'revenue' }, pl);
    expect(allowed.status).toBe(200);
    // MRR is a KPI figure and professional services the sales detail's: shown, but not open to this member.
    expect((allowed.body.inputs as Input[]).map((i) => i.explainable)).toEqual([false, false]);
    expect((await explain({ year: 1, period: '3', key: 'sm' }, pl)).status).toBe(403);

    const sm = await member('explain-sm@example.com', { sm: 'can_view' });
    expect((await explain({ year: 1, period: 'cy', key: 'sm' }, sm)).status).toBe(200);
    expect((await explain({ year: 1, period: 'cy', key: 'cogs' }, sm)).status).toBe(403);
  });
});
