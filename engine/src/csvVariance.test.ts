import { describe, expect, it } from 'vitest';
import { monthlyCsv } from './csv';
import { buildFixture, loadFixture } from './testing';
import { PlanWorkbook } from './workbook';

/** The CSV's rows by their key (first column), cells as written. */
function rowsOf(csv: string): Map<string, string[]> {
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  return new Map(lines.map((line) => line.split(',')).map((cells) => [cells[0] ?? '', cells]));
}

describe('the monthly CSV of the variance view', () => {
  it('exports the difference in rates when the screen shows rates, in values otherwise', () => {
    const wb = buildFixture('actuals-revisions');
    // January 2026 (ACT): 1 customer x 100,000 ARPA = 100,000 MRR against the plan's 250,000.
    const rate = rowsOf(monthlyCsv(wb, 0, 1, 'difference_rate'));
    // 100,000 / 250,000 - 1 = -60%.
    expect(rate.get('mrr')?.[2]).toBe('-60.0%');
    // A rate row's difference rate is a percentage too, not percentage points.
    expect(rate.get('cogs_rate')?.[2]).toMatch(/^-?\d+\.\d%$/);
    const value = rowsOf(monthlyCsv(wb, 0, 1, 'difference'));
    // 100,000 - 250,000 = -150,000.
    expect(value.get('mrr')?.[2]).toBe('-150000');
    const progress = rowsOf(monthlyCsv(wb, 0, 1, 'progress'));
    expect(progress.get('mrr')?.[2]).toBe('40.0%');
  });

  it('leaves empty what the screen shows as a dash: a rate over a residue base', () => {
    // As in read/residue.test.ts: no cash and cost rates adding up to 100% make the plan's cash residue from t = 16.
    const plan = structuredClone(loadFixture('actuals-revisions')) as {
      cases: { actuals: Record<string, Record<string, number>>; revisions: unknown[] }[];
    };
    const c = plan.cases[0];
    if (!c) throw new Error('no case');
    for (const month of Object.values(c.actuals)) delete month.beginning_cash_balance;
    c.actuals['16'] = { cogs: 1_000_000 };
    c.revisions = [];
    const wb = PlanWorkbook.build(plan, { asOf: { year: 2026, month: 11 } });
    // Year 2's fourth month (t = 16) is the sixth column after item and label (M1 M2 M3 Q1 M4).
    const rate = rowsOf(monthlyCsv(wb, 0, 2, 'difference_rate'));
    expect(rate.get('ending_cash_balance')?.[6]).toBe('');
    expect(rate.get('revenue')?.[6]).toBe('0.0%');
    const progress = rowsOf(monthlyCsv(wb, 0, 2, 'progress'));
    expect(progress.get('ending_cash_balance')?.[6]).toBe('');
    // The plan's cash itself is 0, not -0 or residue.
    expect(rowsOf(monthlyCsv(wb, 0, 2, 'estimate')).get('ending_cash_balance')?.[6]).toBe('0');
  });
});
