import { describe, expect, it } from 'vitest';
import { ExplainError, type ExplainView, explain } from './explain';
import { dashboard } from './read/dashboard';
import { monthlyGrid } from './read/monthly';
import { buildFixture } from './testing';

describe('explain: what it says', () => {
  it('revenue of a planned month: MRR plus professional services, with their values', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const x = explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'revenue' });
    // Target ARR 5,000,000 reached at month 12 from a straight ramp: MRR_3 = 5,000,000 / 12 x 3 / 12 = 104,166.67;
    // recurring revenue is 100% of revenue, so professional services are 0.
    expect(x.label).toBe('Revenue');
    expect(x.formula).toBe('Revenue = MRR + Professional services');
    expect(x.value).toBeCloseTo(104_166.666667, 5);
    expect(x.inputs.map((i) => [i.key, i.year, i.period, i.source, i.explainable])).toEqual([
      ['mrr', 1, '3', 'formula', true],
      ['professional_service', 1, '3', 'formula', true],
    ]);
    expect(x.inputs[0]?.value).toBeCloseTo(104_166.666667, 5);
    expect(x.inputs[1]?.value).toBe(0);
    const ja = explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'revenue', language: 'ja' });
    expect(ja.formula).toBe('売上高 = MRR + プロフェッショナルサービス');
  });

  it('a quarter sums its months; the P&L field names read their rows', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const q = explain(wb, { caseIndex: 0, year: 1, period: 'q1', key: 'revenue' });
    expect(q.inputs.map((i) => i.period)).toEqual(['1', '2', '3']);
    // 5,000,000 / 12 / 12 x (1 + 2 + 3) = 208,333.33
    expect(q.value).toBeCloseTo(208_333.333333, 5);
    const pl = explain(wb, { caseIndex: 0, year: 2, period: 'cy', key: 'operating_pl' });
    expect(pl.label).toBe('Operating income');
    expect(pl.inputs.map((i) => [i.key, i.period])).toEqual([
      ['operating_income', 'q1'],
      ['operating_income', 'q2'],
      ['operating_income', 'q3'],
      ['operating_income', 'q4'],
    ]);
  });

  it('a count names the whole number the grid shows, its months footing to their quarter', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const order = (period: string, view: ExplainView = 'estimate') =>
      explain(wb, { caseIndex: 0, year: 1, period, key: 'order', view });
    const [m1, m2, m3, q1] = ['1', '2', '3', 'q1'].map((period) => order(period));
    // New customers of the first months: 2.3148, 2.3843 and 2.4537. The grid shows the steps of the rounded running
    // total: round(2.3148) = 2, round(4.6991) - 2 = 3, round(7.1528) - 5 = 2, and the quarter their sum, 7.
    expect([m1?.value, m2?.value, m3?.value, q1?.value]).toEqual([
      expect.closeTo(2.314815, 5),
      expect.closeTo(2.384259, 5),
      expect.closeTo(2.453704, 5),
      expect.closeTo(7.152778, 5),
    ]);
    expect([m1?.shown, m2?.shown, m3?.shown, q1?.shown]).toEqual([2, 3, 2, 7]);
    const grid = monthlyGrid(wb, 0, 1, 'estimate');
    expect(grid.slice(0, 4).map((c) => c.values.order)).toEqual([2, 3, 2, 7]);
    // The actual view foots the same way; a money figure is shown as computed, and so names no shown figure.
    expect(order('2', 'actual').shown).toBe(3);
    expect(explain(wb, { caseIndex: 0, year: 1, period: '2', key: 'mrr' })).not.toHaveProperty('shown');
    // Explain reads the grid once per revision of the workbook: after an edit it shows the figures as they are now.
    // With 5 orders entered in month 2, the running totals are 2.3148, 7.3148 and 9.7685: month 3 shows
    // round(9.7685) - round(7.3148) = 3 (it showed 2 before) and the quarter 10.
    expect(order('3', 'actual').shown).toBe(2);
    wb.apply({ type: 'actual', caseIndex: 0, month: 2, values: { order: 5 } });
    expect(order('2', 'actual')).toMatchObject({ value: 5 });
    expect(order('2', 'actual')).not.toHaveProperty('shown');
    expect([order('3', 'actual').shown, order('q1', 'actual').shown]).toEqual([3, 10]);
  });

  it('names stored assumptions, defaults, actuals and cash inputs as such', () => {
    const wb = buildFixture('actuals-revisions');
    const mrr = explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'mrr', view: 'actual' });
    expect(mrr.formula).toBe('MRR = Customers × ARPA');
    expect(mrr.inputs.find((i) => i.key === 'arpa')?.source).toBe('actual');
    const arr = explain(wb, { caseIndex: 0, year: 1, period: 'cy', key: 'assumption.arr' });
    expect(arr.inputs.map((i) => [i.key, i.source])).toEqual([
      ['plan.target_arr', 'assumption'],
      ['assumption.case_rate', 'assumption'],
    ]);
    const churn = explain(wb, { caseIndex: 0, year: 1, period: 'cy', key: 'assumption.churn_rate' });
    expect(churn.inputs[0]).toMatchObject({ key: 'assumption.arpa', source: 'default', explainable: true });
    // The base case of three-cases raises 100,000,000 of equity in month 7; the month's other cash items are their
    // default, 0.
    const net = explain(buildFixture('three-cases'), { caseIndex: 0, year: 1, period: '7', key: 'net_cash_movement' });
    expect(net.inputs.find((i) => i.key === 'equity_raised')).toMatchObject({
      source: 'cash input',
      value: 100_000_000,
      explainable: false,
    });
    expect(net.inputs.find((i) => i.key === 'debt_raised')).toMatchObject({ source: 'default', value: 0 });
  });

  it("a dashboard average: the months it averages, each in the actual view; a rate from the window's averages", () => {
    const wb = buildFixture('actuals-revisions');
    const latest = dashboard(wb, 0).latest_actual_month ?? 0;
    expect(latest).toBe(6);
    const x = explain(wb, { caseIndex: 0, year: 1, period: '6', key: 'dashboard.ave_three_monthes.mrr' });
    expect(x.label).toBe('MRR: 3-month average');
    expect(x.inputs.map((i) => [i.key, i.year, i.period, i.view, i.source])).toEqual([
      ['mrr', 1, '6', 'actual', 'formula'],
      ['mrr', 1, '5', 'actual', 'formula'],
      ['mrr', 1, '4', 'actual', 'formula'],
    ]);
    const months = x.inputs.map((i) => i.value as number);
    expect(x.value).toBeCloseTo(months.reduce((sum, v) => sum + v, 0) / 3, 6);
    // actuals-revisions starts in January 2026.
    expect(x.formula).toBe(
      'MRR: 3-month average = sum(MRR (actual, Jun 2026), MRR (actual, May 2026), MRR (actual, Apr 2026)) ÷ 3',
    );
    const cvr = explain(wb, { caseIndex: 0, year: 1, period: '6', key: 'dashboard.ave_six_monthes.order_cvr' });
    expect(cvr.inputs.every((i) => i.key.startsWith('dashboard.ave_six_monthes.'))).toBe(true);
    const fy = explain(wb, { caseIndex: 0, year: 1, period: '6', key: 'dashboard.fiscal_year_achieved.revenue' });
    expect(fy.inputs.map((i) => [i.key, i.period, i.view])).toEqual([
      ['revenue', 'cy', 'actual_to_date'],
      ['revenue', 'cy', 'estimate'],
    ]);
    const ja = explain(wb, {
      caseIndex: 0,
      year: 1,
      period: '6',
      key: 'dashboard.mrr_progress_percent',
      language: 'ja',
    });
    expect(ja.label).toBe('MRR進捗（%）');
    expect(ja.inputs.map((i) => i.key)).toEqual(['dashboard.mrr_as_is', 'dashboard.mrr_goal']);
  });

  it('progress and difference compare the actual and the plan over the ACT months', () => {
    const wb = buildFixture('actuals-revisions');
    const x = explain(wb, { caseIndex: 0, year: 1, period: 'q1', key: 'revenue', view: 'difference_value' });
    expect(x.label).toBe('Difference of Revenue (actual − plan, ACT months)');
    expect(x.inputs.map((i) => [i.key, i.period, i.view])).toEqual([
      ['revenue', 'q1', 'actual_to_date'],
      ['revenue', 'q1', 'estimate_to_date'],
    ]);
    const [a, e] = x.inputs.map((i) => i.value as number);
    expect(x.value).toBeCloseTo((a ?? 0) - (e ?? 0), 6);
    expect(monthlyGrid(wb, 0, 1, 'difference_value')[3]?.values.revenue).toBeCloseTo(x.value as number, 6);
    const p = explain(wb, { caseIndex: 0, year: 1, period: '2', key: 'mrr', view: 'progress', language: 'ja' });
    expect(p.formula).toBe(
      'MRRの進捗率（実績÷計画、実績月） = MRR (実績月の実績) ÷ MRR (実績月の計画)（計算できないときは空欄）',
    );
    // The side compared reads the actual view's month.
    const side = explain(wb, { caseIndex: 0, year: 1, period: '2', key: 'mrr', view: 'actual_to_date' });
    expect(side.inputs.map((i) => [i.key, i.period, i.view])).toEqual([['mrr', '2', 'actual']]);
    // A case without ACT months has nothing to compare.
    expect(() =>
      explain(buildFixture('saas-jpy-t2d3'), { caseIndex: 0, year: 1, period: '2', key: 'mrr', view: 'progress' }),
    ).toThrow(ExplainError);
  });

  it('refuses what it cannot explain', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    expect(() => explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'nonsense' })).toThrow(ExplainError);
    expect(() => explain(wb, { caseIndex: 0, year: 1, period: '13', key: 'revenue' })).toThrow(ExplainError);
    expect(() => explain(wb, { caseIndex: 0, year: 7, period: 'cy', key: 'revenue' })).toThrow(ExplainError);
    expect(() => explain(wb, { caseIndex: 5, year: 1, period: 'cy', key: 'revenue' })).toThrow(ExplainError);
    // A selfserve row in a saas plan.
    expect(() => explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'registration' })).toThrow(ExplainError);
    expect(() =>
      explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'dashboard.ave_three_monthes.registration' }),
    ).toThrow(ExplainError);
    expect(() => explain(wb, { caseIndex: 0, year: 1, period: '3', key: 'dashboard.mrr' })).toThrow(ExplainError);
  });
});
