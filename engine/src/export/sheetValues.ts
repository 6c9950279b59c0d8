/**
 * A sheet as the spreadsheet exports write it, and the values of the sheets the engine's workbook does not hold, as
 * the engine's own values give them (the cached results of their formulas, so that a reader that does not recalculate
 * shows them too). `xlsxValues.test.ts` recomputes every one of them from the file's formulas, on every fixture.
 */
import type { Grid } from '../compile/index';
import type { Value } from '../workbook';
import type { CellFormatOf } from './formats';
import { moveFormula } from './references';
import type { UserTextOf } from './userText';
import type { Sharing } from './xlsxWriter';

/**
 * The content of a cell filled from a neighbour (`ExportSheet.shared`): its formula is the neighbour's moved to it,
 * given by `formulaAt`, and never written out as text of its own (the XLSX file shares the neighbour's).
 */
export const FILLED = '=';

export interface ExportSheet {
  name: string;
  /** Cell contents: numbers, text, formulas starting with '=' (`FILLED` where the formula is a neighbour's moved). */
  grid: Grid;
  /**
   * The value of each cell (a constant's own value): the engine's, or for a sheet the engine's workbook does not hold
   * (the Actual sheet of a case without ACT months and the sheets after it, the side sheets) the engine's value of
   * what its formulas compute. Every sheet `exportSheets` returns has them.
   */
  values?: Value[][];
  formatOf: CellFormatOf;
  textOf: UserTextOf;
  frozenColumns: number;
  hidden?: boolean;
  /**
   * Which cells are formulas filled right or down from a neighbour (`Sharing`), which the XLSX file writes as shared
   * formulas. Left out, no cell is said to be. `xlsxValues.test.ts` reads every such cell back on every fixture.
   */
  shared?: Sharing;
}

/**
 * The formula of a cell (with its '='), or its content when it is not a formula: a `FILLED` cell's is the formula of
 * the first cell of its run moved to it.
 */
export function formulaAt(sheet: ExportSheet, row: number, column: number): Grid[number][number] {
  let content = sheet.grid[row]?.[column] ?? null;
  let r = row;
  let c = column;
  while (content === FILLED) {
    const from = sheet.shared?.(r, c);
    if (from === 'left') c--;
    else if (from === 'up') r--;
    else throw new Error(`${sheet.name} row ${row} column ${column} is filled from no neighbour`);
    content = sheet.grid[r]?.[c] ?? null;
  }
  if (r === row && c === column) return content;
  if (typeof content !== 'string' || !content.startsWith('='))
    throw new Error(`${sheet.name} row ${row} column ${column} is filled from a cell without a formula`);
  return `=${moveFormula(content.slice(1), row - r, column - c)}`;
}

/** The ACT and EST sides of an Actual sheet's conditional month cells. */
export interface ExportSheetSide {
  sheet: string;
  act: Grid;
  est: Grid;
  /**
   * The columns with conditional cells, each with its month's flag condition and whether the month is ACT at export;
   * every other cell of such a column is copied into both sides.
   */
  columns: Map<number, { condition: string; act: boolean }>;
  /**
   * By side, the cells (`row * 1024 + column`) whose formula inside their condition is only the same cell of another
   * sheet, with that sheet's name (`C1_Estimate` for `IF(…,"",C1_Estimate!G6)` in G6).
   */
  sameCell: { act: Map<number, string>; est: Map<number, string> };
}

const isFormula = (content: Grid[number][number]): content is string =>
  typeof content === 'string' && content.startsWith('=');

/**
 * The values of a sheet whose formulas compute, at export, what `values` holds at the same cells; a constant is its
 * own value. The Actual sheet of a case without ACT months is its estimate (MODEL.md section 6: without a revision,
 * which needs an ACT month, the forecast of an EST month is the estimate); the case's sheets share one row layout.
 */
export function valuesOf(grid: Grid, values: Value[][]): Value[][] {
  return grid.map((row, r) => row.map((content, c) => (isFormula(content) ? (values[r]?.[c] ?? null) : content)));
}

/**
 * The values of a sheet every formula of which is blank at export: the ActualToDate, EstimateToDate and Variance
 * sheets of a case without ACT months, each cell of which shows while a month it covers is flagged ACT
 * (`actMonths.ts`), and no month is.
 */
export function blankValues(grid: Grid): Value[][] {
  return grid.map((row) => row.map((content) => (isFormula(content) ? null : content)));
}

/**
 * The values of an Actual sheet's two sides: a side cell computes the Actual sheet's own cell while its month's flag
 * chooses that side and is blank otherwise (`conditionalMonths.ts`), so at export it is the Actual sheet's value on the
 * side of the month's state (ACT or not) and blank on the other.
 */
export function sideValues(side: ExportSheetSide, actual: Value[][]): { act: Value[][]; est: Value[][] } {
  const of = (grid: Grid, act: boolean) =>
    grid.map((row, r) =>
      row.map((content, c) => {
        if (!isFormula(content)) return content;
        const month = side.columns.get(c);
        if (!month) throw new Error(`column ${c} of ${side.sheet} holds no conditional month`);
        return month.act === act ? (actual[r]?.[c] ?? null) : null;
      }),
    );
  return { act: of(side.act, true), est: of(side.est, false) };
}
