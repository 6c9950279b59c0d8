/**
 * The comparison sheet's formulas, computed by HyperFormula over the engine's values of every other sheet, give the
 * comparison's figures and differences: live formulas over the cases' sheets, not copies of numbers.
 */
import ExcelJS from 'exceljs';
import { HyperFormula, type RawCellContent } from 'hyperformula';
import { describe, expect, it } from 'vitest';
import { caseComparison } from '../read/caseComparison';
import { buildFixture, loadFixture } from '../testing';
import { HYPERFORMULA_CONFIG, PlanWorkbook } from '../workbook';
import { COMPARISON_SHEET, comparisonSheet, exportComparisonXlsx } from './comparisonSheet';

const wb = buildFixture('three-cases');
const sheet = comparisonSheet(wb);

/** The sheet's row of a figure, case and kind. */
const rowOf = (key: string, caseName: string, kind: string) =>
  sheet.grid.findIndex((r) => r[0] === key && r[2] === caseName && r[3] === kind);

describe('the comparison sheet', () => {
  const data: Record<string, RawCellContent[][]> = {};
  for (const name of wb.sheetNames()) data[name] = wb.sheetValues(name);
  data[COMPARISON_SHEET] = sheet.grid;
  const hf = HyperFormula.buildFromSheets(data, HYPERFORMULA_CONFIG);
  const id = hf.getSheetId(COMPARISON_SHEET) ?? -1;
  const computed = (row: number, year: number) => {
    const v = hf.getCellValue({ sheet: id, row, col: 3 + year });
    return typeof v === 'number' ? v : v === '' || v === null ? null : String(v);
  };
  const { cases } = caseComparison(wb);

  it("reads each case's figures from its Estimate sheet", () => {
    expect(sheet.grid[rowOf('revenue', 'Ideal case', 'value')]?.[4]).toMatch(/^=C2_Estimate!|^='C2_Estimate'!/);
    for (const [index, c] of cases.entries()) {
      for (const year of [1, 2, 6]) {
        expect(computed(rowOf('arr', c.case_name, 'value'), year)).toBeCloseTo(c.years[year - 1]?.values.arr ?? 0, 4);
      }
      expect(index).toBe(c.case_index);
    }
  });

  it('computes each difference and rate as the comparison does, blank over a zero base', () => {
    // Ideal Y1 revenue: +54,166,666.67, +100 %; operating income +119.23 % (0.62 / 0.52); base Y2 operating income 0.
    expect(computed(rowOf('revenue', 'Ideal case', 'difference'), 1)).toBeCloseTo(54_166_666.666667, 3);
    expect(computed(rowOf('revenue', 'Ideal case', 'difference_rate'), 1)).toBeCloseTo(1, 9);
    expect(computed(rowOf('operating_pl', 'Ideal case', 'difference_rate'), 1)).toBeCloseTo(0.62 / 0.52, 9);
    expect(computed(rowOf('operating_pl', 'Ideal case', 'difference_rate'), 2)).toBeNull();
    for (const c of cases.slice(1)) {
      for (const year of [1, 3, 6]) {
        const rate = c.years[year - 1]?.difference_rate?.ending_cash ?? null;
        const got = computed(rowOf('ending_cash', c.case_name, 'difference_rate'), year);
        if (rate === null) expect(got).toBeNull();
        else expect(got).toBeCloseTo(rate, 9);
      }
    }
  });

  it('caches what its formulas compute', () => {
    for (let row = 1; row < sheet.grid.length; row++) {
      for (let year = 1; year <= 6; year++) {
        const cached = sheet.values?.[row]?.[3 + year] ?? null;
        const got = computed(row, year);
        if (typeof cached === 'number') expect(got).toBeCloseTo(cached, 6);
        else expect(got).toBe(cached);
      }
    }
  });

  it('is written into the XLSX as formulas beside the plan sheets', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await exportComparisonXlsx(wb)).buffer as ArrayBuffer);
    const ws = book.getWorksheet(COMPARISON_SHEET);
    expect(ws).toBeDefined();
    // The case sheets carry the case names (sheetNames.ts).
    expect(book.getWorksheet('Base case Estimate')).toBeDefined();
    const cell = ws?.getRow(rowOf('revenue', 'Ideal case', 'difference_rate') + 1).getCell(5);
    expect((cell?.value as ExcelJS.CellFormulaValue | undefined)?.formula).toContain('MAX(');
    expect(ws?.getRow(rowOf('revenue', 'Ideal case', 'value') + 1).getCell(3).value).toBe('Ideal case');
  });
});

describe('the comparison sheet with a snapshot beside the cases', () => {
  // The snapshot: the same plan when its target ARR was 200M (the live base case's is 100M).
  const file = loadFixture('three-cases') as { arr: number };
  file.arr = 200_000_000;
  const frozen = PlanWorkbook.build(file, { asOf: { year: 2026, month: 11 } });
  const withSnapshot = comparisonSheet(wb, { name: 'Board plan', workbook: frozen });
  const data: Record<string, RawCellContent[][]> = {};
  for (const name of wb.sheetNames()) data[name] = wb.sheetValues(name);
  data[COMPARISON_SHEET] = withSnapshot.grid;
  const hf = HyperFormula.buildFromSheets(data, HYPERFORMULA_CONFIG);
  const id = hf.getSheetId(COMPARISON_SHEET) ?? -1;
  const row = (key: string, kind: string) =>
    withSnapshot.grid.findIndex((r) => r[0] === key && r[2] === 'Board plan (snapshot)' && r[3] === kind);
  const computed = (r: number, year: number) => hf.getCellValue({ sheet: id, row: r, col: 3 + year });

  it("writes the snapshot's figures as they stand and its differences from the base case as formulas", () => {
    // MODEL.md section 3 with P = 12: Y1 revenue = T1 / 12 x 6.5: the snapshot's 108,333,333.33 at 200M against the
    // live base case's 54,166,666.67: +54,166,666.67, +100 %.
    const value = row('revenue', 'value');
    expect(withSnapshot.grid[value]?.[4]).toBeCloseTo(108_333_333.333333, 3);
    expect(computed(row('revenue', 'difference'), 1)).toBeCloseTo(54_166_666.666667, 3);
    expect(withSnapshot.grid[row('revenue', 'difference_rate')]?.[4]).toMatch(/^=IF\(/);
    expect(computed(row('revenue', 'difference_rate'), 1)).toBeCloseTo(1, 9);
    // Every cached value is what the formulas compute; the cases' rows are those of the sheet without a snapshot.
    for (const r of [row('arr', 'value'), row('arr', 'difference'), row('ending_cash', 'difference_rate')]) {
      for (let year = 1; year <= 6; year++) {
        const cached = withSnapshot.values?.[r]?.[3 + year] ?? null;
        const got = computed(r, year);
        if (typeof cached === 'number') expect(got).toBeCloseTo(cached, 6);
        else expect(got === '' || got === null ? null : got).toBe(cached);
      }
    }
    expect(withSnapshot.grid.slice(0, 4)).toEqual(sheet.grid.slice(0, 4));
  });
});
