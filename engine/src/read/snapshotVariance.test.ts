import { describe, expect, it } from 'vitest';
import { loadFixture } from '../testing';
import { PlanWorkbook } from '../workbook';
import { monthlyPlYearSchema } from './monthly';
import {
  againstSnapshot,
  type PlanOfRecord,
  snapshotCaseIndex,
  snapshotGrid,
  snapshotMismatch,
} from './snapshotVariance';

const AS_OF = { asOf: { year: 2026, month: 11 } };
type PlanFile = { arr: number; start_month: number; cases: Record<string, unknown>[] };

/**
 * The live plan: `actuals-revisions` (ARR target 36M, ARPA 100,000, ACT months 1..6, an upward revision at month 6).
 * The plan of record: the same plan saved when its target was 72M, before any actual.
 */
const liveFile = loadFixture('actuals-revisions') as PlanFile;
const live = PlanWorkbook.build(liveFile, AS_OF);
const snapshotFile = structuredClone(liveFile);
snapshotFile.arr = 72_000_000;
for (const c of snapshotFile.cases) {
  delete c.actuals;
  delete c.revisions;
}
const snapshot = PlanWorkbook.build(snapshotFile, AS_OF);
const record: PlanOfRecord = { workbook: snapshot, caseIndex: snapshotCaseIndex(live, 0, snapshot) };

const at = (columns: ReturnType<typeof snapshotGrid>, column: string) => {
  const found = columns.find((c) => c.column === column);
  if (!found) throw new Error(`no column ${column}`);
  return found;
};

describe('the monthly P&L against a snapshot', () => {
  // The snapshot's estimate (MODEL.md section 3, P = 12): MRR_t = 72M / 12 x t / 12 = 500,000 t; no professional
  // service by default, so revenue = MRR. Y1 revenue = 500,000 x 78 = 39M; Q1 = 500,000 x 6 = 3M.
  // The live actual view (section 5): customers 1, 2, 4, 6, 7, 10 after months 1..6 (orders less churn), MRR = 100,000
  // each: revenue 0.1, 0.2, 0.4, 0.6, 0.7, 1.0 M (Q1 0.7M). Section 6, upward from month 6 to the live target's
  // 3M MRR at month 12: MRR_t = 1M + 2M x (t - 6) / 6, so months 7..12 are 1.333.., 1.667, 2, 2.333, 2.667, 3 M
  // (13M); the year is 3M + 13M = 16M.
  it('compares the actuals and the live forecast with the snapshot estimate per month, quarter and year', () => {
    const progress = snapshotGrid(live, 0, record, 1, 'progress');
    expect(at(progress, 'M1').values.revenue).toBeCloseTo(0.2, 12);
    expect(at(progress, 'M3').values.revenue).toBeCloseTo(400_000 / 1_500_000, 12);
    expect(at(progress, 'Q1').values.revenue).toBeCloseTo(700_000 / 3_000_000, 12);
    // A forecast month: the revised 1,333,333.33 against 3.5M.
    expect(at(progress, 'M7').values.revenue).toBeCloseTo(4_000_000 / 3 / 3_500_000, 12);
    expect(at(progress, 'CY').values.revenue).toBeCloseTo(16 / 39, 12);
    // A stock: customers at the year end, 30 (3M / 100,000) against 60 (6M / 100,000).
    expect(at(progress, 'CY').values.cumulative).toBeCloseTo(0.5, 12);
    expect(at(progress, 'M1').status).toBe('ACT');
    expect(at(progress, 'M7').status).toBe('EST');

    const value = snapshotGrid(live, 0, record, 1, 'difference_value');
    expect(at(value, 'M1').values.revenue).toBeCloseTo(-400_000, 6);
    expect(at(value, 'Q1').values.revenue).toBeCloseTo(-2_300_000, 6);
    expect(at(value, 'CY').values.revenue).toBeCloseTo(-23_000_000, 6);
    expect(at(value, 'CY').values.arr).toBeCloseTo(36_000_000 - 72_000_000, 6);

    const rate = snapshotGrid(live, 0, record, 1, 'difference_rate');
    expect(at(rate, 'M1').values.revenue).toBeCloseTo(-0.8, 12);
    expect(at(rate, 'CY').values.revenue).toBeCloseTo(16 / 39 - 1, 12);
  });

  it('foots counts: a difference is the shown actual less the shown budget, periods the sum of their months', () => {
    const value = snapshotGrid(live, 0, record, 1, 'difference_value');
    const actual = live.monthlyGrid(0, 1, 'actual');
    const budget = snapshot.monthlyGrid(record.caseIndex, 1, 'estimate');
    const months = value.filter((c) => c.monthType === 'month');
    for (const c of months) {
      const shown = (at(actual, c.column).values.order ?? 0) - (at(budget, c.column).values.order ?? 0);
      expect(c.values.order).toBe(shown);
    }
    // Orders entered in Q1: 1 + 1 + 2 = 4 against the budget's 5 a month (its customers grow by 5 a month; no churn
    // in month 1): -4, -4, -3, and the quarter their sum -11.
    expect(months.slice(0, 3).map((c) => c.values.order)).toEqual([-4, -4, -3]);
    expect(at(value, 'Q1').values.order).toBe(-11);
    const sum = months.reduce((total, c) => total + (c.values.order ?? 0), 0);
    expect(at(value, 'CY').values.order).toBe(sum);
  });

  it('shows a dash where the budget it divides by is zero up to residue', () => {
    // The snapshot has no professional service and, with the default costs of 100 % of revenue, breaks even.
    const progress = snapshotGrid(live, 0, record, 1, 'progress');
    expect(at(progress, 'M1').values.professional_service).toBeNull();
    expect(at(progress, 'M1').dashes).toContain('professional_service');
    expect(at(progress, 'CY').dashes).toContain('operating_income');
    // Money differences of zero are 0, never a dash.
    const value = snapshotGrid(live, 0, record, 1, 'difference_value');
    expect(at(value, 'M1').values.professional_service).toBe(0);
    expect(at(value, 'M1').dashes ?? []).not.toContain('professional_service');
  });

  it("replaces the monthly P&L answer's progress and difference, with their dashes, and keeps the rest", () => {
    const [year] = live.monthlyPl(0, 1);
    if (!year) throw new Error('no year');
    const compared = againstSnapshot(live, 0, record, year);
    expect(monthlyPlYearSchema.parse(compared)).toEqual(compared);
    expect(compared.estimate).toEqual(year.estimate);
    expect(compared.actual).toEqual(year.actual);
    expect(compared.progress.yearly.revenue).toBeCloseTo(16 / 39, 12);
    expect(compared.difference.value.quarterly[0]?.revenue).toBeCloseTo(-2_300_000, 6);
    // Every month is compared: the live answer compares the ACT months only.
    expect(year.progress.monthly[6]?.revenue).toBeNull();
    expect(compared.progress.monthly[6]?.revenue).toBeCloseTo(4_000_000 / 3 / 3_500_000, 12);
    expect(compared.dashes).toContain('progress.monthly.0.professional_service');
    expect(compared.dashes?.filter((p) => p.startsWith('estimate.'))).toEqual(
      year.dashes?.filter((p) => p.startsWith('estimate.')),
    );
  });

  it("reads the snapshot's case of the live case's name, else at its place, else its first", () => {
    expect(snapshotCaseIndex(live, 1, snapshot)).toBe(1);
    const renamed = structuredClone(snapshotFile);
    (renamed.cases[0] as { case_name: string }).case_name = 'Board';
    (renamed.cases[1] as { case_name: string }).case_name = 'Upward';
    const other = PlanWorkbook.build(renamed, AS_OF);
    expect(snapshotCaseIndex(live, 0, other)).toBe(1);
    const single = structuredClone(snapshotFile);
    single.cases = [{ ...single.cases[0], case_name: 'Only' }];
    expect(snapshotCaseIndex(live, 1, PlanWorkbook.build(single, AS_OF))).toBe(0);
  });

  it('refuses a snapshot whose months are not the live plan months', () => {
    expect(snapshotMismatch(live, snapshot)).toBeNull();
    const moved = structuredClone(snapshotFile);
    moved.start_month = 4;
    expect(snapshotMismatch(live, PlanWorkbook.build(moved, AS_OF))).toMatch(/starts in 2026-04/);
  });
});
