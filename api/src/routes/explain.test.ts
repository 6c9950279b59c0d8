import { readdirSync, readFileSync } from 'node:fs';
import { AREAS, type Area, type Level } from '@topline/contract';
import { DASHBOARD_COLUMNS, DASHBOARD_SCALARS } from '@topline/engine/src/compile/dashboard';
import { DASHBOARD_METRICS } from '@topline/engine/src/read/dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, startTestApi, type TestApi } from '../testing/harness';

let api: TestApi;
let owner: string;
let planId: number;
let caseId: number;

// Start 2026-04; target ARR 100,000,000 JPY in 12 months, ARPA 50,000 (planForm's defaults).
const today = new Date('2026-06-15T09:00:00Z');

beforeAll(async () => {
  api = await startTestApi({ now: () => today });
  ({ token: owner } = await api.user('explain-owner@example.com', 'team'));
  const created = await api.call('POST', '/business-plan/create', { token: owner, form: planForm() });
  planId = created.body.data.business_plan_id;
  caseId = (await api.db('cases').where({ plan_id: planId }).first()).id;
});
afterAll(async () => {
  await api.close();
});

const explain = (query: Record<string, string | number>, token = owner) =>
  api.call('GET', '/explain', { token, query: { business_plan_id: planId, ...query } });

interface Input {
  label: string;
  key: string;
  year: number | null;
  period: string | null;
  value: number | null;
  source: string;
  explainable: boolean;
}

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

/** How many months a dashboard average covers. */
const WINDOWS = { ave_three_monthes: 3, ave_six_monthes: 6, ave_twelve_monthes: 12 } as const;

interface Answer {
  label: string;
  value: number | null;
  formula: string;
  inputs: (Input & { view?: string })[];
}

const close = (actual: number | null | undefined, expected: number | null | undefined, what: string) => {
  if (expected === null || expected === undefined) expect(actual ?? null, what).toBeNull();
  else expect(actual, what).toBeCloseTo(expected, 6);
};

/** The plans' owner the checks below explain as (each fixture's plan has an owner of its own). */
let asOwner = '';

/** One figure of a plan's case explained by its owner. */
async function explained(plan: number, caseOf: number, query: Record<string, string | number>): Promise<Answer> {
  const answer = await api.call('GET', '/explain', {
    token: asOwner,
    query: { business_plan_id: plan, case_id: caseOf, ...query },
  });
  expect(answer.status, JSON.stringify(query)).toBe(200);
  return answer.body as Answer;
}

/**
 * Every figure the dashboard of a case shows, explained: the same value, and inputs that combine to it (an average
 * of a flow or stock: the mean of the months it covers, the latest ACT month first; the fiscal year achieved: the
 * year's actual so far over the year's plan; the latest value: the latest ACT month; the gauge: as is over goal).
 * Returns how many averages were recombined from their months.
 */
async function checkDashboard(plan: number, caseOf: number): Promise<number> {
  const dashboard = (
    await api.call('GET', '/dashboard/retrieve', { token: asOwner, query: { business_plan_id: plan, case_id: caseOf } })
  ).body.data;
  const latest: number | null = dashboard.latest_actual_month;
  const year = latest === null ? 1 : Math.ceil(latest / 12);
  let averages = 0;
  for (const [name, series] of Object.entries(dashboard.metrics as Record<string, Record<string, number | null>>)) {
    const row = DASHBOARD_METRICS[name] as string;
    for (const column of DASHBOARD_COLUMNS) {
      const key = `dashboard.${column}.${row}`;
      const { value, inputs, formula, label } = await explained(plan, caseOf, { year, period: 'cy', key });
      close(value, series[column], key);
      expect(formula.startsWith(`${label} = `), key).toBe(true);
      if (latest === null) {
        // No ACT month: nothing to average or achieve, and nothing read.
        expect(inputs, key).toEqual([]);
        continue;
      }
      const months = inputs.filter((i) => !i.key.startsWith('dashboard.'));
      const values = inputs.map((i) => i.value ?? 0);
      if (column in WINDOWS && months.length === inputs.length && inputs.length > 0 && row !== 'burn_multiple') {
        const window = Array.from({ length: WINDOWS[column as keyof typeof WINDOWS] }, (_, i) => latest - i);
        expect(
          inputs.map((i) => [i.key, 12 * ((i.year ?? 0) - 1) + Number(i.period), i.view]),
          key,
        ).toEqual(window.filter((t) => t >= 1).map((t) => [row, t, 'actual']));
        close(value, values.reduce((a, b) => a + b, 0) / inputs.length, key);
        averages++;
      } else if (column === 'fiscal_year_achieved' && value !== null) {
        expect(
          inputs.map((i) => [i.key, i.year, i.period, i.view]),
          key,
        ).toEqual([
          [row, year, 'cy', 'actual_to_date'],
          [row, year, 'cy', 'estimate'],
        ]);
        close(value, (values[0] ?? 0) / (values[1] ?? 1), key);
      } else if (column === 'latest_value') {
        expect(
          inputs.map((i) => [i.key, 12 * ((i.year ?? 0) - 1) + Number(i.period), i.view, i.value]),
          key,
        ).toEqual([[row, latest, 'actual', value]]);
      }
    }
  }
  const gauge = dashboard.mrr_progress as Record<string, number | null>;
  const percent = await explained(plan, caseOf, { year, period: 'cy', key: 'dashboard.mrr_progress_percent' });
  close(percent.value, gauge.progress_percent, 'progress');
  const goal = await explained(plan, caseOf, { year, period: 'cy', key: 'dashboard.mrr_goal' });
  close(goal.value, gauge.goal, 'goal');
  // The goal is the plan's MRR at the end of the year of the gauge.
  expect(goal.inputs.map((i) => [i.key, i.year, i.period, i.view, i.value])).toEqual([
    ['mrr', gauge.year, '12', 'estimate', goal.value],
  ]);
  if (latest !== null) {
    const [asIs, goalInput] = percent.inputs;
    expect([asIs?.key, goalInput?.key]).toEqual(['dashboard.mrr_as_is', 'dashboard.mrr_goal']);
    close(asIs?.value, gauge.as_is, 'as is');
    close(percent.value, ((asIs?.value ?? 0) / (goalInput?.value ?? 1)) * 100, 'as is / goal');
  }
  for (const scalar of DASHBOARD_SCALARS)
    await explained(plan, caseOf, { year, period: 'cy', key: `dashboard.${scalar}` });
  return averages;
}

/**
 * Progress and difference of every key of the monthly record in the given periods of a year, explained: the two sides
 * compared, whose values combine to it, and the progress the monthly answer shows. Returns how many were recombined.
 */
async function checkComparison(plan: number, caseOf: number, year: number, periods: string[]): Promise<number> {
  const monthly = (
    await api.call('GET', '/pl/monthly/retrieve', {
      token: asOwner,
      query: { business_plan_id: plan, case_id: caseOf, year },
    })
  ).body.data.monthly_pl.find((y: { year: number }) => y.year === year);
  const shownAt = (period: string): Record<string, number | null> =>
    period === 'cy'
      ? monthly.progress.yearly
      : period.startsWith('q')
        ? monthly.progress.quarterly[Number(period.slice(1)) - 1]
        : monthly.progress.monthly[Number(period) - 1];
  let compared = 0;
  for (const period of periods) {
    const shown = shownAt(period);
    for (const key of Object.keys(shown).filter((k) => !['month', 'status', 'comment'].includes(k))) {
      for (const view of ['progress', 'difference_value', 'difference_rate'] as const) {
        const { value, inputs } = await explained(plan, caseOf, { year, period, key, view });
        const what = `${view} ${key} Y${year} ${period}`;
        if (shown[key] === null && inputs.length === 0) {
          // A period without ACT months (or a figure the comparison leaves out): blank, and nothing read.
          expect(value, what).toBeNull();
          continue;
        }
        expect(
          inputs.map((i) => [i.key, i.year, i.period, i.view]),
          what,
        ).toEqual([
          [key, year, period, 'actual_to_date'],
          [key, year, period, 'estimate_to_date'],
        ]);
        if (view === 'progress') close(value, shown[key], what);
        const [a, e] = inputs.map((i) => i.value);
        if (value === null || a === null || e === null || a === undefined || e === undefined) continue;
        close(value, view === 'progress' ? a / e : view === 'difference_value' ? a - e : a / e - 1, what);
        compared++;
      }
    }
  }
  return compared;
}

describe('GET /explain: the dashboard and the comparison of the ACT months', () => {
  // Actuals of the first three months (April to June 2026, today's month): orders won and a churned customer.
  beforeAll(async () => {
    asOwner = owner;
    for (const [month, order, churn] of [
      [1, 12, 0],
      [2, 9, 1],
      [3, 15, 0],
    ] as const) {
      const saved = await api.call('POST', '/pl/monthly/edit', {
        token: owner,
        body: { business_plan_id: planId, case_id: caseId, year: 1, month, order, churn },
      });
      expect(saved.status).toBe(200);
    }
  });

  it('explains every figure the dashboard shows by the cells it reads, whose values combine to it', async () => {
    expect(await checkDashboard(planId, caseId)).toBeGreaterThan(20);
    const ja = await explain({ year: 1, period: '3', key: 'dashboard.ave_three_monthes.mrr', lang: 'ja' });
    expect(ja.body.label).toBe('MRR（3か月平均）');
  });

  it('explains progress and difference of every key and period by the two sides compared', async () => {
    expect(await checkComparison(planId, caseId, 1, ['1', '2', '3', 'q1', 'q2', 'cy'])).toBeGreaterThan(100);
    // A side compared is explained in turn: the actual of the ACT months of the quarter sums its months.
    const side = (await explain({ year: 1, period: 'q1', key: 'order', view: 'actual_to_date' })).body as Answer;
    expect(side.inputs.map((i) => i.value)).toEqual([12, 9, 15]);
    expect(side.value).toBe(36);
  });

  const fixtures = readdirSync(new URL('../../../fixtures/plans/', import.meta.url)).filter((f) => f.endsWith('.json'));
  it.each(fixtures)(
    'explains the dashboard and the comparison of every case of the fixture %s',
    async (fixture) => {
      const file = JSON.parse(readFileSync(new URL(`../../../fixtures/plans/${fixture}`, import.meta.url), 'utf8'));
      asOwner = (await api.user(`explain-${fixture.replace(/\.json$/, '')}@example.com`, 'team')).token;
      const imported = await api.call('POST', '/business-plan/import', { token: asOwner, body: { plan: file } });
      expect(imported.status).toBe(201);
      const plan = imported.body.data.business_plan_id as number;
      const caseIds = (
        await api.call('GET', '/business-plan/file', { token: asOwner, query: { business_plan_id: plan } })
      ).body.data.case_ids as number[];
      expect(caseIds.length).toBeGreaterThan(0);
      for (const [index, caseOf] of caseIds.entries()) {
        let latest = Math.max(0, ...Object.keys(file.cases[index].actuals ?? {}).map(Number));
        if (latest === 0) {
          // Without ACT months the dashboard has nothing to average, and there is nothing to compare.
          await checkDashboard(plan, caseOf);
          const none = await api.call('GET', '/explain', {
            token: asOwner,
            query: { business_plan_id: plan, case_id: caseOf, year: 1, period: '1', key: 'mrr', view: 'progress' },
          });
          expect(none.status).toBe(400);
          // Then three months of actuals: orders won and a churned customer.
          for (const [month, order, churn] of [
            [1, 4, 0],
            [2, 7, 1],
            [3, 5, 0],
          ] as const) {
            const saved = await api.call('POST', '/pl/monthly/edit', {
              token: asOwner,
              body: { business_plan_id: plan, case_id: caseOf, year: 1, month, order, churn },
            });
            expect(saved.status).toBe(200);
          }
          latest = 3;
        }
        expect(await checkDashboard(plan, caseOf)).toBeGreaterThan(10);
        const year = Math.ceil(latest / 12);
        const month = String(latest - 12 * (year - 1));
        const compared = await checkComparison(plan, caseOf, year, [month, `q${Math.ceil(Number(month) / 3)}`, 'cy']);
        expect(compared).toBeGreaterThan(50);
      }
    },
    120_000,
  );

  it('lets a member of the dashboard open its figures, and only the inputs open to them', async () => {
    const email = 'explain-dashboard@example.com';
    const all = Object.fromEntries(AREAS.map((a) => [a, a === 'dashboard' ? 'can_view' : 'no_access']));
    await api.db('plan_members').insert({ plan_id: planId, email, status: 'yet', ...all });
    const { token } = await api.user(email, 'free');
    const answer = await explain({ year: 1, period: '3', key: 'dashboard.ave_three_monthes.mrr' }, token);
    expect(answer.status).toBe(200);
    expect((answer.body as Answer).inputs.every((i) => !i.explainable)).toBe(true);
    expect((await explain({ year: 1, period: '3', key: 'mrr', view: 'progress' }, token)).status).toBe(403);
  });
});
