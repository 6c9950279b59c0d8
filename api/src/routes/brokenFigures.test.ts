import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, startTestApi, type TestApi } from '../testing/harness';

/**
 * A plan that holds a number outside the plan file's bounds (stored before they existed, or written straight into the
 * database) still opens: every screen answers 200, the values the bounds refuse are left out (their defaults apply)
 * and the figures they would break are blank, each flagged in the answer's `broken` field.
 */
let api: TestApi;
let token: string;

// Plans start 2026-04 and are read on 2026-10-15, their seventh month.
const today = new Date('2026-10-15T09:00:00Z');

beforeAll(async () => {
  api = await startTestApi({ now: () => today });
  ({ token } = await api.user('broken@example.com', 'team'));
});
afterAll(async () => {
  await api.close();
});

/** A new plan of the user, and the id of its case. */
async function newPlan(name: string): Promise<{ planId: number; caseId: number }> {
  const created = await api.call('POST', '/business-plan/create', {
    token,
    form: planForm({ business_plan_name: name }),
  });
  expect(created.status).toBe(201);
  const planId = Number(created.body.data.business_plan_id);
  const caseId = Number((await api.db('cases').where({ plan_id: planId }).first()).id);
  return { planId, caseId };
}

/** Rows written behind the API's back: the plan's version moves, as a write through it would move it. */
async function written(planId: number, write: () => Promise<unknown>): Promise<void> {
  await write();
  await api.db('business_plans').where({ id: planId }).increment('version', 1);
}

const reader =
  (planId: number) =>
  (path: string, query: Record<string, string | number> = {}) =>
    api.call('GET', path, { token, query: { business_plan_id: planId, ...query } });

/** Every screen read of the plan: each answers 200 (and, through the harness, within its contract). */
async function readAll(planId: number, caseId: number) {
  const get = reader(planId);
  const answers = {
    pl: await get('/pl/retrieve'),
    kpi: await get('/kpi/retrieve'),
    revenue: await get('/revenue/retrieve'),
    cost: await get('/cost/retrieve'),
    dashboard: await get('/dashboard/retrieve'),
    monthly: await get('/pl/monthly/retrieve'),
    actuals: await get('/actuals/retrieve'),
    home: await get('/home/retrieve'),
    perEmployee: await get('/suggestions/per-employee'),
    planFile: await get('/business-plan/file'),
    plCsv: await get('/pl/csv', { case_id: caseId }),
    kpiCsv: await get('/kpi/csv', { case_id: caseId, year: 6 }),
    revenueCsv: await get('/revenue/csv', { case_id: caseId }),
  };
  for (const [name, answer] of Object.entries(answers)) {
    expect(answer.status, `${name}: ${answer.text.slice(0, 200)}`).toBe(200);
    expect(answer.text, name).not.toMatch(/NaN|Infinity/);
  }
  return answers;
}

describe('a plan holding values outside the bounds', () => {
  let planId: number;
  let caseId: number;
  const refused = ['cases.0.years.1.arr', 'cases.0.cash.7.equity_raised', 'cases.0.daily.2026-10-15.order'];

  beforeAll(async () => {
    ({ planId, caseId } = await newPlan('Stored before the bounds'));
    await written(planId, async () => {
      await api.db('case_year_inputs').insert({ case_id: caseId, year: 1, key: 'arr', value: 1e307 });
      await api.db('monthly_inputs').insert({
        case_id: caseId,
        month: 7,
        layer: 'estimate',
        key: 'equity_raised',
        value: 1e308,
      });
      await api.db('daily_entries').insert({ plan_id: planId, date: '2026-10-15', key: 'order', value: 1e307 });
    });
  });

  it('answers every screen, with those values left out and flagged on the years they belong to', async () => {
    const answers = await readAll(planId, caseId);
    const [y1, y2] = answers.pl.body.data.values[0].pl;
    // The year-1 ARR target is its default again, the wizard's 100M x case rate 1.
    expect(y1.arr).toBeCloseTo(100_000_000, 0);
    expect(y1.broken).toEqual({ figures: [], inputs: refused });
    expect(y2.broken).toBeUndefined();
    expect(answers.kpi.body.data.values[0].kpi[0].broken.inputs).toEqual(refused);
    expect(answers.revenue.body.data.values[0].revenue[0].broken.inputs).toEqual(refused);
    expect(answers.dashboard.body.data.broken).toEqual({ figures: [], inputs: refused });
    expect(answers.monthly.body.data.monthly_pl[0].broken.inputs).toEqual(refused);
    expect(answers.actuals.body.data.years[0].columns[6].broken.inputs).toEqual(refused);
    expect(answers.cost.body.data.values[0].cost[0].groups.all.budget).toBeGreaterThan(0);

    // The equity of month 7 is the default 0: cash moves by the operating result alone.
    const m7 = answers.monthly.body.data.monthly_pl[0].estimate.monthly[6];
    expect(m7.equity_raised).toBe(0);
    expect(m7.net_cash_movement).toBeCloseTo(m7.operating_income, 6);
    // The day's entry is left out of the home screen as well.
    expect(answers.home.body.data.calendar.orders.actual).toEqual({ today: 0, weekly: 0, monthly: 0 });
    expect(answers.home.body.data.calendar.orders.daily_data).toEqual([]);
    // The plan file the browser builds from holds none of them.
    const file = answers.planFile.body.data.plan;
    expect(file.cases[0].years['1'] ?? {}).not.toHaveProperty('arr');
    expect(file.cases[0].cash['7'] ?? {}).not.toHaveProperty('equity_raised');
    expect(file.cases[0].daily).toEqual({});
    expect(answers.plCsv.text.split('\r\n')[1]).toMatch(/^arr,ARR,100000000,300000000,/);
  });
});

describe('a plan whose figures overflow', () => {
  let planId: number;
  let caseId: number;

  beforeAll(async () => {
    ({ planId, caseId } = await newPlan('Overflowing'));
    // The plan's target ARR has no default: it is kept, and ARR tripling from 1e307 overflows from year 4 on.
    await written(planId, () => api.db('business_plans').where({ id: planId }).update({ arr: 1e307 }));
  });

  it('answers every screen, with the figures that could not be computed blank and flagged', async () => {
    const answers = await readAll(planId, caseId);
    const pl = answers.pl.body.data.values[0].pl;
    expect(pl[0].arr).toBeCloseTo(1e307, -300);
    expect(pl[0].broken).toEqual({ figures: [], inputs: ['arr'] });
    expect(pl[5].arr).toBeNull();
    expect(pl[5].broken.figures).toEqual(expect.arrayContaining(['arr', 'revenue', 'operating_pl']));
    expect(pl[5].broken.inputs).toEqual(['arr']);

    const kpi = answers.kpi.body.data.values[0].kpi[5];
    expect(kpi.mrr).toBeNull();
    expect(kpi.broken.figures).toContain('mrr');
    const revenue = answers.revenue.body.data.values[0].revenue[5];
    expect(revenue.revenue).toBeNull();
    expect(revenue.broken.figures).toContain('revenue');
    const dashboard = answers.dashboard.body.data;
    expect(dashboard.metrics.mrr.estimate[71]).toBeNull();
    expect(dashboard.broken.figures).toContain('metrics.mrr.estimate.71');
    const monthly = answers.monthly.body.data.monthly_pl[5];
    expect(monthly.estimate.yearly.arr).toBeNull();
    expect(monthly.broken.figures).toContain('estimate.yearly.arr');
    const column = answers.actuals.body.data.years[5].columns[16];
    expect(column.values.arr).toBeNull();
    expect(column.broken.figures).toContain('values.arr');
    expect(answers.cost.body.data.values[0].cost[5].groups.all.budget).toBeNull();
    expect(answers.home.body.data.calendar.orders.completion_rate).toBe(0);
    // The CSVs write the blank figures blank: ARR of years 4 to 6.
    expect(answers.plCsv.text.split('\r\n')[1]?.split(',').slice(5)).toEqual(['', '', '']);
  });
});
