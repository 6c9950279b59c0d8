import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, startTestApi, type TestApi } from '../testing/harness';

let api: TestApi;
let token: string;
let planId: number;
let caseId: number;

// Target ARR 100,000,000 JPY, period 12, from April 2026 (planForm); read on 2026-10-15.
const today = new Date('2026-10-15T09:00:00Z');

beforeAll(async () => {
  api = await startTestApi({ now: () => today });
  ({ token } = await api.user('monthly-csv@example.com', 'team'));
  planId = (await api.call('POST', '/business-plan/create', { token, form: planForm() })).body.data.business_plan_id;
  caseId = (await api.db('cases').where({ plan_id: planId }).first()).id;
  // April 2026 (plan month 1) as actuals: 3 new customers at 48,000, no churn.
  const saved = await api.call('POST', '/pl/monthly/edit', {
    token,
    body: { business_plan_id: planId, case_id: caseId, year: 1, month: 1, order: 3, churn: 0, arpa: 48000 },
  });
  expect(saved.status).toBe(200);
});
afterAll(async () => {
  await api.close();
});

/** The CSV as rows of cells by their key in the first column (no cell of these files holds a comma). */
async function csv(query: Record<string, string | number>, acceptLanguage?: string) {
  const url = new URL('/api/v1/pl/monthly/csv', api.url);
  for (const [k, v] of Object.entries({ business_plan_id: planId, case_id: caseId, ...query })) {
    url.searchParams.set(k, String(v));
  }
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (acceptLanguage) headers['Accept-Language'] = acceptLanguage;
  const response = await fetch(url, { headers });
  const text = await response.text();
  const lines = text
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  const rows = new Map(lines.slice(1).map((l) => [l.split(',')[0] ?? '', l.split(',')]));
  return { status: response.status, headers: response.headers, header: lines[0]?.split(',') ?? [], rows, text };
}

describe('GET /pl/monthly/csv', () => {
  it('gives the 17 columns of the plan, hand-checked', async () => {
    const answer = await csv({ view: 'estimate', lang: 'en' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toContain('Acme_plan_Base_case_monthly-estimate-Y1_20261015.csv');
    expect(answer.header).toEqual([
      'item',
      'label',
      '2026-04',
      '2026-05',
      '2026-06',
      'Q1',
      '2026-07',
      '2026-08',
      '2026-09',
      'Q2',
      '2026-10',
      '2026-11',
      '2026-12',
      'Q3',
      '2027-01',
      '2027-02',
      '2027-03',
      'Q4',
      'CY',
    ]);
    // MRR of month t is (100,000,000 / 12) x t / 12: 694,444 in April, 8,333,333 in March 2027 and at CY.
    const mrr = answer.rows.get('mrr') ?? [];
    expect(mrr[1]).toBe('MRR');
    expect(mrr[2]).toBe('694444');
    expect(mrr[17]).toBe('8333333');
    expect(mrr[18]).toBe('8333333');
    // Q1 takes its last month, June (t = 3): 2,083,333.
    expect(mrr[5]).toBe('2083333');
    // Revenue of the year is the MRR summed: (100,000,000 / 12) x 78 / 12 = 54,166,667.
    expect(answer.rows.get('revenue')?.[18]).toBe('54166667');
    expect(answer.rows.has('status')).toBe(false);
    expect(answer.rows.has('registration')).toBe(false);
  });

  it('gives the actual view with ACT and EST, progress and difference of the ACT month', async () => {
    const actual = await csv({ view: 'actual', lang: 'en' });
    expect(actual.rows.get('status')?.slice(2, 7)).toEqual(['ACT', 'EST', 'EST', '', 'EST']);
    // April: 3 customers x 48,000 = 144,000 MRR, 1,728,000 ARR.
    expect(actual.rows.get('cumulative')?.[2]).toBe('3');
    expect(actual.rows.get('mrr')?.[2]).toBe('144000');
    expect(actual.rows.get('arr')?.[2]).toBe('1728000');
    const progress = await csv({ view: 'progress', lang: 'en' });
    // 144,000 / 694,444.44 = 20.736%.
    expect(progress.rows.get('mrr')?.[2]).toBe('20.7%');
    // Only ACT months have progress.
    expect(progress.rows.get('mrr')?.[3]).toBe('');
    const difference = await csv({ view: 'difference', lang: 'en' });
    // 144,000 - 694,444.44 = -550,444.44.
    expect(difference.rows.get('mrr')?.[2]).toBe('-550444');
    expect(difference.headers.get('content-disposition')).toContain('monthly-difference-Y1');
  });

  it('writes headers and labels in the interface language: lang, else Accept-Language', async () => {
    const ja = await csv({ view: 'actual', year: 1 }, 'ja,en;q=0.8');
    expect(ja.header.slice(0, 3)).toEqual(['項目', '名称', '2026-04']);
    expect(ja.header.slice(-2)).toEqual(['第4四半期', '通期']);
    expect(ja.rows.get('revenue')?.[1]).toBe('売上高');
    expect(ja.rows.get('status')?.[1]).toBe('実績(ACT)・予測(EST)');
    const en = await csv({ view: 'actual', lang: 'en' }, 'ja');
    expect(en.rows.get('revenue')?.[1]).toBe('Revenue');
    const pl = await api.call('GET', '/pl/csv', {
      token,
      query: { business_plan_id: planId, case_id: caseId, lang: 'ja' },
    });
    expect(pl.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('項目,名称,1年目,2年目,3年目,4年目,5年目,6年目');
    const kpi = await api.call('GET', '/kpi/csv', {
      token,
      query: { business_plan_id: planId, case_id: caseId, lang: 'ja' },
    });
    expect(kpi.text).toContain('churn_cvr,解約率,');
    const revenue = await api.call('GET', '/revenue/csv', {
      token,
      query: { business_plan_id: planId, case_id: caseId, lang: 'ja' },
    });
    expect(revenue.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      '期間,月,MRR,プロフェッショナルサービス,売上高,累計売上高,リカーリング売上比率',
    );
    const bad = await csv({ view: 'variance' });
    expect(bad.status).toBe(400);
    const badLang = await csv({ view: 'estimate', lang: 'fr' });
    expect(badLang.status).toBe(400);
  });
});
