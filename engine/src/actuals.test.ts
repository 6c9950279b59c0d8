/**
 * Actuals, progress, difference, revisions, costs and the dashboard (MODEL.md sections 5 to 7) on the
 * actuals-revisions fixture: target ARR 36,000,000 (M1 = 3,000,000), ARPA 100,000 (2% churn), six ACT months with
 * orders 1, 1, 2, 2, 2, 3 and one churn in month 5, so customers run 1, 2, 4, 6, 7, 10.
 */
import { describe, expect, it } from 'vitest';
import { quarterColumn, yearColumn } from './layout';
import { CaseReader } from './read/cells';
import { buildFixture } from './testing';

const close = (actual: number | null | undefined, expected: number, digits = 6) =>
  expect(actual ?? Number.NaN).toBeCloseTo(expected, digits);

const wb = buildFixture('actuals-revisions');
const up = new CaseReader(wb, 0);
const down = new CaseReader(wb, 1);

describe('the actual view', () => {
  it('derives customers and MRR from entered orders, churn and ARPA', () => {
    // cumulative_t = cumulative_{t-1} + order - churn: 1, 2, 4, 6, 7, 10; MRR_6 = 10 x 100,000.
    expect([1, 2, 3, 4, 5, 6].map((t) => up.viewAt('cumulative', t))).toEqual([1, 2, 4, 6, 7, 10]);
    close(up.viewAt('mrr', 6), 1_000_000);
    // Month 1: revenue 100,000 - (100,000 + 500,000 + 800,000 + 300,000) = -1,600,000; cash 30,000,000 -> 28,400,000.
    close(up.viewAt('operating_income', 1), -1_600_000);
    close(up.viewAt('ending_cash_balance', 1), 28_400_000);
    // Revenue over six months 100k+200k+400k+600k+700k+1,000k = 3,000,000; costs 6 x 1,700,000 = 10,200,000.
    close(up.viewAt('ending_cash_balance', 6), 30_000_000 + 3_000_000 - 10_200_000);
  });

  it('marks ACT and EST months, and a quarter ACT only when all of its months are', () => {
    const grid = wb.monthlyGrid(0, 1, 'actual');
    expect(grid.map((c) => c.status).slice(0, 8)).toEqual(['ACT', 'ACT', 'ACT', 'ACT', 'ACT', 'ACT', 'ACT', 'ACT']);
    expect(grid[8]?.status).toBe('EST'); // M7
    expect(grid[16]?.status).toBe('EST'); // CY
    expect(grid[2]?.comment).toBe('Two deals slipped to April.');
  });
});

describe('progress and difference over ACT months only', () => {
  it('compares a month', () => {
    // Estimate MRR_6 = 3,000,000 x 6/12 = 1,500,000; progress = 1,000,000 / 1,500,000.
    const grid = wb.monthlyGrid(0, 1, 'progress');
    close(grid[6]?.values.mrr, 1_000_000 / 1_500_000);
    const value = wb.monthlyGrid(0, 1, 'difference_value');
    close(value[6]?.values.mrr, -500_000);
    const rate = wb.monthlyGrid(0, 1, 'difference_rate');
    close(rate[6]?.values.mrr, 1_000_000 / 1_500_000 - 1);
    expect(grid[8]?.values.mrr).toBeNull(); // M7 is EST
  });

  it('sums flows over the quarter and the ACT months of the year', () => {
    // Estimate orders: cumulative 2.5t; order_1 = 2.5, order_2 = 5 - 2.5 + 0.05 = 2.55, order_3 = 2.6 -> Q1 7.65;
    // order_4..6 = 2.65, 2.7, 2.75 -> Q2 8.1. Actual Q1 = 4, Q2 = 7, the year's ACT months 11.
    const grid = wb.monthlyGrid(0, 1, 'progress');
    close(grid[3]?.values.order, 4 / 7.65);
    close(grid[7]?.values.order, 7 / 8.1);
    close(grid[16]?.values.order, 11 / 15.75);
    // Q3 and Q4 hold no ACT month: nothing to compare.
    expect(grid[11]?.values.order).toBeNull();
  });

  it('recomputes rates over the ACT months, never averaging them', () => {
    // Q2 actual churn rate = churn (0 + 1 + 0) / customers at the start (4 + 6 + 7) = 1/17; estimate 2%.
    close(up.cell(up.layout.sheets.actualToDate ?? '', 'churn_cvr', quarterColumn(1, 2)), 1 / 17);
    close(wb.monthlyGrid(0, 1, 'progress')[7]?.values.churn_cvr, 1 / 17 / 0.02);
    // Year to date: churn 1 / (0 + 1 + 2 + 4 + 6 + 7) = 1/20.
    close(up.cell(up.layout.sheets.actualToDate ?? '', 'churn_cvr', yearColumn(1)), 1 / 20);
  });
});

describe('budget revision', () => {
  it("upward keeps the year's ARR goal, spreading the gap over the remaining months", () => {
    // MRR_t = 1,000,000 + (3,000,000 - 1,000,000) x (t - 6) / 6: month 9 = 2,000,000, month 12 = 3,000,000.
    close(up.viewAt('mrr', 9), 2_000_000);
    close(up.viewAt('mrr', 12), 3_000_000);
    close(up.cell(up.viewSheet, 'arr', yearColumn(1)), 36_000_000);
    // Month 7: MRR 1,333,333.33, customers 13.33; churn from the actual 10 customers x 2% = 0.2;
    // new customers 13.333 - 10 + 0.2 = 3.5333.
    close(up.viewAt('cumulative', 7), 40 / 3);
    close(up.viewAt('churn', 7), 0.2);
    close(up.viewAt('order', 7), 40 / 3 - 10 + 0.2);
  });

  it('downward applies the latest under-achievement to every remaining month', () => {
    // Ratio 1,000,000 / 1,500,000 = 2/3: month 9 = 2,250,000 x 2/3 = 1,500,000; month 12 = 2,000,000; ARR 24,000,000.
    close(down.viewAt('mrr', 9), 1_500_000);
    close(down.viewAt('mrr', 12), 2_000_000);
    close(down.cell(down.viewSheet, 'arr', yearColumn(1)), 24_000_000);
  });

  it('leaves months after the revised year on the estimate', () => {
    // Month 13 = 3,000,000 x 3^(1/12).
    close(up.viewAt('mrr', 13), 3_000_000 * 3 ** (1 / 12), 4);
    close(up.viewAt('mrr', 13), up.estimateAt('mrr', 13) ?? 0, 6);
  });
});

describe('cost items against their budgets', () => {
  const y1 = wb.costs(0)[0];

  it('totals items over their terms and flags the group over budget, naming the item', () => {
    // Search ads 1,500,000 x 12 = 18,000,000 against S&M budget 19,500,000 x 38% = 7,410,000 -> 242.9%.
    close(y1?.groups.sm.total, 18_000_000);
    close(y1?.groups.sm.budget, 19_500_000 * 0.38, 4);
    close(y1?.groups.sm.budgetary_averages, (18_000_000 / 7_410_000) * 100, 4);
    close(y1?.groups.sm.remaining_budget, 7_410_000 - 18_000_000, 4);
    expect(y1?.groups.sm.over_budget).toBe(true);
    expect(y1?.groups.sm.over_budget_items).toEqual(['Search ads']);
    // Engineers 800,000 from April 2026 to March 2027: 9 months in Y1 (7,200,000), 3 in Y2 (2,400,000).
    close(y1?.groups.rd.total, 7_200_000);
    close(wb.costs(0)[1]?.groups.rd.total, 2_400_000);
    expect(y1?.groups.rd.detail[0]?.monthly.slice(0, 4)).toEqual([0, 0, 0, 800_000]);
    // COGS has no items: nothing spent, the whole budget remains.
    expect(y1?.groups.cogs.over_budget).toBe(false);
    close(y1?.groups.all.total, 25_200_000);
  });
});

describe('the dashboard', () => {
  const d = wb.dashboard(0);

  it('reads the latest actual and averages over the last 3, 6 and 12 months', () => {
    expect(d.latest_actual_month).toBe(6);
    close(d.metrics.mrr?.latest_value, 1_000_000);
    // Orders of months 4..6: (2 + 2 + 3) / 3; all six months: 11 / 6; a 12-month window has only six months so far.
    close(d.metrics.order?.ave_three_monthes, 7 / 3);
    close(d.metrics.order?.ave_six_monthes, 11 / 6);
    close(d.metrics.order?.ave_twelve_monthes, 11 / 6);
    // Churn rate over months 4..6, recomputed: 1 / (4 + 6 + 7).
    close(d.metrics.churn_cvr?.ave_three_monthes, 1 / 17);
    // MRR progress: 1,000,000 of the year-end 3,000,000.
    close(d.mrr_progress.progress_percent, 100 / 3);
    close(d.mrr_progress.goal, 3_000_000);
  });

  it("achieves part of the fiscal year: year-to-date actual over the whole year's plan", () => {
    // Orders: 11 so far against the year's estimate; the estimate's year total is read from the workbook.
    close(d.metrics.order?.fiscal_year_achieved, 11 / (up.estimateYear('order', 1) ?? 1));
  });

  it('counts the runway from the latest actual month to the first month of negative cash', () => {
    const down = wb.dashboard(1);
    const cash = down.metrics.cash_balance?.forecast ?? [];
    const first = cash.findIndex((v) => (v ?? 0) < 0) + 1;
    expect(first).toBeGreaterThan(6);
    expect(down.cash_out?.t).toBe(first);
    expect(down.forecast_monthes).toBe(first - 6);
    // The upward case burns nothing after its actuals (costs at 100% of revenue): no cash-out.
    expect(d.cash_out).toBeNull();
  });
});

describe('a month with some actual values entered', () => {
  it('takes the forecast of the month for every value not entered, never 0', () => {
    const partial = buildFixture('actuals-revisions');
    // Month 7 of the estimate: MRR 3,000,000 x 7/12 = 1,750,000, customers 17.5; churn = 15 x 2% = 0.3;
    // new customers 17.5 - 15 + 0.3 = 2.8; meetings 2.8 / 27% = 10.370; leads / 36% = 28.807; sessions / 7% = 411.52;
    // revenue 1,750,000: COGS 30% = 525,000, S&M 38% = 665,000, R&D 21% = 367,500, G&A 11% = 192,500; head count
    // ROUNDUP(1,750,000 x 12 / 5,000,000) = 5.
    partial.apply({ type: 'actual', caseIndex: 0, month: 7, values: { arpa: 120_000 } });
    expect(partial.plan.cases[0]?.actuals['7']).toEqual({ status: 'ACT', arpa: 120_000 });
    const r = new CaseReader(partial, 0);
    expect(partial.monthlyGrid(0, 1, 'actual')[8]?.status).toBe('ACT');
    close(r.viewAt('order', 7), 2.8);
    close(r.viewAt('churn', 7), 0.3);
    close(r.viewAt('meeting', 7), 2.8 / 0.27);
    close(r.viewAt('lead', 7), 2.8 / 0.27 / 0.36);
    close(r.viewAt('session', 7), 2.8 / 0.27 / 0.36 / 0.07);
    close(r.viewAt('cogs', 7), 525_000);
    close(r.viewAt('sm', 7), 665_000);
    close(r.viewAt('rd', 7), 367_500);
    close(r.viewAt('ga', 7), 192_500);
    close(r.viewAt('professional_service', 7), 0);
    close(r.viewAt('employees', 7), 5);
    // The entered ARPA counts: customers run on from the actual 10 of month 6: 10 + 2.8 - 0.3 = 12.5; MRR 12.5 x
    // 120,000 = 1,500,000; operating income 1,500,000 - 525,000 - 665,000 - 367,500 - 192,500 = -250,000.
    close(r.viewAt('arpa', 7), 120_000);
    close(r.viewAt('cumulative', 7), 12.5);
    close(r.viewAt('mrr', 7), 1_500_000);
    close(r.viewAt('operating_income', 7), -250_000);
    // Cash continues the chain from month 6: ending 22,800,000 - 250,000.
    close(r.viewAt('ending_cash_balance', 7), 30_000_000 + 3_000_000 - 10_200_000 - 250_000);
  });

  it('reads a value cleared from an ACT month as the forecast again', () => {
    const cleared = buildFixture('actuals-revisions');
    // Month 6 entered COGS 100,000; the estimate's is 30% of 3,000,000 x 6/12 = 450,000.
    close(new CaseReader(cleared, 0).viewAt('cogs', 6), 100_000);
    cleared.apply({ type: 'actual', caseIndex: 0, month: 6, values: { cogs: null } });
    close(new CaseReader(cleared, 0).viewAt('cogs', 6), 450_000);
  });
});
