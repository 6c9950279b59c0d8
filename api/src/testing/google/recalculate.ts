import { HYPERFORMULA_CONFIG } from '@topline/engine';
import { HyperFormula, type RawCellContent } from 'hyperformula';
import { columnName, type StandInSpreadsheet } from './spreadsheets';

/**
 * Every cell's value with the formulas recalculated, by sheet title and `row,column`: the spreadsheet's sheets and
 * named ranges in HyperFormula (the engine's settings). An error shows as its text (`#REF!`), as Sheets shows it.
 */
export function recalculate(file: StandInSpreadsheet): Map<string, Map<string, string | number | boolean | null>> {
  const kept = recalculated.get(file);
  if (kept && kept.modified === file.modified) return kept.values;
  const values = recalculateNow(file);
  recalculated.set(file, { modified: file.modified, values });
  return values;
}

/** The last recalculation of each spreadsheet, good while the spreadsheet has not changed since. */
const recalculated = new WeakMap<
  StandInSpreadsheet,
  { modified: Date; values: Map<string, Map<string, string | number | boolean | null>> }
>();

function recalculateNow(file: StandInSpreadsheet): Map<string, Map<string, string | number | boolean | null>> {
  const sheets: Record<string, RawCellContent[][]> = {};
  for (const sheet of file.sheets) {
    const grid: RawCellContent[][] = [];
    for (const [at, cell] of sheet.cells) {
      const [r, c] = at.split(',').map(Number) as [number, number];
      grid[r] ??= [];
      (grid[r] as RawCellContent[])[c] = cell.formula ?? cell.value;
    }
    sheets[sheet.title] = Array.from(grid, (row) => Array.from(row ?? [], (v) => (v === undefined ? null : v)));
  }
  const titleOf = new Map(file.sheets.map((s) => [s.sheetId, s.title]));
  const names = file.namedRanges.map(({ name, range }) => {
    const title = `'${(titleOf.get(range.sheetId) ?? '').replaceAll("'", "''")}'`;
    const corner = (row: number, column: number) => `$${columnName(column)}$${row + 1}`;
    const single = range.endRowIndex - range.startRowIndex === 1 && range.endColumnIndex - range.startColumnIndex === 1;
    const end = single ? '' : `:${corner(range.endRowIndex - 1, range.endColumnIndex - 1)}`;
    return { name, expression: `=${title}!${corner(range.startRowIndex, range.startColumnIndex)}${end}` };
  });
  const hf = HyperFormula.buildFromSheets(sheets, { ...HYPERFORMULA_CONFIG }, names);
  const out = new Map<string, Map<string, string | number | boolean | null>>();
  for (const sheet of file.sheets) {
    const id = hf.getSheetId(sheet.title);
    const values = new Map<string, string | number | boolean | null>();
    for (const at of sheet.cells.keys()) {
      const [row, col] = at.split(',').map(Number) as [number, number];
      const value = id === undefined ? null : hf.getCellValue({ sheet: id, row, col });
      values.set(at, value === null || typeof value !== 'object' ? value : String(value.value));
    }
    out.set(sheet.title, values);
  }
  hf.destroy();
  return out;
}
