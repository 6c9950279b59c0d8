/**
 * Edits change the workbook in place; afterwards every value must equal a workbook built afresh from the edited plan.
 */
import { describe, expect, it } from 'vitest';
import { EditError, type PlanEdit } from './edits';
import { CaseReader } from './read/cells';
import { PlanFileError } from './schema';
import { buildFixture, loadFixture } from './testing';
import { PlanWorkbook } from './workbook';

const asOf = { year: 2026, month: 11 };

function expectSameAsFresh(wb: PlanWorkbook): void {
  const fresh = PlanWorkbook.build(wb.plan, { asOf });
  expect(wb.sheetNames().sort()).toEqual(fresh.sheetNames().sort());
  for (const name of fresh.sheetNames()) expect(wb.sheetValues(name), name).toEqual(fresh.sheetValues(name));
  fresh.destroy();
}

describe('edits', () => {
  it("changes a year's churn in place and reports the case's read models as changed", () => {
    const wb = buildFixture('three-cases');
    const before = wb.annualPl(0)[0]?.revenue;
    const result = wb.apply({ type: 'year', caseIndex: 0, year: 1, key: 'churn_rate', value: 0.05 });
    // MRR follows the ARR path, so revenue holds while churn and new customers rise.
    expect(wb.annualPl(0)[0]?.revenue).toBeCloseTo(before ?? 0, 6);
    const r = new CaseReader(wb, 0);
    expect(r.estimateAt('churn', 2)).toBeCloseTo((100_000_000 / 12 / 12 / 50_000) * 0.05, 9);
    expect(result.cells).toBe(1);
    expect(result.changed.map((c) => c.caseIndex)).toEqual([0]);
    expect(result.changed[0]?.models).toContain('monthly');
    expectSameAsFresh(wb);
  });

  it('clears an override back to its default formula', () => {
    const wb = buildFixture('three-cases');
    wb.apply({ type: 'year', caseIndex: 0, year: 3, key: 'arr', value: null });
    // T3 = T2 x m2 = 300M x 3 = 900M again.
    expect(wb.annualPl(0)[2]?.arr).toBeCloseTo(900_000_000, 3);
    expectSameAsFresh(wb);
  });

  it('enters actuals, reverses a month, and revises the budget', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const months: PlanEdit[] = [1, 2, 3].map((t) => ({
      type: 'actual',
      caseIndex: 0,
      month: t,
      values: { order: 2, churn: 0, session: 400, lead: 25, meeting: 9, arpa: 15_000 },
    }));
    wb.apply(months);
    expect(wb.caseLayout(0).act).toEqual([1, 2, 3]);
    expectSameAsFresh(wb);
    wb.apply({ type: 'revise', caseIndex: 0, year: 1, pattern: 'downward' });
    expect(wb.plan.cases[0]?.revisions['1']).toEqual({ pattern: 'downward', month: 3 });
    // Downward: MRR_4 = estimate MRR_4 x actual MRR_3 / estimate MRR_3 = (M1 x 4/12) x (6 x 15,000) / (M1 x 3/12).
    const r = new CaseReader(wb, 0);
    expect(r.viewAt('mrr', 4)).toBeCloseTo((4 / 3) * 90_000, 6);
    expectSameAsFresh(wb);
    wb.apply({ type: 'reverse', caseIndex: 0, month: 3 });
    expect(wb.caseLayout(0).act).toEqual([1, 2]);
    expect(wb.plan.cases[0]?.actuals['3']?.order).toBe(2);
    expectSameAsFresh(wb);
  });

  it('adds and deletes cases, keeping one to three', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    wb.apply({ type: 'addCase', case: { case_name: 'Ideal case', case_rate: 2 } });
    expect(wb.annualPl(1)[0]?.arr).toBeCloseTo(10_000_000, 6);
    wb.apply({ type: 'addCase', case: { case_name: 'Prudent case', case_rate: 0.5 } });
    expect(() => wb.apply({ type: 'addCase', case: { case_name: 'Fourth' } })).toThrow(EditError);
    wb.apply({ type: 'deleteCase', caseIndex: 0 });
    expect(wb.plan.cases.map((c) => c.case_name)).toEqual(['Ideal case', 'Prudent case']);
    expectSameAsFresh(wb);
  });

  it('adds, edits and deletes cost items', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const item = {
      cost_id: 'a',
      item_title: 'ga_land_rent',
      item_name: 'Office',
      price: 100_000,
      start_year: 2026,
      start_month: 4,
      end_year: 2026,
      end_month: 6,
    };
    wb.apply({ type: 'costItem', caseIndex: 0, item });
    expect(wb.costs(0)[0]?.groups.ga.total).toBe(300_000);
    wb.apply({ type: 'costItem', caseIndex: 0, item: { ...item, end_month: 9 } });
    expect(wb.costs(0)[0]?.groups.ga.total).toBe(600_000);
    expectSameAsFresh(wb);
    wb.apply({ type: 'deleteCostItem', caseIndex: 0, costId: 'a' });
    expect(wb.costs(0)[0]?.groups.ga.total).toBe(0);
  });

  it('refuses an invalid edit and leaves the workbook as it was', () => {
    const wb = buildFixture('three-cases');
    const before = wb.sheetValues('C1_Estimate');
    expect(() => wb.apply({ type: 'year', caseIndex: 0, year: 1, key: 'churn_rate', value: 3 })).toThrow(PlanFileError);
    expect(() => wb.apply({ type: 'revise', caseIndex: 0, year: 1, pattern: 'upward' })).toThrow(EditError);
    expect(wb.sheetValues('C1_Estimate')).toEqual(before);
  });

  it("counts daily entries into the month's actual", () => {
    const plan = loadFixture('saas-jpy-t2d3') as Record<string, unknown>;
    const wb = PlanWorkbook.build(plan, { asOf });
    wb.apply([
      { type: 'daily', caseIndex: 0, date: '2026-04-03', metric: 'order', value: 2 },
      { type: 'daily', caseIndex: 0, date: '2026-04-10', metric: 'order', value: 1 },
      { type: 'daily', caseIndex: 0, date: '2026-05-01', metric: 'meeting', value: 4 },
      { type: 'actual', caseIndex: 0, month: 1, values: { churn: 0 } },
    ]);
    // April (month 1) has no entered order: the daily 2 + 1 count.
    expect(new CaseReader(wb, 0).viewAt('order', 1)).toBe(3);
    expectSameAsFresh(wb);
  });
});
