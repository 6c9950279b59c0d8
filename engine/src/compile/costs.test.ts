import { describe, expect, it } from 'vitest';
import { sheetsGrid } from '../export/sheets';
import { PLAN_YEARS, type PlanFileInput } from '../schema';
import { loadFixture } from '../testing';
import { PlanWorkbook } from '../workbook';

describe('a cost item name', () => {
  /**
   * Names HyperFormula would otherwise read as a formula (one that fails, one that does not parse, one that refers to
   * a cell), a number, a percentage, or text without its leading apostrophe.
   */
  const NAMES = ['=1/0', '=SUM(', '=A1', '=HYPERLINK("http://x","y")', "'quoted", '100', '50%'];

  it('is text in the workbook whatever it starts with, and the exports write it as it is', () => {
    const plan = structuredClone(loadFixture('actuals-revisions')) as PlanFileInput;
    const c = plan.cases[0];
    const base = c?.cost_items?.[0];
    if (!c || !base) throw new Error('the fixture has no cost item');
    c.cost_items = NAMES.map((item_name, i) => ({ ...base, cost_id: `n${i}`, item_name }));
    const wb = PlanWorkbook.build(plan, { asOf: { year: 2026, month: 11 } });
    const layout = wb.caseLayout(0);
    const sheet = layout.sheets.costs;
    // No cell of the workbook fails: a failing one would throw here.
    for (const name of wb.sheetNames()) wb.sheetValues(name);
    const values = wb.sheetValues(sheet);
    const exported = sheetsGrid(wb).sheets.find((s) => s.title === sheet);
    NAMES.forEach((name, n) => {
      const row = layout.costs.itemRows[n] ?? 0;
      expect(wb.value(sheet, row, 0)).toBe(name);
      expect(values[row]?.[0]).toBe(name);
      expect(exported?.rows[row]?.[0]).toEqual({ value: name });
    });
    // The plan's reads are whole: every item's spending and the groups' totals.
    const costs = wb.costs(0);
    expect(costs[0]?.groups.all.detail.map((d) => d.item_name)).toEqual(NAMES);
    expect(costs[0]?.groups.all.total).toBe(NAMES.length * base.price * 12);
    expect(wb.annualPl(0)).toHaveLength(PLAN_YEARS);
    expect(wb.dashboard(0).metrics.mrr?.estimate).toHaveLength(72);
    wb.destroy();
  });
});
