import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, rolesAt, startTestApi, type TestApi } from '../testing/harness';

/**
 * The monthly P&L against a snapshot (issue 40, point 3) over HTTP: the snapshot's estimate is the budget of the
 * progress and difference views, in the answer and the variance CSV, for whoever may read the monthly P&L.
 */
const TODAY = new Date('2026-07-15T09:00:00Z');
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ now: () => TODAY });
});
afterAll(async () => {
  await api.close();
});

/**
 * A Team owner's plan (target ARR 100M, ARPA 50,000, from April 2026: planForm) saved as "Board plan", then its Y1
 * target halved to 50M and April's actuals entered: 3 new customers at 50,000.
 */
async function planAgainstBoard(tag: string) {
  const owner = await api.user(`owner-${tag}@example.com`, 'team');
  const created = await api.call('POST', '/business-plan/create', { token: owner.token, form: planForm() });
  expect(created.status).toBe(201);
  const planId: number = created.body.data.business_plan_id;
  const caseId: number = (await api.db('cases').where({ plan_id: planId }).first()).id;
  const post = (path: string, body: Record<string, unknown>) =>
    api.call('POST', path, { token: owner.token, body: { business_plan_id: planId, ...body } });
  const saved = await post('/snapshot/create', { name: 'Board plan' });
  expect(saved.status).toBe(201);
  expect((await post('/case/edit', { case_id: caseId, year: 1, key: 'arr', value: 50_000_000 })).status).toBe(200);
  const actual = { case_id: caseId, year: 1, month: 1, order: 3, churn: 0, arpa: 50_000 };
  expect((await post('/pl/monthly/edit', actual)).status).toBe(200);
  const invite = async (email: string, roles: Record<string, string>) => {
    const added = await post('/authority/add', { email, ...roles });
    expect(added.status).toBe(200);
    return (await api.user(email, 'free')).token;
  };
  const viewer = await invite(`viewer-${tag}@example.com`, rolesAt('can_view'));
  const blind = await invite(`blind-${tag}@example.com`, rolesAt('can_view', { monthly_pl: 'no_access' }));
  return { planId, caseId, owner: owner.token, viewer, blind, snapshotId: saved.body.data.snapshot.id as number };
}

type Plan = Awaited<ReturnType<typeof planAgainstBoard>>;

const monthly = (p: Plan, token: string, extra: Record<string, unknown> = {}) =>
  api.call('GET', '/pl/monthly/retrieve', {
    token,
    query: { business_plan_id: p.planId, case_id: p.caseId, year: 1, ...extra },
  });

/** The variance CSV's rows by key (no cell of these files holds a comma). */
async function csv(p: Plan, token: string, query: Record<string, string | number>) {
  const url = new URL('/api/v1/pl/monthly/csv', api.url);
  for (const [k, v] of Object.entries({ business_plan_id: p.planId, case_id: p.caseId, lang: 'en', ...query })) {
    url.searchParams.set(k, String(v));
  }
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  const lines = (await response.text())
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  const rows = new Map(lines.slice(1).map((l) => [l.split(',')[0] ?? '', l.split(',')]));
  return { status: response.status, headers: response.headers, rows };
}

// The budget's April revenue: 100M / 12 x 1/12 = 694,444.44 (MODEL.md section 3, P = 12); the live plan's, at 50M,
// 347,222.22. April's actual: 3 customers x 50,000 = 150,000. May is a forecast month, the live estimate 694,444.44
// against the snapshot's 1,388,888.89. The year: 150,000 + 347,222.22 x 77 = 26,886,111.11 against 694,444.44 x 78
// = 54,166,666.67.
const BUDGET_APRIL = 100_000_000 / 144;
const LIVE_YEAR = 150_000 + (50_000_000 / 144) * 77;
const BUDGET_YEAR = (100_000_000 / 144) * 78;

describe('the monthly P&L against a snapshot', () => {
  let p: Plan;
  beforeAll(async () => {
    p = await planAgainstBoard('figures');
  });

  it('reads the snapshot estimate as the budget of progress and difference, in every month, quarter and year', async () => {
    const live = await monthly(p, p.owner);
    expect(live.status).toBe(200);
    const [liveYear] = live.body.data.monthly_pl;
    expect(liveYear.progress.monthly[0].revenue).toBeCloseTo(150_000 / (50_000_000 / 144), 9);
    expect(liveYear.progress.monthly[1].revenue).toBeNull();
    expect(live.body.data.snapshot).toBeUndefined();

    const against = await monthly(p, p.owner, { snapshot_id: p.snapshotId });
    expect(against.status).toBe(200);
    expect(against.body.data.snapshot).toEqual({ id: p.snapshotId, case_name: 'Base case' });
    const [year] = against.body.data.monthly_pl;
    expect(year.progress.monthly[0].revenue).toBeCloseTo(150_000 / BUDGET_APRIL, 9);
    expect(year.progress.monthly[1].revenue).toBeCloseTo(0.5, 9);
    expect(year.progress.yearly.revenue).toBeCloseTo(LIVE_YEAR / BUDGET_YEAR, 9);
    expect(year.difference.value.monthly[0].revenue).toBeCloseTo(150_000 - BUDGET_APRIL, 4);
    expect(year.difference.value.yearly.revenue).toBeCloseTo(LIVE_YEAR - BUDGET_YEAR, 4);
    expect(year.difference.rate.monthly[0].revenue).toBeCloseTo(150_000 / BUDGET_APRIL - 1, 9);
    // The other views are the live plan's.
    expect(year.estimate).toEqual(liveYear.estimate);
    expect(year.actual).toEqual(liveYear.actual);
  });

  it('downloads the variance CSV against the snapshot', async () => {
    const answer = await csv(p, p.owner, { view: 'difference', snapshot_id: p.snapshotId });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toContain('monthly-difference-vs-snapshot-');
    const revenue = answer.rows.get('revenue') ?? [];
    expect(Number(revenue[2])).toBeCloseTo(150_000 - BUDGET_APRIL, 0);
    // The year is the last column.
    expect(Number(revenue.at(-1))).toBeCloseTo(LIVE_YEAR - BUDGET_YEAR, 0);
    const progress = await csv(p, p.owner, { view: 'progress', snapshot_id: p.snapshotId });
    expect(progress.rows.get('revenue')?.[3]).toBe('50.0%');
    const live = await csv(p, p.owner, { view: 'progress' });
    expect(live.rows.get('revenue')?.[3]).toBe('');
  });

  it('explains a figure read against the snapshot by its two sides', async () => {
    const ask = (token: string, query: Record<string, unknown>) =>
      api.call('GET', '/explain', {
        token,
        query: { business_plan_id: p.planId, case_id: p.caseId, year: 1, key: 'revenue', ...query },
      });
    const answer = await ask(p.owner, { period: '1', view: 'progress', snapshot_id: p.snapshotId });
    expect(answer.status).toBe(200);
    expect(answer.body.value).toBeCloseTo(150_000 / BUDGET_APRIL, 9);
    expect(answer.body.label).toContain('Board plan');
    expect(answer.body.formula).toContain('÷');
    expect(answer.body.inputs.map((i: { value: number }) => i.value)).toEqual([150_000, expect.any(Number)]);
    expect(answer.body.inputs[1].value).toBeCloseTo(BUDGET_APRIL, 4);
    expect(answer.body.inputs[0]).toMatchObject({ view: 'actual', explainable: true });
    // The year's difference in Japanese: the live year less the snapshot's.
    const year = await ask(p.viewer, { period: 'cy', view: 'difference_value', snapshot_id: p.snapshotId, lang: 'ja' });
    expect(year.status).toBe(200);
    expect(year.body.value).toBeCloseTo(LIVE_YEAR - BUDGET_YEAR, 4);
    expect(year.body.label).toContain('スナップショット「Board plan」');
    // Without the snapshot, the same figure is the live plan's: May is no ACT month, so nothing is compared.
    const live = await ask(p.owner, { period: '2', view: 'progress' });
    expect(live.status).toBe(200);
    expect(live.body.value).toBeNull();
    expect((await ask(p.blind, { period: '1', view: 'progress', snapshot_id: p.snapshotId })).status).toBe(403);
  });

  it("downloads the plan's XLSX with each case's sheet against the snapshot, in formulas", async () => {
    const url = (token: string, snapshotId: number) => {
      const u = new URL('/api/v1/business-plan/xlsx', api.url);
      u.searchParams.set('business_plan_id', String(p.planId));
      u.searchParams.set('snapshot_id', String(snapshotId));
      return fetch(u, { headers: { Authorization: `Bearer ${token}` } });
    };
    const response = await url(p.viewer, p.snapshotId);
    expect(response.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await response.arrayBuffer());
    const sheet = book.worksheets.find((w) => w.name.endsWith('VsSnapshot'));
    expect(sheet?.name).toBe('Base case VsSnapshot');
    expect(sheet?.getCell('A1').value).toBe('Snapshot: Board plan');
    const rows: string[] = [];
    sheet?.eachRow({ includeEmpty: true }, (row, n) => {
      rows[n] = String(row.getCell(1).value ?? '');
    });
    const progress = rows.indexOf('progress');
    const revenue = progress + rows.slice(progress).indexOf('Revenue');
    // April (column B): 150,000 of actual revenue against the snapshot's 694,444.44, a formula over the Actual sheet.
    const april = sheet?.getCell(revenue, 2).value as { formula: string; result: number };
    expect(april.formula).toMatch(/Actual/);
    expect(april.result).toBeCloseTo(150_000 / BUDGET_APRIL, 9);
    const other = await planAgainstBoard('xlsx-other');
    expect((await url(p.owner, other.snapshotId)).status).toBe(404);
  });

  it('follows the monthly P&L role: viewers read it, a member without the area does not', async () => {
    const viewer = await monthly(p, p.viewer, { snapshot_id: p.snapshotId });
    expect(viewer.status).toBe(200);
    expect(viewer.body.data.monthly_pl[0].progress.monthly[1].revenue).toBeCloseTo(0.5, 9);
    expect((await csv(p, p.viewer, { view: 'progress', snapshot_id: p.snapshotId })).status).toBe(200);
    expect((await monthly(p, p.blind, { snapshot_id: p.snapshotId })).status).toBe(403);
    expect((await csv(p, p.blind, { view: 'progress', snapshot_id: p.snapshotId })).status).toBe(403);
  });

  it("refuses another plan's snapshot, a deleted one and an unknown one with 404", async () => {
    const other = await planAgainstBoard('other');
    expect((await monthly(p, p.owner, { snapshot_id: other.snapshotId })).status).toBe(404);
    expect((await csv(p, p.owner, { view: 'progress', snapshot_id: other.snapshotId })).status).toBe(404);
    expect((await monthly(p, p.owner, { snapshot_id: 99_999_999 })).status).toBe(404);
    // Read once (its answer is cached with the plan's version), then deleted: no longer the plan's to compare with.
    expect((await monthly(other, other.owner, { snapshot_id: other.snapshotId })).status).toBe(200);
    const deleted = await api.call('POST', '/snapshot/delete', {
      token: other.owner,
      body: { business_plan_id: other.planId, snapshot_id: other.snapshotId },
    });
    expect(deleted.status).toBe(200);
    expect((await monthly(other, other.owner, { snapshot_id: other.snapshotId })).status).toBe(404);
    expect((await monthly(p, p.owner, { snapshot_id: 'x' })).status).toBe(400);
  });

  it('needs Basic or Team, as the monthly P&L', async () => {
    const free = await api.user('owner-free-vs@example.com', 'free');
    const created = await api.call('POST', '/business-plan/create', { token: free.token, form: planForm() });
    const planId: number = created.body.data.business_plan_id;
    const answer = await api.call('GET', '/pl/monthly/retrieve', {
      token: free.token,
      query: { business_plan_id: planId, snapshot_id: p.snapshotId },
    });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('tier_lock');
  });
});

describe('the annual P&L comparison against a snapshot', () => {
  let p: Plan;
  beforeAll(async () => {
    p = await planAgainstBoard('annual');
  });
  const compare = (token: string, planId: number, extra: Record<string, unknown> = {}) =>
    api.call('GET', '/pl/compare', { token, query: { business_plan_id: planId, ...extra } });

  it("sets the snapshot's base case beside the live cases, with its difference from the live base case", async () => {
    const answer = await compare(p.owner, p.planId, { snapshot_id: p.snapshotId });
    expect(answer.status).toBe(200);
    const { cases, snapshot } = answer.body.data;
    expect(cases.map((c: { case_name: string }) => c.case_name)).toEqual(['Base case']);
    expect(snapshot).toMatchObject({ snapshot_id: p.snapshotId, case_name: 'Base case' });
    // Y1 revenue = T1 / 12 x 6.5 (MODEL.md section 3, P = 12): the snapshot's 54,166,666.67 at 100M, the live plan's
    // estimate 27,083,333.33 at 50M: +27,083,333.33, +100 %.
    const [y1] = snapshot.years;
    expect(y1.values.revenue).toBeCloseTo((100_000_000 / 12) * 6.5, 2);
    expect(cases[0].years[0].values.revenue).toBeCloseTo((50_000_000 / 12) * 6.5, 2);
    expect(y1.difference.revenue).toBeCloseTo((50_000_000 / 12) * 6.5, 2);
    expect(y1.difference_rate.revenue).toBeCloseTo(1, 9);
    expect((await compare(p.owner, p.planId)).body.data.snapshot).toBeUndefined();
  });

  it('downloads the comparison with the snapshot as CSV and as XLSX, for whoever may read both', async () => {
    const file = async (token: string, path: string, extra: Record<string, unknown> = {}) => {
      const url = new URL(`/api/v1${path}`, api.url);
      const lang = path.endsWith('/csv') ? { lang: 'en' } : {};
      for (const [k, v] of Object.entries({ business_plan_id: p.planId, ...lang, ...extra })) {
        url.searchParams.set(k, String(v));
      }
      const response = await fetch(url, { headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'x' } });
      return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const csv = await file(p.owner, '/pl/compare/csv', { snapshot_id: p.snapshotId });
    expect(csv.status).toBe(200);
    const revenue = csv.bytes
      .toString('utf8')
      .split('\r\n')
      .filter((l) => l.startsWith('revenue,'))
      .map((l) => l.split(','));
    // The live base case's Y1 revenue, 27,083,333 (50M); the snapshot's 54,166,667 (100M): +27,083,333, +100.0 %.
    expect(revenue.map((r) => [r[2], r[3], r[4]])).toEqual([
      ['Base case', 'value', '27083333'],
      ['Board plan (snapshot)', 'value', '54166667'],
      ['Board plan (snapshot)', 'difference', '27083333'],
      ['Board plan (snapshot)', 'difference rate', '100.0%'],
    ]);
    const plain = await file(p.owner, '/pl/compare/csv');
    expect(plain.bytes.toString('utf8')).not.toContain('(snapshot)');

    const xlsx = await file(p.owner, '/pl/compare/xlsx', { snapshot_id: p.snapshotId });
    expect(xlsx.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Comparison');
    const rows: ExcelJS.Row[] = [];
    sheet?.eachRow((row) => {
      if (row.getCell(1).value === 'revenue' && row.getCell(3).value === 'Board plan (snapshot)') rows.push(row);
    });
    expect(rows.map((row) => row.getCell(4).value)).toEqual(['value', 'difference', 'difference_rate']);
    expect(rows[0]?.getCell(5).value).toBeCloseTo((100_000_000 / 12) * 6.5, 2);
    const difference = rows[1]?.getCell(5).value as ExcelJS.CellFormulaValue;
    expect(difference.formula).toMatch(/^IF\(/);
    expect(difference.result).toBeCloseTo((50_000_000 / 12) * 6.5, 2);

    // The snapshot follows the monthly P&L role; another plan's is a 404.
    expect((await file(p.viewer, '/pl/compare/csv', { snapshot_id: p.snapshotId })).status).toBe(200);
    expect((await file(p.blind, '/pl/compare/csv', { snapshot_id: p.snapshotId })).status).toBe(403);
    const other = await planAgainstBoard('annual-download-other');
    expect((await file(p.owner, '/pl/compare/csv', { snapshot_id: other.snapshotId })).status).toBe(404);
    expect((await file(p.owner, '/pl/compare/xlsx', { snapshot_id: other.snapshotId })).status).toBe(404);
    expect((await file(p.owner, '/pl/compare/csv', { snapshot_id: 'x' })).status).toBe(400);
  });

  it("follows the monthly P&L role and tier for the snapshot, and refuses another plan's snapshot", async () => {
    expect((await compare(p.viewer, p.planId, { snapshot_id: p.snapshotId })).status).toBe(200);
    // The member without the monthly P&L still compares the cases, but not with a snapshot.
    expect((await compare(p.blind, p.planId)).status).toBe(200);
    expect((await compare(p.blind, p.planId, { snapshot_id: p.snapshotId })).status).toBe(403);
    const other = await planAgainstBoard('annual-other');
    expect((await compare(p.owner, p.planId, { snapshot_id: other.snapshotId })).status).toBe(404);
    // A Free owner compares cases (every tier does), not snapshots.
    const free = await api.user('owner-free-annual@example.com', 'free');
    const created = await api.call('POST', '/business-plan/create', { token: free.token, form: planForm() });
    const planId: number = created.body.data.business_plan_id;
    expect((await compare(free.token, planId)).status).toBe(200);
    const locked = await compare(free.token, planId, { snapshot_id: p.snapshotId });
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('tier_lock');
  });
});
