/**
 * Explain over HTTP for the dashboard's figures and the comparison views of the ACT months: every figure is explained
 * by the cells it reads, whose values combine to it, on every fixture; a member of the dashboard alone opens none of
 * the inputs behind it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { AREAS } from '@topline/contract';
import { DASHBOARD_COLUMNS, DASHBOARD_METRICS, DASHBOARD_SCALARS } from '@topline/engine/shapes';
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

/** How many months a dashboard average covers. */
const WINDOWS = { ave_three_monthes: 3, ave_six_monthes: 6, ave_twelve_monthes: 12 } as const;

interface Answer {
  label: string;
  value: number | null;
  formula: string;
  inputs: (Input & { view?: string })[];
  /** The screens show the figure as a dash: its base is zero up to residue. */
  dash?: 'zero_base';
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
  /** The keys of a period's progress that the monthly answer shows as a dash (`progress.monthly.0.churn_cvr`). */
  const dashedAt = (period: string): Set<string> => {
    const at =
      period === 'cy'
        ? 'yearly'
        : period.startsWith('q')
          ? `quarterly.${Number(period.slice(1)) - 1}`
          : `monthly.${Number(period) - 1}`;
    const prefix = `progress.${at}.`;
    const dashes: string[] = monthly.dashes ?? [];
    return new Set(dashes.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length)));
  };
  let compared = 0;
  for (const period of periods) {
    const shown = shownAt(period);
    for (const key of Object.keys(shown).filter((k) => !['month', 'status', 'comment'].includes(k))) {
      for (const view of ['progress', 'difference_value', 'difference_rate'] as const) {
        const { value, inputs, dash } = await explained(plan, caseOf, { year, period, key, view });
        const what = `${view} ${key} Y${year} ${period}`;
        // A progress the screen shows as a dash (its base is zero up to residue): the explanation says so.
        if (view === 'progress' && dashedAt(period).has(key)) {
          expect(shown[key], what).toBeNull();
          expect(dash, what).toBe('zero_base');
          continue;
        }
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
