/**
 * The XLSX export (MODEL.md section 8): every sheet of the plan's workbook with its formulas, one actual-inputs sheet
 * per case that the Actual sheets read (`linked.ts`), the hidden sheet naming the plan, the workbook-level defined names, number formats, a frozen label column and header row. Each formula also carries the engine's value
 * as its cached result, so a reader that does not recalculate still shows the plan; Excel and LibreOffice recalculate
 * from the formulas. Pure: returns the file's bytes, so the same code runs in Node and in the browser.
 */
import { columnLetter } from '../layout';
import type { Value } from '../workbook';
import { columnWidths, type FormatKind, formatPattern } from './formats';
import { type ExportSheet, type ExportSheetsOptions, exportSheets } from './linked';
import { parseReference, quoteSheet } from './references';
import { renameSheets, xlsxSheetNames } from './sheetNames';
import type { ExportWorkbook } from './workbookData';
import { type WriterSheet, writeXlsx } from './xlsxWriter';

export interface XlsxOptions extends ExportSheetsOptions {
  /**
   * Write the engine's values as the formulas' cached results (default true). Without them a reader must recalculate
   * to show anything, which is how the tests prove that the formulas alone reproduce the plan.
   */
  cachedValues?: boolean;
  /** Sheets written after the plan's own (the comparison of its cases). */
  extraSheets?: ExportSheet[];
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
export async function exportXlsx(wb: ExportWorkbook, options: XlsxOptions = {}): Promise<Uint8Array> {
  const cached = options.cachedValues ?? true;
  const currency = wb.plan.currency;
  const patterns = new Map<FormatKind, string>();
  const pattern = (kind: FormatKind | undefined) => {
    if (kind === undefined) return undefined;
    let found = patterns.get(kind);
    if (found === undefined) {
      found = formatPattern(kind, currency);
      patterns.set(kind, found);
    }
    return found;
  };
  const exported = [...exportSheets(wb, options), ...(options.extraSheets ?? [])];
  // The case sheets carry the case's name (sheetNames.ts), in their tabs and in every formula that reads them.
  const renamed = xlsxSheetNames(
    wb.plan,
    exported.map((s) => s.name),
  );
  const sheets = exported.map(
    ({ name, grid, values, formatOf, textOf, frozenColumns, hidden, shared }): WriterSheet => ({
      name: renamed.get(name) ?? name,
      hidden: hidden ?? false,
      frozenColumns,
      widths: columnWidths(grid, values ?? grid, textOf),
      rows: grid.length,
      columns: Math.max(0, ...grid.map((row) => row.length)),
      ...(shared ? { shared } : {}),
      cell(r, c, formulaText) {
        const content = grid[r]?.[c] ?? null;
        if (content === null) return null;
        const format = pattern(formatOf(r, c));
        // A formula filled from the left or above needs no text of its own (renamed sheets are renamed in the first
        // cell's): its text is not read at all.
        const filled = !formulaText;
        const text = filled ? undefined : textOf(r, c);
        // User text is a string cell whatever it starts with.
        if (text !== undefined) return { text, format };
        if (typeof content === 'number') return { number: content, format };
        if (!filled && !content.startsWith('=')) return { text: content, format };
        const formula = filled ? '' : renameSheets(content.slice(1), renamed);
        return cached && values
          ? { formula, result: cachedResult(values[r]?.[c] ?? null), format }
          : { formula, format };
      },
    }),
  );

  const names = wb.layout.names.map(({ name, expression }) => {
    const ref = parseReference(expression);
    if (!ref) throw new XlsxExportError(`the name ${name} is not a cell or range reference: ${expression}`);
    const corner = (row: number, column: number) => `$${columnLetter(column)}$${row + 1}`;
    const range = ref.top === ref.bottom && ref.left === ref.right ? '' : `:${corner(ref.bottom, ref.right)}`;
    const sheet = quoteSheet(renamed.get(ref.sheet) ?? ref.sheet);
    return { name, reference: `${sheet}!${corner(ref.top, ref.left)}${range}` };
  });

  // Excel is asked to recalculate on open: the formulas are the source of truth.
  return writeXlsx({ title: wb.plan.business_plan_name, creator: 'Topline', sheets, names });
}

/** A formula's cached result; a blank result ("" in the workbook) is cached as an empty string. */
function cachedResult(value: Value): number | string {
  return value ?? '';
}
