import { describe, expect, it } from 'vitest';
import { monthColumn, yearColumn } from '../layout';
import { snapshotCaseIndex } from '../read/snapshotVariance';
import { loadFixture } from '../testing';
import { PlanWorkbook } from '../workbook';
import { snapshotSheet } from './snapshotSheet';

const AS_OF = { asOf: { year: 2026, month: 11 } };

describe("a case's VsSnapshot sheet", () => {
  // As engine/src/read/snapshotVariance.test.ts: actuals-revisions live, saved when its target was 72M.
  const liveFile = loadFixture('actuals-revisions') as { arr: number; cases: Record<string, unknown>[] };
  const live = PlanWorkbook.build(liveFile, AS_OF);
  const file = structuredClone(liveFile);
  file.arr = 72_000_000;
  const snapshot = PlanWorkbook.build(file, AS_OF);
  const sheet = snapshotSheet(
    live,
    0,
    { workbook: snapshot, caseIndex: snapshotCaseIndex(live, 0, snapshot) },
    'Board',
  );
  const rowOf = (block: string, label: string) => {
    const start = sheet.grid.findIndex((r) => r[0] === block);
    return start + 1 + sheet.grid.slice(start + 1).findIndex((r) => r[0] === label);
  };

  it("holds the snapshot's estimate as constants and compares the actual view with it in formulas", () => {
    expect(sheet.name).toBe('C1_VsSnapshot');
    expect(sheet.grid[0]?.[0]).toBe('Snapshot: Board');
    const budget = rowOf('snapshot_estimate', 'Revenue');
    // The snapshot's April revenue: 72M / 12 x 1/12 = 500,000; the year 500,000 x 78 = 39M.
    expect(sheet.grid[budget]?.[monthColumn(1)]).toBeCloseTo(500_000, 6);
    expect(sheet.values?.[budget]?.[yearColumn(1)]).toBeCloseTo(39_000_000, 4);
    const progress = rowOf('progress', 'Revenue');
    const formula = String(sheet.grid[progress]?.[monthColumn(1)]);
    expect(formula).toMatch(/^=IF\(OR\(C1_Actual!/);
    expect(formula).toContain(`/B${budget + 1}`);
    // 100,000 of actual revenue against 500,000; the year 16M (actuals and the revised forecast) against 39M.
    expect(sheet.values?.[progress]?.[monthColumn(1)]).toBeCloseTo(0.2, 12);
    expect(sheet.values?.[progress]?.[yearColumn(1)]).toBeCloseTo(16 / 39, 12);
    const difference = rowOf('difference_value', 'Revenue');
    expect(sheet.values?.[difference]?.[yearColumn(1)]).toBeCloseTo(-23_000_000, 4);
    expect(sheet.textOf(0, 0)).toBe('Snapshot: Board');
  });
});
