/**
 * The estimate (MODEL.md sections 3 and 4) checked against numbers worked out by hand, with the arithmetic beside
 * each assertion.
 */
import { describe, expect, it } from 'vitest';
import { monthColumn, quarterColumn, yearColumn } from './layout';
import { CaseReader } from './read/cells';
import { buildFixture } from './testing';

const close = (actual: number | null, expected: number, digits = 6) => expect(actual).toBeCloseTo(expected, digits);

describe('saas, JPY, T2D3, the wizard defaults (saas-jpy-t2d3)', () => {
  const wb = buildFixture('saas-jpy-t2d3');
  const r = new CaseReader(wb, 0);
  const est = (key: string, t: number) => r.estimateAt(key, t);

  it('ramps MRR straight to the first target over the period', () => {
    // M1 = 5,000,000 / 12 = 416,666.67; MRR_1 = M1 x 1/12; MRR_12 = M1.
    close(est('mrr', 1), 5_000_000 / 12 / 12);
    close(est('mrr', 12), 5_000_000 / 12);
  });

  it('grows steadily between the year-end anchors so each year meets its T2D3 target', () => {
    // T2 = 5M x 3 = 15M, T3 = 45M, T6 = 45M x 2 x 2 x 2 = 360M; MRR_18 = M1 x 3^(6/12).
    const pl = wb.annualPl(0);
    expect(pl.map((y) => Math.round(y.arr ?? 0))).toEqual([5e6, 15e6, 45e6, 90e6, 180e6, 360e6]);
    close(est('mrr', 18), (5_000_000 / 12) * Math.sqrt(3));
  });

  it('works back from MRR to customers and the funnel with the default rates', () => {
    // cumulative_1 = 34,722.22 / 15,000 = 2.3148; order_1 = 2.3148; meeting = order / 27%; lead = / 36%; session = / 7%.
    const c1 = 5_000_000 / 12 / 12 / 15_000;
    close(est('cumulative', 1), c1);
    close(est('order', 1), c1);
    close(est('meeting', 1), c1 / 0.27);
    close(est('lead', 1), c1 / 0.27 / 0.36);
    close(est('session', 1), c1 / 0.27 / 0.36 / 0.07, 4);
    // ARPA 15,000 is under 50,000 JPY, so churn defaults to 3%: churn_2 = 2.3148 x 3% = 0.069444;
    // order_2 = 4.6296 - 2.3148 + 0.069444 = 2.38426.
    close(est('churn', 2), c1 * 0.03);
    close(est('order', 2), 2 * c1 - c1 + c1 * 0.03);
  });

  it('sums flows, keeps stocks at the last month and recomputes rates for quarters and years', () => {
    const sheet = r.layout.sheets.estimate;
    // Q1 revenue = MRR_1 + MRR_2 + MRR_3 = M1 x (1+2+3)/12 = 208,333.33; Q1 MRR = MRR_3 = 104,166.67.
    close(r.cell(sheet, 'revenue', quarterColumn(1, 1)), ((5_000_000 / 12) * 6) / 12);
    close(r.cell(sheet, 'mrr', quarterColumn(1, 1)), ((5_000_000 / 12) * 3) / 12);
    // Q1 churn rate = (0 + 0.0694 + 0.1389) / (0 + 2.3148 + 4.6296) = 3%, recomputed from the sums.
    close(r.cell(sheet, 'churn_cvr', quarterColumn(1, 1)), 0.03);
    // Y1 revenue = M1 x (1 + ... + 12) / 12 = 416,666.67 x 6.5 = 2,708,333.33; COGS 30% = 812,500.
    const y1 = wb.annualPl(0)[0];
    close(y1?.revenue ?? null, 2_708_333.333333, 4);
    close(y1?.cogs ?? null, 812_500, 4);
    // Y1 ARPA = last MRR / last customers = 15,000; the year's lead rate stays 7%.
    close(r.cell(sheet, 'arpa', yearColumn(1)), 15_000);
    close(r.cell(sheet, 'lead_cvr', yearColumn(1)), 0.07);
    // Beginning cash of a quarter is its first month's; the month 1 balance is 0 by default.
    expect(r.cell(sheet, 'beginning_cash_balance', quarterColumn(1, 2))).toBe(est('beginning_cash_balance', 4));
  });

  it('counts heads by ARR per 5,000,000 JPY, at least one', () => {
    // Y1: 5M / 5M = 1; Y2: 15M / 5M = 3; Y3: 45M / 5M = 9.
    expect(wb.annualPl(0).map((y) => y.employees)).toEqual([1, 3, 9, 18, 36, 72]);
  });

  it('leaves the first month revenue growth and undefined ratios blank, not errors', () => {
    expect(est('revenue_rate', 1)).toBeNull();
    // No churn before month 2, so LTV (ARPA x margin / churn) has no value in month 1.
    expect(est('ltv', 1)).toBeNull();
    expect(est('ltv_cac', 1)).toBeNull();
    // Revenue growth month 2 = 69,444 / 34,722 - 1 = 100%.
    close(est('revenue_rate', 2), 1);
  });

  it('has no cash-out when costs eat exactly the revenue', () => {
    const d = wb.dashboard(0);
    expect(d.cash_out).toBeNull();
    expect(d.forecast_monthes).toBeNull();
  });
});

describe('selfserve, USD, period 6, a custom model (selfserve-usd-custom)', () => {
  const wb = buildFixture('selfserve-usd-custom');
  const r = new CaseReader(wb, 0);
  const est = (key: string, t: number) => r.estimateAt(key, t);

  it('reaches the first target at month 6 and grows between mid-year anchors', () => {
    // M1 = 600,000 / 12 = 50,000; MRR_3 = 50,000 x 3/6 = 25,000; MRR_6 = 50,000.
    close(est('mrr', 3), 25_000);
    close(est('mrr', 6), 50_000);
    // Anchor a_1 = 6, a_2 = 18: MRR_12 = 50,000 x (125,000 / 50,000)^(6/12) = 79,056.94; MRR_18 = M2 = 125,000.
    close(est('mrr', 12), 50_000 * Math.sqrt(2.5), 4);
    close(est('mrr', 18), 125_000, 4);
    // Past the last anchor (a_6 = 66): T4 = 3,000,000 x 1.8 = 5.4M, T5 = 8.1M, T6 = 10.53M; M5 = 675,000,
    // M6 = 877,500; MRR_72 = 877,500 x (877,500 / 675,000)^(6/12) = 877,500 x 1.3^0.5.
    close(est('mrr', 72), 877_500 * Math.sqrt(1.3), 4);
  });

  it('uses registrations and the paid rate instead of leads and meetings', () => {
    // ARPA 50 USD is under 500 USD: churn 3%. order_1 = (50,000/6) / 50 = 166.67; registration = / 25%; session = / 10%.
    const o1 = 50_000 / 6 / 50;
    close(est('order', 1), o1);
    close(est('registration', 1), o1 / 0.25);
    close(est('session', 1), o1 / 0.25 / 0.1);
    expect(est('lead', 1)).toBeNull();
    close(r.estimateAt('churn', 2), o1 * 0.03);
    const kpiY1 = wb.kpi(0)[0];
    expect(kpiY1?.monthly[0]).toHaveProperty('registration_cvr');
    expect(kpiY1?.monthly[0]).not.toHaveProperty('lead');
  });

  it('counts heads by ARR per 50,000 USD', () => {
    // Month 12: ARR = 79,056.94 x 12 = 948,683.3; / 50,000 = 18.97 -> 19.
    close(est('employees', 12), 19);
  });
});

describe('three cases with per-year overrides (three-cases)', () => {
  const wb = buildFixture('three-cases');
  const [base, ideal, prudent] = [0, 1, 2].map((c) => wb.annualPl(c));

  it('chains later targets from an ARR override', () => {
    // Base: T1 = 100M, T2 = 300M, T3 = override 1,000M, T4 = 1,000M x 2 = 2,000M, T6 = 8,000M.
    expect(base?.map((y) => Math.round(y.arr ?? 0))).toEqual([1e8, 3e8, 1e9, 2e9, 4e9, 8e9]);
    // Ideal x2 with Salesforce: T1 = 200M, T2 = 200M x 4.4 = 880M. Prudent x0.5 with Sansan: 50M, 80M.
    expect(Math.round(ideal?.[1]?.arr ?? 0)).toBe(880_000_000);
    expect(Math.round(prudent?.[1]?.arr ?? 0)).toBe(80_000_000);
  });

  it("applies a year's cost rate override and carries required cash", () => {
    // Base Y1 revenue = 8,333,333.33 x 6.5 = 54,166,666.67; costs 30% + 90% + 21% + 11% = 152%:
    // operating income = -52% = -28,166,666.67; the deepest cumulative loss by Y1 and by Y2 (Y2 at 100%, ~0) is that.
    close(base?.[0]?.revenue ?? null, 54_166_666.666667, 3);
    close(base?.[0]?.operating_pl ?? null, -28_166_666.666667, 3);
    close(base?.[0]?.required_cash ?? null, 28_166_666.666667, 3);
    close(base?.[1]?.required_cash ?? null, 28_166_666.666667, 3);
    close(base?.[0]?.sm_rate ?? null, 0.9);
    // Ideal Y1: revenue 108,333,333.33, COGS 25% = 27,083,333.33, operating margin 1 - .25 - .38 - .21 - .11 = 5%.
    close(ideal?.[0]?.cogs ?? null, 27_083_333.333333, 3);
    close(ideal?.[0]?.operating_pl_rate ?? null, 0.05);
  });

  it('applies an employees override and per-head figures from it', () => {
    // Base Y3: 40 heads; ARR per head = 1,000,000,000 / 40 = 25,000,000.
    expect(base?.[2]?.employees).toBe(40);
    close(base?.[2]?.arr_per_headcount ?? null, 25_000_000);
  });

  it('steps ARPA up from the upselling month and chains it into the next year', () => {
    const r = new CaseReader(wb, 0);
    // Y2 ARPA defaults to Y1's 50,000; +10% from month 7 of Y2 (t = 19); Y3 starts at 55,000.
    close(r.estimateAt('arpa', 18), 50_000);
    close(r.estimateAt('arpa', 19), 55_000);
    close(r.estimateAt('arpa', 25), 55_000);
    // Y1 churn override 2%: churn_2 = cumulative_1 x 2%.
    close(r.estimateAt('churn', 2), (100_000_000 / 12 / 12 / 50_000) * 0.02);
  });

  it("defaults churn by the year's ARPA band", () => {
    // Prudent Y2 ARPA 60,000 JPY: between 50,000 and 200,000, so 2%; Y1 at 50,000 is not under 50,000: 2% too.
    const kpi = wb.kpi(2);
    close(kpi[0]?.assumptions.churn_rate ?? null, 0.02);
    close(kpi[1]?.assumptions.churn_rate ?? null, 0.02);
    close(kpi[1]?.arpa ?? null, 60_000);
  });

  it('carries cash from the beginning balance and equity raised', () => {
    const r = new CaseReader(wb, 0);
    // Ending cash Y1 = 50,000,000 + 100,000,000 (month 7) - 28,166,666.67 = 121,833,333.33.
    close(r.cell(r.layout.sheets.estimate, 'ending_cash_balance', yearColumn(1)), 121_833_333.333333, 3);
    close(r.estimateAt('equity_raised', 7), 100_000_000);
    close(r.cell(r.layout.sheets.estimate, 'equity_raised', quarterColumn(1, 3)), 100_000_000);
    expect(r.estimateAt('beginning_cash_balance', 1)).toBe(50_000_000);
    expect(r.estimateAt('beginning_cash_balance', 2)).toBe(
      r.cell(r.layout.sheets.estimate, 'ending_cash_balance', monthColumn(1)),
    );
  });
});
