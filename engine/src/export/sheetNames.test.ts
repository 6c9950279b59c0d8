import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { a1 } from '../layout';
import { parsePlanFile } from '../schema';
import { buildFixture, loadFixture } from '../testing';
import { actualInputColumn, actualInputRows } from './actualInputs';
import { renameSheets, SHEET_NAME_MAX, workbookSheetName, xlsxSheetNames } from './sheetNames';
import { exportXlsx } from './xlsx';
import { readActualInputsXlsx, xlsxSheetValues } from './xlsxRead';

/** A fixture plan with its cases renamed. */
function planNamed(names: string[]) {
  const plan = structuredClone(loadFixture('three-cases')) as { cases: { case_name: string }[] };
  plan.cases = names.map((case_name, i) => ({ ...plan.cases[i % plan.cases.length], case_name }));
  return parsePlanFile(plan);
}

describe('XLSX sheet names', () => {
  it('carry the case names, within 31 characters, without []:*?/\\, unique whatever the case', () => {
    const long = 'A very long case name that goes on and on';
    const words = ['Estimate', 'EstimateToDate', 'Actuals'];
    const sheetsOf = (cases: number) =>
      Array.from({ length: cases }, (_, i) => words.map((w) => (w === 'Actuals' ? `C${i + 1} ${w}` : `C${i + 1}_${w}`)))
        .flat()
        .concat('Plan', 'Topline');
    const names = xlsxSheetNames(planNamed(['Base case', 'BASE CASE', "'Quoted'"]), sheetsOf(3));
    expect(names.get('C1_Estimate')).toBe('Base case Estimate');
    expect(names.get('C1 Actuals')).toBe('Base case Actuals');
    // Excel takes "base case estimate" for the same name as "Base case Estimate".
    expect(names.get('C2_Estimate')).toBe('BASE CASE (2) Estimate');
    // No apostrophe first: Excel refuses one at either end.
    expect(names.get('C3 Actuals')).toBe("_Quoted' Actuals");
    expect(names.has('Plan')).toBe(false);
    const more = xlsxSheetNames(planNamed(['Q1: [draft] a/b\\c*?', long, long.toUpperCase()]), sheetsOf(3));
    expect(more.get('C1_Estimate')).toBe('Q1_ _draft_ a_b_c__ Estimate');
    // 31 - " Estimate".length = 22 characters of the name, its trailing blank trimmed.
    expect(more.get('C2_Estimate')).toBe('A very long case name Estimate');
    // 31 - " EstimateToDate".length = 16.
    expect(more.get('C2_EstimateToDate')).toBe('A very long case EstimateToDate');
    // The same name but for case, cut to 22 - 4 = 18 characters to hold its number.
    expect(more.get('C3_Estimate')).toBe('A VERY LONG CASE N (2) Estimate');
    for (const [from, to] of more) names.set(`more ${from}`, to);
    const all = [...names.values(), 'Plan', 'Topline'];
    for (const name of all) {
      expect(name.length).toBeLessThanOrEqual(SHEET_NAME_MAX);
      expect(name).not.toMatch(/[[\]:*?/\\]/);
    }
    expect(new Set(all.map((n) => n.toLowerCase())).size).toBe(all.length);
    // And back: the workbook's name of each.
    const plan = planNamed(['Base case', 'BASE CASE', "'Quoted'"]);
    expect(workbookSheetName(plan, 'BASE CASE (2) Estimate')).toBe('C2_Estimate');
    expect(workbookSheetName(plan, "_Quoted' Actuals")).toBe('C3 Actuals');
    expect(workbookSheetName(plan, 'Plan')).toBe('Plan');
    expect(workbookSheetName(plan, 'C1_ActMonths')).toBe('C1_ActMonths');
  });

  it('rewrites sheet references in formulas, quoted or not, and leaves text alone', () => {
    const names = new Map([
      ['C1_Estimate', 'Base case Estimate'],
      ['C1 Actuals', "Tom's Actuals"],
    ]);
    expect(renameSheets(`IF('C1 Actuals'!C2="",C1_Estimate!B5,'C1 Actuals'!C2)`, names)).toBe(
      `IF('Tom''s Actuals'!C2="",'Base case Estimate'!B5,'Tom''s Actuals'!C2)`,
    );
    expect(renameSheets(`SUM(C1_Estimate!B5:C7)&"C1_Estimate!B5"`, names)).toBe(
      `SUM('Base case Estimate'!B5:C7)&"C1_Estimate!B5"`,
    );
    // A longer name that ends like a renamed one is another sheet.
    expect(renameSheets('XC1_Estimate!A1+C1_Estimates!A1', names)).toBe('XC1_Estimate!A1+C1_Estimates!A1');
    // Quotes inside text and names: a doubled quote is one quote, a `!` or `'` in text is text.
    expect(renameSheets(`"a""!b'"&C1_Estimate!A1&"it's"&'C1 Actuals'!A1`, names)).toBe(
      `"a""!b'"&'Base case Estimate'!A1&"it's"&'Tom''s Actuals'!A1`,
    );
    expect(renameSheets(`'C1_Estimate'!A1+'C1 Actuals'&C1_Estimate!B2`, names)).toBe(
      `'Base case Estimate'!A1+'C1 Actuals'&'Base case Estimate'!B2`,
    );
    // A name after a sheet's own cell reference, a range of two sheets, a name starting after digits.
    expect(renameSheets('C1_Estimate!A1:C1_Estimate!B2*2+1C1_Estimate!C3', names)).toBe(
      `'Base case Estimate'!A1:'Base case Estimate'!B2*2+1'Base case Estimate'!C3`,
    );
    // A quote never closed opens no text.
    expect(renameSheets('"open C1_Estimate!A1', names)).toBe(`"open 'Base case Estimate'!A1`);
    const quoted = new Map([['C1_Estimate', 'A "best" case Estimate']]);
    expect(renameSheets(`C1_Estimate!A1&"x"&C1_Estimate!B1`, quoted)).toBe(
      `'A "best" case Estimate'!A1&"x"&'A "best" case Estimate'!B1`,
    );
  });

  it('an exported file names its sheets after the cases, and its actuals import back by those names', async () => {
    const wb = buildFixture('three-cases');
    const bytes = await exportXlsx(wb);
    const values = await xlsxSheetValues(bytes);
    const titles = Object.keys(values);
    expect(titles).toContain('Base case Estimate');
    expect(titles).toContain('Ideal case Assumptions');
    expect(titles).toContain('Prudent case Actuals');
    expect(titles.some((t) => /^C\d[_ ](Estimate|Assumptions|Costs|Dashboard|Actuals)$/.test(t))).toBe(false);
    // Formulas read the renamed sheets: the Plan's case rate names a case sheet by its new name.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const estimate = book.getWorksheet('Ideal case Estimate');
    const formulas: string[] = [];
    estimate?.eachRow((row) => {
      row.eachCell((cell) => {
        if (cell.formula) formulas.push(cell.formula);
      });
    });
    expect(formulas.some((f) => f.includes("'Ideal case Assumptions'!"))).toBe(true);
    expect(formulas.some((f) => /\bC\d_(Estimate|Assumptions)!/.test(f))).toBe(false);

    // A person types 7 new customers into January of the second case's actual-inputs sheet.
    const inputs = book.getWorksheet('Ideal case Actuals');
    const row = actualInputRows(wb.plan.template).order ?? 0;
    const cell = a1(row, actualInputColumn(1));
    if (!inputs) throw new Error('no Ideal case Actuals sheet');
    inputs.getCell(cell).value = 7;
    const typed = new Uint8Array(await book.xlsx.writeBuffer());
    const reading = await readActualInputsXlsx(wb.plan, typed);
    expect(reading.ok).toBe(true);
    if (reading.ok) {
      expect(reading.changes).toEqual([
        expect.objectContaining({ caseIndex: 1, caseName: 'Ideal case', month: 1, key: 'order', old: null, new: 7 }),
      ]);
    }
    // An error names the cell as the file does.
    inputs.getCell(cell).value = 'seven';
    const bad = await readActualInputsXlsx(wb.plan, new Uint8Array(await book.xlsx.writeBuffer()));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.map((e) => e.cell)).toContain(`Ideal case Actuals!${cell}`);
  }, 240_000);
});
