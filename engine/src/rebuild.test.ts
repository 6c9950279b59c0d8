import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits, type PlanEdit } from './edits';
import { parsePlanFile } from './schema';
import { PlanWorkbook } from './workbook';

const AS_OF = { year: 2026, month: 9 };
const plan = parsePlanFile(
  JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/plans/three-cases.json'), 'utf8')),
);

/** Plan year 1 of every case as an import sends it: every month's values. */
const yearOfActuals: PlanEdit[] = plan.cases.flatMap((_, caseIndex) =>
  Array.from({ length: 12 }, (_, i) => ({
    type: 'actual' as const,
    caseIndex,
    month: i + 1,
    values: { session: 1000 + i, order: 2 + (i % 3), churn: i % 2, arpa: 50_000, sm: 400_000 + 1_000 * i },
  })),
);

describe('a batch of edits that changes much', () => {
  it('builds the workbook afresh, with the figures of a fresh build of the edited plan', () => {
    const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
    const result = wb.apply(yearOfActuals);
    expect(result.rebuilt).toBe(true);
    expect(result.changed.map((c) => c.caseIndex)).toEqual([0, 1, 2]);
    const fresh = PlanWorkbook.build(applyEdits(plan, yearOfActuals), { asOf: AS_OF });
    expect(wb.sheetNames()).toEqual(fresh.sheetNames());
    for (const sheet of fresh.sheetNames()) expect(wb.sheetValues(sheet)).toEqual(fresh.sheetValues(sheet));
    for (let c = 0; c < plan.cases.length; c++) {
      expect(wb.annualPl(c)).toEqual(fresh.annualPl(c));
      expect(wb.monthlyGrid(c, 1, 'actual')).toEqual(fresh.monthlyGrid(c, 1, 'actual'));
    }
    // Later edits patch the rebuilt workbook as usual.
    const next = wb.apply({ type: 'actual', caseIndex: 0, month: 2, values: { order: 9 } });
    expect(next.rebuilt).toBeUndefined();
    expect(next.recompiled).toBe('none');
    wb.destroy();
    fresh.destroy();
  });

  it('patches a month of actuals', () => {
    const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
    const result = wb.apply({ type: 'actual', caseIndex: 1, month: 1, values: { order: 3 } });
    expect(result.rebuilt).toBeUndefined();
    expect(result.changed.map((c) => c.caseIndex)).toEqual([1]);
    wb.destroy();
  });
});
