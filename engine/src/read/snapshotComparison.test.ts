import { describe, expect, it } from 'vitest';
import { comparisonCsv } from '../comparisonCsv';
import { buildFixture, loadFixture } from '../testing';
import { PlanWorkbook } from '../workbook';
import { COMPARE_KEYS, comparedCaseSchema } from './caseComparison';
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

describe('the comparison CSV with a snapshot beside the cases', () => {
  const live = buildFixture('three-cases');
  const file = loadFixture('three-cases') as { arr: number };
  file.arr = 200_000_000;
  const snapshot = PlanWorkbook.build(file, AS_OF);

  it("ends each figure with the snapshot's row and its difference from the live base case", () => {
    const lines = comparisonCsv(live, 'en', { name: 'Board plan', workbook: snapshot })
      .replace('\uFEFF', '')
      .trim()
      .split('\r\n');
    const revenue = lines.filter((l) => l.startsWith('revenue,')).map((l) => l.split(','));
    // Three cases' values, two cases' differences and rates, then the snapshot's three rows.
    expect(revenue.map((r) => `${r[2]}|${r[3]}`)).toEqual([
      'Base case|value',
      'Ideal case|value',
      'Prudent case|value',
      'Ideal case|difference',
      'Ideal case|difference rate',
      'Prudent case|difference',
      'Prudent case|difference rate',
      'Board plan (snapshot)|value',
      'Board plan (snapshot)|difference',
      'Board plan (snapshot)|difference rate',
    ]);
    // Y1 revenue in yen: the snapshot's 108,333,333.33 at 200M, +54,166,666.67 and +100 % against the live base case.
    expect(revenue[7]?.[4]).toBe('108333333');
    expect(revenue[8]?.[4]).toBe('54166667');
    expect(revenue[9]?.[4]).toBe('100.0%');
    // Without a snapshot, the same file as before.
    expect(comparisonCsv(live, 'en')).toBe(comparisonCsv(live, 'en', undefined));
    expect(comparisonCsv(live, 'en').split('\r\n').length).toBe(lines.length + 1 - 3 * COMPARE_KEYS.length);
  });

  it('names the snapshot in Japanese in the Japanese file', () => {
    const csv = comparisonCsv(live, 'ja', { name: '取締役会計画', workbook: snapshot });
    expect(csv).toContain('revenue,売上高,取締役会計画（スナップショット）,値,');
  });
});
