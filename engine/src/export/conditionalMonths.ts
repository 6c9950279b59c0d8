/**
 * The EST months of the Actual sheets as exported: each a choice, by the month's flag, between the month as ACT and
 * the month as it stands, its two sides in hidden sheets of their own.
 */
import { calendarOf } from '../calendar';
import { type CompiledWorkbook, compileActSide, type Grid } from '../compile/index';
import { a1, columnLetter, monthColumn } from '../layout';
import { PLAN_MONTHS } from '../schema';
import { fixedMonths, flagRef } from './actMonths';
import { actualInputColumn, actualInputRows, actualInputsSheetName } from './actualInputs';
import { quoteSheet } from './references';
import { type ExportSheetSide, FILLED } from './sheetValues';
import type { ExportWorkbook } from './workbookData';
import type { Sharing } from './xlsxWriter';

export type CellFormula = { row: number; column: number; formula: string };

/**
 * The EST months of each Actual sheet as a choice between the month as ACT and the month as it stands: a month whose
 * column of the actual-inputs sheet holds any number is ACT (MODEL.md section 5), so typing a value into a forecast
 * month turns it ACT in the actual view. The ACT side comes from the plan compiled with every month ACT and no values,
 * its entered inputs reading the actual-inputs sheet like `linkedActualCells` (`linked.ts`); whether a month is ACT is its flag in
 * the case's flags sheet (`actMonths.ts`). A case without an Actual sheet (no ACT month at export) gets one.
 */
export function conditionalMonths(
  wb: ExportWorkbook,
  linked: Map<string, CellFormula[]>,
): {
  cells: Map<string, CellFormula[]>;
  added: { name: string; estimate: string; grid: Grid; caseIndex: number }[];
  act: CompiledWorkbook;
  sides: ExportSheetSide[];
  /** By Actual sheet, its conditional cells: a column of them is one formula filled down (`sheetValues.ts`). */
  shared: Map<string, Sharing>;
} {
  const plan = wb.plan;
  const layout = wb.layout;
  const out = new Map<string, CellFormula[]>();
  const added: { name: string; estimate: string; grid: Grid; caseIndex: number }[] = [];
  // The plan with every month ACT in every case, without values or revisions.
  const everyMonth = Object.fromEntries(
    Array.from({ length: PLAN_MONTHS }, (_, i) => [String(i + 1), { status: 'ACT' as const }]),
  );
  const { act, forecasts } = compileActSide(
    { ...plan, cases: plan.cases.map((c) => ({ ...c, revisions: {}, actuals: everyMonth })) },
    { asOf: calendarOf(plan.start_year, plan.start_month, layout.asOfMonth) },
  );
  /**
   * Each case's Actual sheet with every month as forecast (what an EST month of the actual view is): a case without
   * ACT months gets it as its Actual sheet; an ACT month emptied falls back to it.
   */
  const forecast = (caseIndex: number): Grid => forecasts[caseIndex] ?? [];
  const inputRows = actualInputRows(plan.template);
  const linkedAct = new Map<string, Map<number, string>>();
  for (const [path, cells] of act.inputCells) {
    const ref = inputReference(inputRows, path);
    if (!ref) continue;
    for (const cell of cells) {
      const content = act.sheets[cell.sheet]?.[cell.row]?.[cell.column] ?? null;
      let cells = linkedAct.get(cell.sheet);
      if (!cells) {
        cells = new Map();
        linkedAct.set(cell.sheet, cells);
      }
      cells.set(at(cell.row, cell.column), `IF(${ref}="",${expression(content)},${ref})`);
    }
  }
  const sides: ExportSheetSide[] = [];
  /** By Actual sheet, the cells (`at`) that choose between their sides. */
  const chosen = new Map<string, Set<number>>();
  /**
   * The month cell as `=IF(<flag>,<its ACT side>,<its EST side>)`, each side in a hidden sheet of its own
   * (`C1_Actual_ACT`, `C1_Actual_EST`): the two sides compute a month's figures in opposite directions (customers from
   * orders, or orders from the revenue path), so in one cell they would refer to each other, a circular reference for
   * Excel, Sheets and HyperFormula, which see every reference of a formula whether or not its branch is taken.
   */
  const split = (
    sheet: string,
    row: number,
    column: number,
    condition: string,
    actAtExport: boolean,
    ifAct: string,
    ifEst: string,
  ) => {
    let side = sides.find((x) => x.sheet === sheet);
    if (!side) {
      const size = (wb.layout.sheets[sheet] ?? act.sheets[sheet] ?? []).map((r) => r.map(() => null));
      side = {
        sheet,
        act: size.map((r) => r.slice()),
        est: size.map((r) => r.slice()),
        columns: new Map(),
        sameCell: { act: new Map(), est: new Map() },
      };
      sides.push(side);
      chosen.set(sheet, new Set());
    }
    const cells = chosen.get(sheet);
    cells?.add(at(row, column));
    side.columns.set(column, { condition, act: actAtExport });
    const a = sideCell(side, 'act', row, column, ifAct);
    const e = sideCell(side, 'est', row, column, ifEst);
    // Rows are chosen top down: a cell below a chosen one is that one filled down.
    return cells?.has(at(row - 1, column)) ? FILLED : `=IF(${condition},${a},${e})`;
  };
  for (const c of layout.cases) {
    const own = c.sheets.actual;
    const sheet = own ?? act.cases[c.index]?.sheets.actual;
    let grid = own ? wb.grid(own) : undefined;
    if (!own && sheet) {
      grid = forecast(c.index).map((row) => row.slice());
      added.push({ name: sheet, estimate: c.sheets.estimate, grid, caseIndex: c.index });
    }
    const actGrid = sheet ? act.sheets[sheet] : undefined;
    if (!sheet || !grid || !actGrid) continue;
    const list: CellFormula[] = [];
    const fixed = fixedMonths(plan, c);
    const linkedOf = new Map((own ? (linked.get(own) ?? []) : []).map((x) => [at(x.row, x.column), x.formula]));
    const linkedActOf = linkedAct.get(sheet);
    for (let t = 1; t <= PLAN_MONTHS; t++) {
      if (fixed.has(t)) continue;
      const column = monthColumn(t);
      if (c.act.includes(t)) {
        // An ACT month emptied whole in the actual-inputs sheet is EST again: the month as forecast.
        const est = forecast(c.index);
        for (const row of Object.values(c.rowOf)) {
          const now = linkedOf.get(at(row, column)) ?? grid[row]?.[column] ?? null;
          const asAct = expression(now);
          const asEst = expression(est?.[row]?.[column] ?? null);
          if (asAct === asEst) continue;
          list.push({
            row,
            column,
            formula: split(sheet, row, column, `${flagRef(c.index, t)}=1`, true, asAct, asEst),
          });
        }
        continue;
      }
      const entered = `${flagRef(c.index, t)}=1`;
      for (const row of Object.values(c.rowOf)) {
        const now = grid[row]?.[column] ?? null;
        const ifAct = linkedActOf?.get(at(row, column)) ?? expression(actGrid[row]?.[column] ?? null);
        const asIs = expression(now);
        if (ifAct === asIs) continue;
        list.push({ row, column, formula: split(sheet, row, column, entered, false, ifAct, asIs) });
      }
    }
    // The cells of those columns that both sides share, so that each side computes its month on its own.
    const side = sides.find((x) => x.sheet === sheet);
    for (const column of side?.columns.keys() ?? []) {
      grid.forEach((row, r) => {
        if (r === 0 || !side) return;
        const content = linkedOf.get(at(r, column)) ?? row[column] ?? null;
        if (content === null || side.act[r]?.[column] !== null) return;
        sideCell(side, 'both', r, column, expression(content));
      });
    }
    if (own) out.set(sheet, list);
    else {
      const target = added.find((a) => a.name === sheet)?.grid;
      for (const { row, column, formula } of list) {
        const r = target?.[row];
        if (r) r[column] = formula;
      }
    }
  }
  // A side cell below one that reads the same cell of the same sheet is that one filled down.
  for (const side of sides) {
    for (const which of ['act', 'est'] as const) {
      const sameCell = side.sameCell[which];
      for (const [key, read] of sameCell) {
        if (sameCell.get(key - at(1, 0)) !== read) continue;
        const r = side[which][Math.floor(key / at(1, 0))];
        if (r) r[key % at(1, 0)] = FILLED;
      }
    }
  }
  const shared = new Map<string, Sharing>();
  for (const [sheet, cells] of chosen) {
    shared.set(sheet, (row, column) =>
      cells.has(at(row, column)) && cells.has(at(row - 1, column)) ? 'up' : undefined,
    );
  }
  return { cells: out, added, act, sides, shared };
}

/** A cell's key among one sheet's cells. */
const at = (row: number, column: number) => row * 1024 + column;

/**
 * Which cells of one side of an Actual sheet are filled down (`Sharing`): a side cell is its month's condition around
 * what the Actual sheet's cell computes, and two cells one above the other that each read the same cell of one sheet
 * (`ExportSheetSide.sameCell`) in one column are one formula.
 */
export function sideShared(side: ExportSheetSide, which: 'act' | 'est'): Sharing {
  const sameCell = side.sameCell[which];
  return (row, column) => {
    const sheet = sameCell.get(at(row, column));
    return sheet !== undefined && sheet === sameCell.get(at(row - 1, column)) ? 'up' : undefined;
  };
}

/**
 * Writes `content` (an expression of the Actual sheet's cell) into one side of its month (or both, moved once), as a
 * formula of that side's sheet, and answers the cell's reference (the ACT side's for both). Each side computes only
 * while its month's flag chooses it and is blank otherwise: the Actual sheet reads the side its flag chooses and never
 * the other, so the other's figures would be read by nothing, and with it blank every side cell is either blank or the
 * Actual sheet's own value.
 */
function sideCell(
  side: ExportSheetSide,
  which: 'act' | 'est' | 'both',
  row: number,
  column: number,
  content: string,
): string {
  const month = side.columns.get(column);
  if (!month) throw new Error(`column ${column} of ${side.sheet} holds no conditional month`);
  const { condition } = month;
  // The same cell of another sheet stays where it is; the Actual sheet's own cells of the column move to the side.
  const read = sameCellSheet(content, row, column);
  const other = read !== undefined && read !== side.sheet;
  const formula = other ? content : sameColumnTo(content, side.sheet, column);
  for (const w of which === 'both' ? (['act', 'est'] as const) : [which]) {
    const r = side[w][row];
    if (r) r[column] = w === 'act' ? `=IF(${condition},${formula},"")` : `=IF(${condition},"",${formula})`;
    if (other) side.sameCell[w].set(at(row, column), read);
  }
  return a1(row, column, `${side.sheet}_${which === 'est' ? 'EST' : 'ACT'}`);
}

const SHEET_NAME = /^(?:[A-Za-z_][\w.]*|'(?:[^']|'')+')$/;

/**
 * The sheet whose cell at (row, column) `formula` is, when the formula is only that reference (`C1_Estimate!G6` in
 * G6); else undefined.
 */
function sameCellSheet(formula: string, row: number, column: number): string | undefined {
  const bang = formula.lastIndexOf('!');
  if (bang < 1) return undefined;
  const sheet = formula.slice(0, bang);
  return formula.length - bang - 1 <= 8 && formula.slice(bang + 1) === a1(row, column) && SHEET_NAME.test(sheet)
    ? sheet
    : undefined;
}

const TOKEN =
  /("(?:[^"]|"")*")|('(?:[^']|'')+'|[A-Za-z_][\w.]*)!(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)|(?<![\w.$!:'])(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)(?![\w(!])/g;

/**
 * A formula of `sheet` moved to the sheet `to` (one of its sides): references to `sheet`'s cells in `column` point to
 * the same cells of `to`, written without a sheet name as `to` holds the formula, and every other reference of
 * `sheet` is qualified with its name.
 */
function sameColumnTo(formula: string, sheet: string, column: number): string {
  const letters = columnLetter(column);
  const inColumn = (ref: string) => {
    const colon = ref.indexOf(':');
    return colon < 0
      ? endInColumn(ref, letters)
      : endInColumn(ref.slice(0, colon), letters) && endInColumn(ref.slice(colon + 1), letters);
  };
  return formula.replace(TOKEN, (match, text, prefix, qualified, bare) => {
    if (text !== undefined) return match;
    if (qualified !== undefined) return prefix === sheet && inColumn(qualified) ? qualified : match;
    return inColumn(bare) ? bare : `${sheet}!${bare}`;
  });
}

/** Whether a cell reference (`$B$7`, `B7`) is in the column of `letters`. */
function endInColumn(end: string, letters: string): boolean {
  const at = end.charCodeAt(0) === 36 ? 1 : 0; // $
  if (!end.startsWith(letters, at)) return false;
  const next = end.charCodeAt(at + letters.length);
  // What follows the letters is the row (a digit) or its `$`, not another letter.
  return next === 36 || (next >= 48 && next <= 57);
}

/** A cell's content as an expression inside a formula: a number, the formula without '=', or "" for blank. */
function expression(content: string | number | null): string {
  if (typeof content === 'number') return String(content);
  if (typeof content === 'string' && content.startsWith('=')) return content.slice(1);
  return '""';
}

/** The actual-inputs cell of an input path (`0/actuals/5/order`), or undefined for another kind of input. */
function inputReference(inputRows: Record<string, number>, path: string): string | undefined {
  const [caseText, group, tText, key] = path.split('/');
  if (group !== 'actuals' || key === undefined) return undefined;
  const row = inputRows[key];
  if (row === undefined) return undefined;
  return `${quoteSheet(actualInputsSheetName(Number(caseText)))}!${a1(row, actualInputColumn(Number(tText)))}`;
}
