import { Refusal } from './http';

/** Spreadsheets as the stand-in keeps them, cell by cell, and as Sheets v4 answers them. */

export interface StandInCell {
  formula?: string;
  value: string | number | boolean | null;
  numberFormat?: { type: string; pattern: string };
}

export interface StandInSheet {
  sheetId: number;
  title: string;
  index: number;
  hidden: boolean;
  frozenRowCount: number;
  frozenColumnCount: number;
  rowCount: number;
  columnCount: number;
  /** By `row,column`, 0-based. */
  cells: Map<string, StandInCell>;
  columnWidths: Map<number, number>;
}

export interface StandInSpreadsheet {
  id: string;
  title: string;
  owner: string;
  modified: Date;
  trashed: boolean;
  sheets: StandInSheet[];
  namedRanges: { namedRangeId: string; name: string; range: GridRange }[];
}

export interface GridRange {
  sheetId: number;
  startRowIndex: number;
  endRowIndex: number;
  startColumnIndex: number;
  endColumnIndex: number;
}

export function newSheet(sheetId: number, title: string, index: number): StandInSheet {
  return {
    sheetId,
    title,
    index,
    hidden: false,
    frozenRowCount: 0,
    frozenColumnCount: 0,
    rowCount: 1000,
    columnCount: 26,
    cells: new Map(),
    columnWidths: new Map(),
  };
}

export function nextSheetId(file: StandInSpreadsheet): number {
  let id = 0;
  while (id === 0 || file.sheets.some((s) => s.sheetId === id)) id = 1 + Math.floor(Math.random() * 2_000_000_000);
  return id;
}

export function sheetProperties(sheet: StandInSheet) {
  return {
    sheetId: sheet.sheetId,
    title: sheet.title,
    index: sheet.index,
    sheetType: 'GRID',
    hidden: sheet.hidden,
    gridProperties: {
      rowCount: sheet.rowCount,
      columnCount: sheet.columnCount,
      frozenRowCount: sheet.frozenRowCount,
      frozenColumnCount: sheet.frozenColumnCount,
    },
  };
}

export function spreadsheetBody(file: StandInSpreadsheet) {
  return {
    spreadsheetId: file.id,
    properties: { title: file.title, locale: 'en_US' },
    sheets: file.sheets.map((sheet, index) => ({ properties: { ...sheetProperties(sheet), index } })),
    namedRanges: file.namedRanges,
    spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${file.id}/edit`,
  };
}

export function copyOf(file: StandInSpreadsheet): StandInSpreadsheet {
  return {
    ...file,
    sheets: file.sheets.map((sheet) => ({
      ...sheet,
      cells: new Map([...sheet.cells].map(([k, cell]) => [k, { ...cell }])),
      columnWidths: new Map(sheet.columnWidths),
    })),
    namedRanges: file.namedRanges.map((n) => ({ ...n, range: { ...n.range } })),
  };
}

/** A sheet's cells as rows, trailing blanks left out as Sheets leaves them out. */
export function rowsOf(
  sheet: StandInSheet,
  render: string,
  computed?: Map<string, string | number | boolean | null>,
): (string | number | boolean)[][] {
  const rows: (string | number | boolean)[][] = [];
  for (const [at, cell] of sheet.cells) {
    const [r, c] = at.split(',').map(Number) as [number, number];
    const shown =
      render === 'FORMULA' && cell.formula !== undefined
        ? cell.formula
        : cell.formula !== undefined
          ? (computed?.get(at) ?? null)
          : cell.value;
    if (shown === null || shown === undefined) continue;
    const row = rows[r] ?? [];
    rows[r] = row;
    row[c] = render === 'FORMATTED_VALUE' ? String(shown) : shown;
  }
  const dense: (string | number | boolean)[][] = [];
  for (let r = 0; r < rows.length; r += 1) dense.push(Array.from(rows[r] ?? [], (v) => (v === undefined ? '' : v)));
  return dense;
}

export const key = (row: number, column: number) => `${row},${column}`;

export function columnName(column: number): string {
  let name = '';
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

export function parseA1(a1: string): { row: number; column: number } {
  const match = a1.toUpperCase().match(/^([A-Z]+)(\d+)$/);
  if (!match?.[1] || !match[2]) throw new Refusal(400, `not a cell address: ${a1}`);
  let column = 0;
  for (const letter of match[1]) column = column * 26 + (letter.charCodeAt(0) - 64);
  return { row: Number(match[2]) - 1, column: column - 1 };
}

/** Types into a cell as a person does in Sheets (USER_ENTERED): '' clears, '=…' is a formula, a number is a number. */
export function typeCell(
  file: StandInSpreadsheet,
  sheet: StandInSheet,
  row: number,
  column: number,
  typed: string,
): void {
  const at = key(row, column);
  const format = sheet.cells.get(at)?.numberFormat;
  const trimmed = typed.trim();
  let cell: StandInCell | undefined;
  if (trimmed === '') cell = undefined;
  else if (trimmed.startsWith('=')) cell = { formula: trimmed, value: null };
  else if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed.replaceAll(',', ''))) {
    cell = { value: Number(trimmed.replaceAll(',', '')) };
  } else cell = { value: typed };
  if (cell && format) cell.numberFormat = format;
  if (cell) sheet.cells.set(at, cell);
  else if (format) sheet.cells.set(at, { value: null, numberFormat: format });
  else sheet.cells.delete(at);
  file.modified = new Date();
}

export function sheetOfRange(file: StandInSpreadsheet, range: string): StandInSheet {
  // The whole sheet, by its title quoted as A1 notation quotes it, or bare.
  const match = range.match(/^'((?:[^']|'')*)'$/);
  const title = match?.[1] !== undefined ? match[1].replaceAll("''", "'") : range;
  const sheet = file.sheets.find((s) => s.title === title);
  if (!sheet) throw new Refusal(400, `Unable to parse range: ${range}`);
  return sheet;
}
