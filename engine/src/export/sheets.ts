/**
 * The Google Sheets export (MODEL.md section 8): the same sheets, formulas, names and number formats as the XLSX
 * file, as plain data that a Sheets writer sends unchanged. `sheetsGrid` gives every cell (formula, engine value,
 * number format) and the named ranges; `sheetsBatchRequests` turns it into `spreadsheets.batchUpdate` requests and
 * `sheetsValueUpdate` into a `values.update` body for `valueInputOption: 'USER_ENTERED'`. No I/O here.
 */
import type { PlanWorkbook, Value } from '../workbook';
import { columnWidths, type FormatKind, formatPattern } from './formats';
import { type ExportSheetsOptions, exportSheets } from './linked';
import { parseReference, quoteSheet } from './references';
import { FILLED, formulaAt } from './sheetValues';

/** The `numberFormat` of a Sheets `CellFormat`. */
export interface SheetsNumberFormat {
  type: 'NUMBER' | 'PERCENT';
  pattern: string;
}

export interface SheetsCell {
  /**
   * The formula as Sheets takes it, starting with '='; absent for constants, labels and user text (a cost item's
   * name), which go to Sheets as strings even when they start with '='.
   */
  formula?: string;
  /** The constant, or the engine's value of the formula (null for blank). */
  value: Value;
  numberFormat?: SheetsNumberFormat;
}

export interface SheetsSheet {
  title: string;
  rows: SheetsCell[][];
  frozenRowCount: number;
  frozenColumnCount: number;
  /** Column widths in pixels. */
  columnWidths: number[];
  /** The sheet is hidden (the `Topline` sheet naming the plan). */
  hidden?: boolean;
}

/** A named range as `AddNamedRangeRequest` takes it, with the sheet by title (the writer knows the sheet ids). */
export interface SheetsNamedRange {
  name: string;
  sheetTitle: string;
  /** 0-based, end exclusive, like a Sheets `GridRange`. */
  startRowIndex: number;
  endRowIndex: number;
  startColumnIndex: number;
  endColumnIndex: number;
}

export interface SheetsGrid {
  title: string;
  sheets: SheetsSheet[];
  namedRanges: SheetsNamedRange[];
}

/** Thrown when the workbook holds something a Google Sheet cannot carry, such as a name that is not a range. */
export class SheetsExportError extends Error {
  override readonly name = 'SheetsExportError';
}

/** Pixels per character of the default Sheets font, and the cell padding. */
const PIXELS_PER_CHAR = 7;
const PADDING = 8;

/**
 * The plan's workbook as Google Sheets cells.
 * @throws {SheetsExportError} when a named expression is not a cell or range reference.
 * @throws {FormulaError} when a formula of the workbook evaluates to an error.
 */
export function sheetsGrid(wb: PlanWorkbook, options: ExportSheetsOptions = {}): SheetsGrid {
  const sheets = exportSheets(wb, options).map((sheet): SheetsSheet => {
    const { name: title, grid, values, formatOf, textOf, frozenColumns, hidden } = sheet;
    const rows = grid.map((row, r) =>
      row.map((stored, c): SheetsCell => {
        // Sheets takes every formula's own text.
        const content = stored === FILLED ? formulaAt(sheet, r, c) : stored;
        const kind = content === null ? undefined : formatOf(r, c);
        const numberFormat = kind ? sheetsNumberFormat(kind, wb) : undefined;
        const text = textOf(r, c);
        const cell: SheetsCell =
          text !== undefined
            ? { value: text }
            : typeof content === 'string' && content.startsWith('=')
              ? { formula: content, value: values?.[r]?.[c] ?? null }
              : { value: content };
        if (numberFormat) cell.numberFormat = numberFormat;
        return cell;
      }),
    );
    return {
      title,
      rows,
      frozenRowCount: 1,
      frozenColumnCount: frozenColumns,
      columnWidths: columnWidths(grid, values ?? grid, textOf).map((chars) => chars * PIXELS_PER_CHAR + PADDING),
      ...(hidden ? { hidden } : {}),
    };
  });
  const namedRanges = wb.layout.names.map(({ name, expression }): SheetsNamedRange => {
    const ref = parseReference(expression);
    if (!ref) throw new SheetsExportError(`the name ${name} is not a cell or range reference: ${expression}`);
    return {
      name,
      sheetTitle: ref.sheet,
      startRowIndex: ref.top,
      endRowIndex: ref.bottom + 1,
      startColumnIndex: ref.left,
      endColumnIndex: ref.right + 1,
    };
  });
  return { title: wb.plan.business_plan_name, sheets, namedRanges };
}

function sheetsNumberFormat(kind: FormatKind, wb: PlanWorkbook): SheetsNumberFormat {
  return { type: kind === 'rate' ? 'PERCENT' : 'NUMBER', pattern: formatPattern(kind, wb.plan.currency) };
}

/** A Sheets `ExtendedValue`. */
export type SheetsExtendedValue = { formulaValue: string } | { numberValue: number } | { stringValue: string };

/** One request of `spreadsheets.batchUpdate` (the subset this export sends). */
export type SheetsRequest =
  | {
      updateSheetProperties: {
        properties: {
          sheetId: number;
          title: string;
          gridProperties: { rowCount: number; columnCount: number; frozenRowCount: number; frozenColumnCount: number };
          hidden?: boolean;
        };
        fields: string;
      };
    }
  | {
      addNamedRange: {
        namedRange: {
          name: string;
          range: {
            sheetId: number;
            startRowIndex: number;
            endRowIndex: number;
            startColumnIndex: number;
            endColumnIndex: number;
          };
        };
      };
    }
  | {
      updateCells: {
        start: { sheetId: number; rowIndex: number; columnIndex: number };
        rows: {
          values: {
            userEnteredValue?: SheetsExtendedValue;
            userEnteredFormat?: { numberFormat: SheetsNumberFormat };
          }[];
        }[];
        fields: string;
      };
    }
  | {
      updateDimensionProperties: {
        range: { sheetId: number; dimension: 'COLUMNS'; startIndex: number; endIndex: number };
        properties: { pixelSize: number };
        fields: string;
      };
    };

/**
 * The `spreadsheets.batchUpdate` requests that write the grid into sheets the writer has already added (their ids
 * by title): sheet size and frozen panes, named ranges, every cell with its number format, and column widths.
 * Values go as typed `ExtendedValue`s, so a label such as "Apr 2026" stays text instead of becoming a date.
 * @throws {SheetsExportError} when a sheet of the grid has no id.
 */
export function sheetsBatchRequests(grid: SheetsGrid, sheetIds: Record<string, number>): SheetsRequest[] {
  const idOf = (title: string) => {
    const id = sheetIds[title];
    if (id === undefined) throw new SheetsExportError(`no sheet id for ${title}`);
    return id;
  };
  const requests: SheetsRequest[] = grid.sheets.map((s) => ({
    updateSheetProperties: {
      properties: {
        sheetId: idOf(s.title),
        title: s.title,
        gridProperties: {
          rowCount: s.rows.length,
          columnCount: Math.max(1, ...s.rows.map((r) => r.length)),
          frozenRowCount: s.frozenRowCount,
          frozenColumnCount: s.frozenColumnCount,
        },
        ...(s.hidden ? { hidden: true } : {}),
      },
      fields: `title,gridProperties(rowCount,columnCount,frozenRowCount,frozenColumnCount)${s.hidden ? ',hidden' : ''}`,
    },
  }));
  for (const n of grid.namedRanges) {
    const { name, sheetTitle, ...range } = n;
    requests.push({ addNamedRange: { namedRange: { name, range: { sheetId: idOf(sheetTitle), ...range } } } });
  }
  for (const s of grid.sheets) {
    requests.push({
      updateCells: {
        start: { sheetId: idOf(s.title), rowIndex: 0, columnIndex: 0 },
        rows: s.rows.map((row) => ({
          values: row.map((cell) => {
            const userEnteredValue = extendedValue(cell);
            return {
              ...(userEnteredValue ? { userEnteredValue } : {}),
              ...(cell.numberFormat ? { userEnteredFormat: { numberFormat: cell.numberFormat } } : {}),
            };
          }),
        })),
        fields: 'userEnteredValue,userEnteredFormat.numberFormat',
      },
    });
    let start = 0;
    s.columnWidths.forEach((width, c) => {
      if (s.columnWidths[c + 1] === width) return;
      requests.push({
        updateDimensionProperties: {
          range: { sheetId: idOf(s.title), dimension: 'COLUMNS', startIndex: start, endIndex: c + 1 },
          properties: { pixelSize: width },
          fields: 'pixelSize',
        },
      });
      start = c + 1;
    });
  }
  return requests;
}

function extendedValue(cell: SheetsCell): SheetsExtendedValue | undefined {
  if (cell.formula !== undefined) return { formulaValue: cell.formula };
  if (typeof cell.value === 'number') return { numberValue: cell.value };
  if (typeof cell.value === 'string') return { stringValue: cell.value };
  return undefined;
}

/**
 * The body of `spreadsheets.values.update` for one sheet with `valueInputOption: 'USER_ENTERED'`: formulas as
 * typed, numbers as numbers, and text behind an apostrophe so that Sheets keeps it as text ("Apr 2026" is a label,
 * not a date). Number formats and names need `sheetsBatchRequests`.
 */
export function sheetsValueUpdate(sheet: SheetsSheet): {
  range: string;
  majorDimension: 'ROWS';
  values: (string | number)[][];
} {
  return {
    range: `${quoteSheet(sheet.title)}!A1`,
    majorDimension: 'ROWS',
    values: sheet.rows.map((row) =>
      row.map((cell) => {
        if (cell.formula !== undefined) return cell.formula;
        if (typeof cell.value === 'string') return `'${cell.value}`;
        return cell.value ?? '';
      }),
    ),
  };
}
