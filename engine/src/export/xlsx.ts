/**
 * The XLSX export (MODEL.md section 8): every sheet of the plan's workbook with its formulas, one actual-inputs sheet
 * per case that the Actual sheets read (`linked.ts`), the hidden sheet naming the plan, the workbook-level defined names, number formats, a frozen label column and header row. Each formula also carries the engine's value
 * as its cached result, so a reader that does not recalculate still shows the plan; Excel and LibreOffice recalculate
 * from the formulas. Pure: returns the file's bytes, so the same code runs in Node and in the browser.
 */
import ExcelJS from 'exceljs';
import { columnLetter } from '../layout';
import type { PlanWorkbook, Value } from '../workbook';
import { columnWidths, formatPattern } from './formats';
import { type ExportSheetsOptions, exportSheets } from './linked';
import { parseReference, quoteSheet } from './references';

export interface XlsxOptions extends ExportSheetsOptions {
  /**
   * Write the engine's values as the formulas' cached results (default true). Without them a reader must recalculate
   * to show anything, which is how the tests prove that the formulas alone reproduce the plan.
   */
  cachedValues?: boolean;
}

/** Thrown when the workbook holds something the XLSX format cannot carry, such as a name that is not a reference. */
export class XlsxExportError extends Error {
  override readonly name = 'XlsxExportError';
}

/**
 * Writes the plan's workbook as an XLSX file.
 * @throws {XlsxExportError} when a named expression is not a cell or range reference.
 * @throws {FormulaError} when a formula of the workbook evaluates to an error.
 */
export async function exportXlsx(wb: PlanWorkbook, options: XlsxOptions = {}): Promise<Uint8Array> {
  const cached = options.cachedValues ?? true;
  const book = new ExcelJS.Workbook();
  book.creator = 'Topline';
  book.title = wb.plan.business_plan_name;
  // Ask Excel to recalculate on open; the formulas are the source of truth.
  book.calcProperties.fullCalcOnLoad = true;

  for (const { name, grid, values, formatOf, textOf, frozenColumns, hidden } of exportSheets(wb, options)) {
    const sheet = book.addWorksheet(name, {
      views: [{ state: 'frozen', xSplit: frozenColumns, ySplit: 1 }],
      ...(hidden ? { state: 'hidden' as const } : {}),
    });
    columnWidths(grid, values ?? grid, textOf).forEach((width, c) => {
      sheet.getColumn(c + 1).width = width;
    });
    grid.forEach((row, r) => {
      row.forEach((content, c) => {
        if (content === null) return;
        const cell = sheet.getCell(r + 1, c + 1);
        const text = textOf(r, c);
        // User text is a string cell whatever it starts with: ExcelJS writes only { formula } values as formulas.
        if (text !== undefined) cell.value = text;
        else if (typeof content === 'string' && content.startsWith('=')) {
          const formula = content.slice(1);
          cell.value = cached && values ? { formula, result: cachedResult(values[r]?.[c] ?? null) } : { formula };
        } else {
          cell.value = content;
        }
        const kind = formatOf(r, c);
        if (kind) cell.numFmt = formatPattern(kind, wb.plan.currency);
      });
    });
    sheet.getRow(1).font = { bold: true };
  }

  for (const { name, expression } of wb.layout.names) {
    const ref = parseReference(expression);
    if (!ref) throw new XlsxExportError(`the name ${name} is not a cell or range reference: ${expression}`);
    const corner = (row: number, column: number) => `$${columnLetter(column)}$${row + 1}`;
    const range = ref.top === ref.bottom && ref.left === ref.right ? '' : `:${corner(ref.bottom, ref.right)}`;
    book.definedNames.add(`${quoteSheet(ref.sheet)}!${corner(ref.top, ref.left)}${range}`, name);
  }

  const buffer = await book.xlsx.writeBuffer();
  return new Uint8Array(buffer);
}

/** A formula's cached result; a blank result ("" in the workbook) is cached as an empty string. */
function cachedResult(value: Value): number | string {
  return value ?? '';
}
