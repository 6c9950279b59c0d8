import { describe, expect, it } from 'vitest';
import { loadFixture } from '../testing';
import { PlanWorkbook } from '../workbook';
import { comparedCaseSchema } from './caseComparison';
import { snapshotCompared } from './snapshotComparison';

const AS_OF = { asOf: { year: 2026, month: 11 } };

describe('the annual P&L against a snapshot', () => {
  // The live plan: three-cases (base target ARR 100M). The snapshot: the same plan when its target was 200M.
  const liveFile = loadFixture('three-cases') as { arr: number; cases: { case_name: string }[] };
  const live = PlanWorkbook.build(liveFile, AS_OF);
  const snapshotFile = structuredClone(liveFile);
  snapshotFile.arr = 200_000_000;
  const snapshot = PlanWorkbook.build(snapshotFile, AS_OF);
  const compared = snapshotCompared(live, snapshot);
  const y1 = compared.years[0];

  it("reads the snapshot's base case per plan year, with its difference from the live base case", () => {
    expect(comparedCaseSchema.parse(compared)).toEqual(compared);
    expect(compared.case_name).toBe('Base case');
    // MODEL.md section 3 with P = 12: Y1 revenue = T1 / 12 x 6.5; live 54,166,666.67, the snapshot's twice it.
    expect(y1?.values.revenue).toBeCloseTo(108_333_333.333333, 3);
    expect(y1?.difference?.revenue).toBeCloseTo(54_166_666.666667, 3);
    expect(y1?.difference_rate?.revenue).toBeCloseTo(1, 9);
    // Costs 152 % of revenue in both: operating income -52 %, -56,333,333.33 against -28,166,666.67: a loss twice as
    // deep, -28,166,666.67, -100 % of the live loss's size.
    expect(y1?.values.operating_pl).toBeCloseTo(-56_333_333.333333, 3);
    expect(y1?.difference?.operating_pl).toBeCloseTo(-28_166_666.666667, 3);
    expect(y1?.difference_rate?.operating_pl).toBeCloseTo(-1, 9);
    // The same margin: a difference of 0 points.
    expect(y1?.difference?.operating_pl_rate).toBeCloseTo(0, 12);
    // ARR at the year end: 200M against 100M.
    expect(y1?.values.arr).toBeCloseTo(200_000_000, 3);
  });
});
