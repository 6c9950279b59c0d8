import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolesAt, startTestApi, type TestApi } from '../testing/harness';

/**
 * Cases side by side and the revise preview over HTTP: every tier may compare, roles decide the rest, a stranger gets
 * 404; the preview is what the revision then saves. Figures are those engine/src/read/caseComparison.test.ts and
 * engine/src/revise.test.ts work out by hand from MODEL.md.
 */
const TODAY = new Date('2026-11-15T09:00:00Z');
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ now: () => TODAY });
});
afterAll(async () => {
  await api.close();
});

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../fixtures/plans/${name}.json`, import.meta.url), 'utf8'));

async function imported(token: string, name: string): Promise<number> {
  const answer = await api.call('POST', '/business-plan/import', { token, body: { plan: fixture(name) } });
  expect(answer.status).toBe(201);
  return answer.body.data.business_plan_id as number;
}

const get = (token: string, path: string, query: Record<string, string | number>) =>
  api.call('GET', path, { token, query });

/** A download's bytes (the harness reads answers as text). */
async function download(token: string, path: string, query: Record<string, string | number>) {
  const url = new URL(
    `/api/v1${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
    api.url,
  );
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'x' } });
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()), headers: response.headers };
}

/** A Team owner's plan with a viewer, a member without the P&L, one without the monthly P&L, and a stranger. */
async function sharedPlan(tag: string, name: string) {
  const owner = (await api.user(`owner-${tag}@example.com`, 'team')).token;
  const planId = await imported(owner, name);
  const invite = async (email: string, roles: Record<string, string>) => {
    const added = await api.call('POST', '/authority/add', {
      token: owner,
      body: { business_plan_id: planId, email, ...roles },
    });
    expect(added.status).toBe(200);
    return (await api.user(email, 'free')).token;
  };
  return {
    planId,
    owner,
    viewer: await invite(`viewer-${tag}@example.com`, rolesAt('can_view')),
    noPl: await invite(`nopl-${tag}@example.com`, rolesAt('can_view', { pl: 'no_access' })),
    noMonthly: await invite(`nomonthly-${tag}@example.com`, rolesAt('can_view', { monthly_pl: 'no_access' })),
    stranger: (await api.user(`stranger-${tag}@example.com`, 'team')).token,
    caseIds: (await api.db('cases').where({ plan_id: planId }).orderBy('id').pluck('id')).map(Number),
  };
}

describe('cases side by side', () => {
  it.each(['free', 'basic', 'team'] as const)('answers every case and its differences on %s', async (tier) => {
    const { token } = await api.user(`compare-${tier}@example.com`, tier);
    const planId = await imported(token, 'three-cases');
    const answer = await get(token, '/pl/compare', { business_plan_id: planId });
    expect(answer.status).toBe(200);
    const [base, ideal, prudent] = answer.body.data.cases;
    expect([base.case_name, ideal.case_name, prudent.case_name]).toEqual(['Base case', 'Ideal case', 'Prudent case']);
    expect(typeof ideal.case_id).toBe('number');
    // Base Y1 revenue 100M / 12 x 6.5; the ideal case twice it (+100 %), the prudent half (-50 %).
    expect(base.years[0].values.revenue).toBeCloseTo(54_166_666.666667, 3);
    expect(base.years[0].difference).toBeNull();
    expect(ideal.years[0].difference.revenue).toBeCloseTo(54_166_666.666667, 3);
    expect(ideal.years[0].difference_rate.revenue).toBeCloseTo(1, 9);
    expect(prudent.years[0].difference_rate.arr).toBeCloseTo(-0.5, 9);
    // Base Y2 operating income is zero: its rate is a dash (null).
    expect(ideal.years[1].difference_rate.operating_pl).toBeNull();

    const csv = await api.call('GET', '/pl/compare/csv', { token, query: { business_plan_id: planId, lang: 'en' } });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('revenue,Revenue,Ideal case,difference rate,100.0%');
  });

  it("downloads a Free owner's comparison as an XLSX sheet", async () => {
    const { token } = await api.user('compare-xlsx@example.com', 'free');
    const planId = await imported(token, 'three-cases');
    const xlsx = await download(token, '/pl/compare/xlsx', { business_plan_id: planId });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('Content-Disposition')).toContain('compare');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    expect(book.getWorksheet('Comparison')?.getRow(1).getCell(5).value).toBe('Y1');
  });

  it('follows the P&L role; the XLSX needs every area; a stranger gets 404', async () => {
    const p = await sharedPlan('compare', 'three-cases');
    const query = { business_plan_id: p.planId };
    expect((await get(p.viewer, '/pl/compare', query)).status).toBe(200);
    expect((await api.call('GET', '/pl/compare/csv', { token: p.viewer, query })).status).toBe(200);
    expect((await download(p.viewer, '/pl/compare/xlsx', query)).status).toBe(200);
    expect((await get(p.noPl, '/pl/compare', query)).status).toBe(403);
    expect((await api.call('GET', '/pl/compare/csv', { token: p.noPl, query })).status).toBe(403);
    expect((await download(p.noMonthly, '/pl/compare/xlsx', query)).status).toBe(403);
    expect((await get(p.stranger, '/pl/compare', query)).status).toBe(404);
    expect((await api.call('GET', '/pl/compare/csv', { token: p.stranger, query })).status).toBe(404);
    expect((await download(p.stranger, '/pl/compare/xlsx', query)).status).toBe(404);
  });

  it('refuses a bad plan id with a field error', async () => {
    const { token } = await api.user('compare-bad@example.com', 'team');
    const answer = await get(token, '/pl/compare', { business_plan_id: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toHaveProperty('business_plan_id');
  });
});

describe('revise preview', () => {
  it('previews each pattern, and the revision saved is the preview exactly', async () => {
    const p = await sharedPlan('revise', 'actuals-revisions');
    const caseId = p.caseIds[0] as number;
    const query = { business_plan_id: p.planId, case_id: caseId, year: 1 };
    const preview = await get(p.owner, '/pl/monthly/adjust/preview', query);
    expect(preview.status).toBe(200);
    const data = preview.body.data;
    expect(data).toMatchObject({ case_id: caseId, year: 1, from_month: 6, current_pattern: 'upward' });
    // Upward keeps the ARR goal (36M, MRR 3M); downward scales by 1,000,000 / 1,500,000: MRR 2M, ARR 24M.
    expect(data.patterns.upward.year_end_arr).toBeCloseTo(36_000_000, 4);
    expect(data.patterns.downward.year_end_mrr).toBeCloseTo(2_000_000, 4);
    // From the upward forecast (13,000,000 over months 7..12) to the downward one (9,500,000).
    expect(data.patterns.downward.revenue_change).toBeCloseTo(-3_500_000, 4);
    // Nothing is saved by a preview.
    const version = Number((await api.db('business_plans').where({ id: p.planId }).first()).version);
    expect((await get(p.viewer, '/pl/monthly/adjust/preview', query)).status).toBe(200);
    expect(Number((await api.db('business_plans').where({ id: p.planId }).first()).version)).toBe(version);

    const saved = await api.call('POST', '/pl/monthly/adjust/edit', {
      token: p.owner,
      body: { business_plan_id: p.planId, case_id: caseId, year: 1, pattern: 'downward' },
    });
    expect(saved.status).toBe(200);
    const after = (await get(p.owner, '/pl/monthly/adjust/preview', query)).body.data;
    const { revenue_change: _, ...previewed } = data.patterns.downward;
    expect(after.current_pattern).toBe('downward');
    expect(after.current).toEqual(previewed);
    // The actual view the monthly P&L shows ends the year at the previewed MRR, to the last digit.
    const actuals = await get(p.owner, '/actuals/retrieve', { business_plan_id: p.planId, case_id: caseId });
    const m12 = actuals.body.data.years[0].columns.find((c: { t: number | null }) => c.t === 12);
    expect(m12.values.mrr).toBe(data.patterns.downward.year_end_mrr);
  });

  it('refuses a year without actuals on year, and follows the monthly P&L role', async () => {
    const p = await sharedPlan('revise-roles', 'actuals-revisions');
    const query = { business_plan_id: p.planId, case_id: p.caseIds[0] as number, year: 2 };
    const refused = await get(p.owner, '/pl/monthly/adjust/preview', query);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty('year');
    const year1 = { ...query, year: 1 };
    expect((await get(p.noMonthly, '/pl/monthly/adjust/preview', year1)).status).toBe(403);
    expect((await get(p.stranger, '/pl/monthly/adjust/preview', year1)).status).toBe(404);
    expect((await get(p.owner, '/pl/monthly/adjust/preview', { ...year1, year: 7 })).status).toBe(400);
  });
});
