import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { PlanWorkbook } from '@topline/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanRow } from '../services/access/access';
import { loadPlanFile } from '../services/plans/planFile';
import { costItem, planForm, startTestApi, type TestApi } from '../testing/harness';

let api: TestApi;
let token: string;
let planId: number;
let caseId: number;

// A plan read in its seventh month: start 2026-04, "today" 2026-10-15.
const today = new Date('2026-10-15T09:00:00Z');

beforeAll(async () => {
  api = await startTestApi({ now: () => today });
  ({ token } = await api.user('screens@example.com', 'team'));
  const created = await api.call('POST', '/business-plan/create', { token, form: planForm() });
  planId = created.body.data.business_plan_id;
  caseId = (await api.db('cases').where({ plan_id: planId }).first()).id;
});
afterAll(async () => {
  await api.close();
});

const get = (path: string, query: Record<string, string | number> = {}) =>
  api.call('GET', path, { token, query: { business_plan_id: planId, ...query } });
const post = (path: string, body: Record<string, unknown>) =>
  api.call('POST', path, { token, body: { business_plan_id: planId, ...body } });

describe('annual P&L, KPI, revenue', () => {
  it('answers the P&L of every case from the workbook', async () => {
    const answer = await get('/pl/retrieve');
    expect(answer.status).toBe(200);
    const [base] = answer.body.data.values;
    expect(base).toMatchObject({ case_id: caseId, case_name: 'Base case', case_rate: 1 });
    expect(base.pl).toHaveLength(6);
    // Target ARR 100M with P = 12: year 1 ends at the target, year 2 at x3 (t2d3), MODEL.md section 3.
    expect(base.pl[0].arr).toBeCloseTo(100_000_000, 0);
    expect(base.pl[1].arr).toBeCloseTo(300_000_000, 0);
    // Year-1 revenue: MRR ramps (100M/12) x t/12 for t = 1..12, summing to (100M/12) x 78/12.
    expect(base.pl[0].revenue).toBeCloseTo((100_000_000 / 12) * 6.5, 0);
    expect(base.pl[0].cogs).toBeCloseTo(base.pl[0].revenue * 0.3, 0);
    expect(answer.body.data.colors).toHaveLength(3);
  });

  it('recomputes after a per-year edit (the cache follows the version)', async () => {
    const before = (await get('/pl/retrieve')).body.data.values[0].pl[0];
    expect((await post('/case/edit', { case_id: caseId, year: 1, key: 'cogs_rate', value: 0.5 })).status).toBe(200);
    const after = (await get('/pl/retrieve')).body.data.values[0].pl[0];
    expect(after.cogs).toBeCloseTo(before.revenue * 0.5, 0);
    await post('/case/edit', { case_id: caseId, year: 1, key: 'cogs_rate', value: null });
    expect((await get('/pl/retrieve')).body.data.values[0].pl[0].cogs).toBeCloseTo(before.cogs, 0);
  });

  it('answers KPI and revenue per case and year', async () => {
    const kpi = await get('/kpi/retrieve');
    expect(kpi.status).toBe(200);
    const year1 = kpi.body.data.values[0].kpi[0];
    expect(year1.monthly).toHaveLength(12);
    expect(year1.quarterly).toHaveLength(4);
    const revenue = await get('/revenue/retrieve');
    expect(revenue.status).toBe(200);
    expect(revenue.body.data.values[0].revenue[0].monthly).toHaveLength(12);
    expect((await post('/revenue/edit', { case_id: caseId, year: 1, value: 0.8 })).status).toBe(200);
    const revised = await get('/revenue/retrieve');
    expect(revised.body.data.values[0].revenue[0].recurring_revenue_rate).toBeCloseTo(0.8);
  });

  it('offers per-employee references with alerts per year', async () => {
    const answer = await get('/suggestions/per-employee', { case_id: caseId });
    expect(answer.status).toBe(200);
    expect(answer.body.data.arr_per_employee.average).toBeGreaterThan(0);
    expect(answer.body.data.arr_per_employee.companies.length).toBeGreaterThan(0);
    expect(answer.body.data.alerts).toHaveLength(6);
  });
});

describe('cost items', () => {
  it('creates, edits and deletes items, with the term rule as an Input Error', async () => {
    const item = costItem();
    const created = await post('/cost/create', { case_id: caseId, year: 1, item });
    expect(created.status).toBe(200);
    const costId = created.body.data.cost_id;
    let cost = (await get('/cost/retrieve')).body.data.values[0].cost[0];
    expect(cost.groups.sm.total).toBeCloseTo(3_600_000, 0);
    expect(cost.groups.sm.detail[0]).toMatchObject({ item_name: 'Search ads', cost_id: costId });

    const wrongTerm = await post('/cost/edit', {
      case_id: caseId,
      cost_id: costId,
      version: 1,
      ...item,
      end_year: 2026,
      end_month: 3,
    });
    expect(wrongTerm.status).toBe(400);
    expect(wrongTerm.body.title).toBe('Input Error');
    expect((await get('/cost/retrieve')).body.data.versions).toEqual({ [costId]: 1 });
    const edited = await post('/cost/edit', { case_id: caseId, cost_id: costId, version: 1, ...item, price: 100_000 });
    expect(edited.status).toBe(200);
    cost = (await get('/cost/retrieve')).body.data.values[0].cost[0];
    expect(cost.groups.sm.total).toBeCloseTo(1_200_000, 0);

    // A second person saving over the version both read loses nothing silently: 409, and the first edit stays.
    const stale = await post('/cost/edit', { case_id: caseId, cost_id: costId, version: 1, ...item, price: 5 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'conflict' });
    expect(stale.body.message).toMatch(/someone else saved this cost item/);
    expect((await api.db('cost_items').where({ id: costId }).first()).price).toBe(100_000);
    expect((await get('/cost/retrieve')).body.data.versions).toEqual({ [costId]: 2 });

    const badTitle = await post('/cost/create', { case_id: caseId, item: { ...item, item_title: 'rd_advertising' } });
    expect(badTitle.status).toBe(400);
    expect(badTitle.body.errors.item_title).toBeTruthy();
    expect(await api.db('cost_items')).toHaveLength(1);

    expect((await post('/cost/delete', { case_id: caseId, cost_id: costId })).status).toBe(200);
    expect(await api.db('cost_items')).toHaveLength(0);
  });
});

describe('monthly P&L', () => {
  it('saves actuals, shows them as ACT, reverses them and keeps their values', async () => {
    const saved = await post('/pl/monthly/edit', {
      year: 1,
      month: 1,
      session: 3000,
      lead: 200,
      meeting: 60,
      order: 12,
      churn: 0,
      arpa: 50_000,
      cogs: 100_000,
    });
    expect(saved.status).toBe(200);
    let monthly = (await get('/pl/monthly/retrieve', { case_id: caseId })).body.data.monthly_pl;
    expect(monthly).toHaveLength(6);
    const m1 = monthly[0].actual.monthly[0];
    expect(m1.status).toBe('ACT');
    expect(m1.order).toBe(12);
    // Actual MRR = cumulative x ARPA = 12 x 50,000 (MODEL.md section 5).
    expect(m1.mrr).toBeCloseTo(600_000, 0);

    expect((await post('/pl/monthly/reverse', { year: 1, month: 1 })).status).toBe(200);
    monthly = (await get('/pl/monthly/retrieve', { case_id: caseId })).body.data.monthly_pl;
    expect(monthly[0].actual.monthly[0].status).toBe('EST');
    expect(await api.db('monthly_inputs').where({ case_id: caseId, layer: 'actual', key: 'order' })).toHaveLength(1);
    await post('/pl/monthly/edit', { year: 1, month: 1, order: 12 });

    const invalid = await post('/pl/monthly/edit', { year: 1, month: 13, order: -1 });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['month', 'order']);
  });

  it('saves cash-flow items and comments and revises the budget', async () => {
    expect(
      (
        await post('/pl/monthly/cashflow/edit', {
          case_id: caseId,
          year: 1,
          month: 1,
          beginning_cash_balance: 50_000_000,
        })
      ).status,
    ).toBe(200);
    const monthly = (await get('/pl/monthly/retrieve', { case_id: caseId })).body.data.monthly_pl;
    expect(monthly[0].estimate.monthly[0].beginning_cash_balance).toBeCloseTo(50_000_000, 0);

    const comment = await post('/pl/monthly/comment/edit', {
      case_id: caseId,
      year: 1,
      column_name: 1,
      section: 'actual',
      content: 'Launch month',
    });
    expect(comment.status).toBe(200);
    const withComment = (await get('/pl/monthly/retrieve', { case_id: caseId })).body.data.monthly_pl;
    expect(withComment[0].actual.monthly[0].comment).toBe('Launch month');
    // One year on request: the same entry as in the full answer, and a year outside 1..6 refused.
    const one = (await get('/pl/monthly/retrieve', { case_id: caseId, year: 1 })).body.data.monthly_pl;
    expect(one).toHaveLength(1);
    expect(one[0]).toEqual(withComment[0]);
    expect((await get('/pl/monthly/retrieve', { case_id: caseId, year: 7 })).status).toBe(400);
    // Gzipped for a client that accepts it (fetch does), as it is for one that does not.
    const url = new URL('/api/v1/pl/monthly/retrieve', api.url);
    url.search = new URLSearchParams({ business_plan_id: String(planId), case_id: String(caseId) }).toString();
    const gzipped = await fetch(url, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('vary')).toContain('Accept-Encoding');
    const wire = Number(gzipped.headers.get('content-length'));
    const unzipped = await gzipped.text();
    expect(wire).toBeLessThan(unzipped.length / 4);
    const plain = await fetch(url, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(unzipped);
    expect(JSON.parse(unzipped).data.monthly_pl).toEqual(withComment);

    const revise = await post('/pl/monthly/adjust/edit', { case_id: caseId, year: 1, pattern: 'downward' });
    expect(revise.status).toBe(200);
    expect(await api.db('revisions').where({ case_id: caseId })).toEqual([
      { case_id: caseId, year: 1, pattern: 'downward', month: 1 },
    ]);
    const noActuals = await post('/pl/monthly/adjust/edit', { case_id: caseId, year: 2, pattern: 'upward' });
    expect(noActuals.status).toBe(400);
  });

  it('answers the dashboard and the actuals view', async () => {
    const dashboard = await get('/dashboard/retrieve', { case_id: caseId });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.data.metrics.mrr.estimate).toHaveLength(72);
    const actuals = await get('/actuals/retrieve', { case_id: caseId });
    expect(actuals.status).toBe(200);
    expect(actuals.body.data.years[0].columns).toHaveLength(17);
  });
});

describe('home', () => {
  it('adds daily entries into the calendar', async () => {
    expect((await post('/home/edit', { kpi_title: 'meeting', value: 4 })).status).toBe(200);
    expect((await post('/home/edit', { kpi_title: 'order', value: 2, date: '2026-10-13' })).status).toBe(200);
    const home = await get('/home/retrieve');
    expect(home.status).toBe(200);
    expect(home.body.data.calendar.sales.actual).toEqual({ today: 4, weekly: 4, monthly: 4 });
    expect(home.body.data.calendar.orders.actual).toEqual({ today: 0, weekly: 2, monthly: 2 });
    expect(home.body.data.calendar.sales.estimated.monthly).toBeGreaterThan(0);
    // Benchmark charts and blog cards from fixtures/home/content.json.
    expect(home.body.data.db_chart.map((c: { iframe: string }) => c.iframe)).toEqual([
      '/benchmarks/cost-ratios.html',
      '/benchmarks/funnel-rates.html',
    ]);
    expect(home.body.data.blog).toHaveLength(3);
    expect(home.body.data.blog[0]).toMatchObject({ id: 1, category: 'Planning', thumbnail: '/blog/t2d3.svg' });
    const bad = await post('/home/edit', { kpi_title: 'revenue', value: -3 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['kpi_title', 'value']);
  });
});

describe('CSV downloads', () => {
  it('names the file plan_case_area_yyyyMMdd.csv and answers the engine CSV', async () => {
    const pl = await get('/pl/csv', { case_id: caseId });
    expect(pl.status).toBe(200);
    expect(pl.headers.get('content-type')).toMatch(/text\/csv/);
    expect(pl.headers.get('content-disposition')).toContain('Acme_plan_Base_case_pl_20261015.csv');
    expect(pl.text.split('\n').length).toBeGreaterThan(5);
    const kpi = await get('/kpi/csv', { case_id: caseId, year: 2 });
    expect(kpi.status).toBe(200);
    expect(kpi.headers.get('content-disposition')).toContain('_kpi_20261015.csv');
    const revenue = await get('/revenue/csv', { case_id: caseId });
    expect(revenue.status).toBe(200);
    expect(revenue.headers.get('content-disposition')).toContain('_revenue_20261015.csv');
    const lines = revenue.text.split('\r\n');
    // fetch's text() drops the byte-order mark the file starts with.
    expect(lines[0]).toBe('period,month,mrr,professional_service,revenue,cumulative_revenue,recurring_revenue_rate');
    expect(lines).toHaveLength(1 + 6 * 13 + 1);
    // Month 1 of the ramp: MRR = (100M / 12) x 1/12, whole yen (MODEL.md sections 3 and 8).
    expect(lines[1]?.split(',')[2]).toBe(String(Math.round(100_000_000 / 12 / 12)));
    const badYear = await get('/kpi/csv', { case_id: caseId, year: 9 });
    expect(badYear.status).toBe(400);
  });
});

describe('a CSV download as sent', () => {
  /** The raw answer, as bytes on the wire, asking for `encoding`. */
  const raw = (path: string, encoding: string, query: Record<string, number>) =>
    new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const url = new URL(`/api/v1${path}`, api.url);
      for (const [k, v] of Object.entries({ business_plan_id: planId, ...query })) url.searchParams.set(k, String(v));
      const request = httpGet(
        url,
        { headers: { authorization: `Bearer ${token}`, 'accept-encoding': encoding } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      request.on('error', reject);
    });

  it('streams the file, chunked, gzipped for a client that accepts it, the same bytes either way', async () => {
    const ofCase = { case_id: caseId };
    for (const [path, query] of [
      ['/pl/csv', ofCase],
      ['/revenue/csv', ofCase],
      ['/kpi/csv', ofCase],
      ['/pl/monthly/csv', ofCase],
      ['/pl/compare/csv', {}],
    ] as const) {
      const plain = await raw(path, 'identity', query);
      const gzipped = await raw(path, 'gzip', query);
      expect(plain.headers['content-type'], path).toBe('text/csv; charset=utf-8');
      for (const answer of [plain, gzipped]) {
        // Written as it is made: no length known before the last row.
        expect(answer.headers['transfer-encoding'], path).toBe('chunked');
        expect(answer.headers['content-length'], path).toBeUndefined();
        expect(answer.headers.vary, path).toContain('Accept-Encoding');
      }
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(gzipped.headers['content-encoding'], path).toBe('gzip');
      expect(gunzipSync(gzipped.body).equals(plain.body), path).toBe(true);
      // UTF-8 with its byte-order mark, CRLF line ends, the last line ended.
      expect([...plain.body.subarray(0, 3)], path).toEqual([0xef, 0xbb, 0xbf]);
      expect(plain.body.subarray(-2).toString(), path).toBe('\r\n');
      expect(plain.body.toString().split('\r\n').length, path).toBeGreaterThan(5);
    }
  });
});

describe('the warm workbook', () => {
  it('follows every edit above to the same numbers as a fresh build from the database', async () => {
    // Two more cases, so that edits address case indexes other than 0.
    await post('/case/create', { case_name: 'Ideal', case_rate: 2 });
    const ideal = (await get('/pl/retrieve')).body.data.values[1].case_id;
    await post('/case/edit', { case_id: ideal, year: 3, key: 'churn_rate', value: 0.01 });
    await post('/pl/monthly/edit', { year: 1, month: 2, order: 9, churn: 1, arpa: 52_000 });
    await post('/pl/monthly/edit', { year: 1, month: 3, case_id: ideal, order: 20 });
    await post('/pl/monthly/reverse', { year: 1, month: 3, case_id: ideal });
    await post('/model/edit', { case_id: ideal, model: { name: 'custom', rates: [2.5, 2, 2, 1.5, 1.2] } });
    await post('/casename/edit', { case_id: ideal, case_name: 'Best' });
    await post('/case/edit', { case_id: ideal, year: 1, key: 'case_rate', value: 1.8 });
    await post('/pl/monthly/adjust/edit', { case_id: ideal, year: 1, pattern: 'upward' });
    await post('/home/edit', { kpi_title: 'sales', value: 7 });
    const item = {
      item_title: 'rd_labor',
      item_name: 'Engineers',
      price: 900_000,
      start_year: 2026,
      start_month: 5,
      end_year: 2028,
      end_month: 3,
    };
    const created = await post('/cost/create', { case_id: ideal, item });
    await post('/cost/edit', {
      case_id: ideal,
      cost_id: created.body.data.cost_id,
      version: 1,
      ...item,
      price: 950_000,
    });
    await post('/pl/monthly/comment/edit', {
      case_id: ideal,
      year: 1,
      column_name: 2,
      section: 'estimate',
      content: 'Hiring',
    });
    await post('/pl/monthly/cashflow/edit', { case_id: ideal, year: 1, month: 7, equity_raised: 100_000_000 });
    const answer = await get('/pl/monthly/retrieve', { case_id: ideal });
    expect(answer.status).toBe(200);
    expect(api.workbooks.stats.fallbacks).toBe(0);
    expect(api.workbooks.stats.applied).toBeGreaterThan(10);

    const plan = await api.db<PlanRow>('business_plans').where({ id: planId }).first();
    if (!plan) throw new Error('no plan');
    const asOf = { year: 2026, month: 10 };
    const warm = await api.workbooks.get(api.db, plan, asOf);
    expect(warm.version).toBe(plan.version);
    const loaded = await loadPlanFile(api.db, plan);
    const fresh = PlanWorkbook.build(loaded.file, { asOf });
    expect(warm.caseIds).toEqual(loaded.caseIds);
    for (let c = 0; c < loaded.caseIds.length; c++) {
      expect(warm.workbook.annualPl(c)).toEqual(fresh.annualPl(c));
      expect(warm.workbook.monthlyPl(c)).toEqual(fresh.monthlyPl(c));
      expect(warm.workbook.costs(c)).toEqual(fresh.costs(c));
    }
    expect(JSON.parse(answer.text).data.monthly_pl).toEqual(JSON.parse(JSON.stringify(fresh.monthlyPl(1))));
    fresh.destroy();
  });
});

describe('blank fields', () => {
  it('clears a value with null instead of reading a blank as zero, and takes numbers only as JSON numbers', async () => {
    await post('/pl/monthly/edit', { year: 2, month: 1, order: 5, session: 100 });
    const cleared = await post('/pl/monthly/edit', { year: 2, month: 1, order: null, session: 80 });
    expect(cleared.status).toBe(200);
    const rows = () => api.db('monthly_inputs').where({ case_id: caseId, month: 13, layer: 'actual' }).orderBy('key');
    expect((await rows()).map((r) => [r.key, r.value])).toEqual([['session', 80]]);
    // A blank or a number written as text is refused by name and changes nothing.
    const text = await post('/pl/monthly/edit', { year: 2, month: 1, order: '', session: '90' });
    expect(text.status).toBe(400);
    expect(Object.keys(text.body.errors).sort()).toEqual(['order', 'session']);
    expect((await rows()).map((r) => [r.key, r.value])).toEqual([['session', 80]]);
  });

  it('refuses a money input of the sign its row does not take, at its field, and stores nothing', async () => {
    const rows = () => api.db('monthly_inputs').where({ case_id: caseId, month: 14 }).orderBy('key');
    const actuals = await post('/pl/monthly/edit', { year: 2, month: 2, cogs: -3000, sm: 1000, debt_payment: -5 });
    expect(actuals.status).toBe(400);
    expect(Object.keys(actuals.body.errors).sort()).toEqual(['cogs', 'debt_payment']);
    expect(actuals.body.errors.cogs).toMatch(/0 or positive: a cost is entered as a positive amount/);
    const cash = await post('/pl/monthly/cashflow/edit', { case_id: caseId, year: 2, month: 2, equity_raised: -1 });
    expect(Object.keys(cash.body.errors)).toEqual(['equity_raised']);
    expect(await rows()).toEqual([]);
    // The opening balance and other movements take either sign.
    const either = await post('/pl/monthly/cashflow/edit', {
      case_id: caseId,
      year: 2,
      month: 2,
      other: -2500,
      beginning_cash_balance: -1,
    });
    expect(either.status).toBe(200);
    expect((await rows()).map((r) => [r.key, r.value])).toEqual([
      ['beginning_cash_balance', -1],
      ['other', -2500],
    ]);
  });
});
