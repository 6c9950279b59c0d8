/**
 * The building blocks every sheet compiler shares: a cell grid, the period-sheet skeleton with its metric rows and
 * A1 references, and the record of where each monthly input was written. How quarters and years are aggregated is
 * in `periodRules.ts`.
 */

import { calendarOf } from '../calendar';
import { ALL_PERIODS, a1, monthColumn, PERIOD_COLUMNS, type Period, periodColumn } from '../layout';
import type { RowDef } from '../rows';

/** A cell's content: a number, a string (a formula when it starts with '='), or empty. */
export type Cell = number | string | null;
export type Grid = Cell[][];

export function emptyGrid(rows: number, columns: number): Grid {
  return Array.from({ length: rows }, () => new Array<Cell>(columns).fill(null));
}

/**
 * A user's text (a cost item's name) as cell content. HyperFormula takes a string that starts with '=' for a formula,
 * and one that reads as a number, date or percentage for that value; a leading apostrophe marks the rest as text and
 * is not part of the value, so the cell's value is the name whatever it starts with. The exports write user text from
 * the plan, not from the cell (`export/userText.ts`).
 */
export const textCell = (text: string): string => `'${text}`;

export function setCell(grid: Grid, row: number, column: number, value: Cell): void {
  const r = grid[row];
  if (!r) throw new RangeError(`row ${row} is outside the sheet`);
  r[column] = value;
}

/**
 * A plan input written into a cell as a literal (a cash item or an entered actual): the cell, and what the cell holds
 * when the input is absent if that is a number too (undefined when it is then a formula).
 */
export interface InputCell {
  sheet: string;
  row: number;
  column: number;
  fallback: number | undefined;
}

/** Every cell each input of the plan file was written to, by input path (see `inputPath`). */
export type InputCells = Map<string, InputCell[]>;

/** Path of a monthly input of a case: `0/cash/5/other`, `1/actuals/3/cogs`. */
export const inputPath = (caseIndex: number, group: 'cash' | 'actuals', t: number, key: string): string =>
  `${caseIndex}/${group}/${t}/${key}`;

/** The case index an input path (see `inputPath`) belongs to. */
export const caseOfInputPath = (path: string): number => Number(path.slice(0, path.indexOf('/')));

/** A monthly input as a sheet compiler receives it: its path, its value, and what stands in its cell without it. */
export interface Input {
  path: string;
  value: number | undefined;
  /** Replaces the caller's default when the input is absent. */
  fallback?: Cell;
}

export const isInput = (source: Cell | Input): source is Input => typeof source === 'object' && source !== null;

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The header label of a period column: "Apr 2026", "Y1 Q1", "Y1 CY". */
export function periodLabel(p: Period, startYear: number, startMonth: number): string {
  if (p.kind === 'month') {
    const c = calendarOf(startYear, startMonth, p.t);
    return `${MONTH_NAMES[c.month - 1]} ${c.year}`;
  }
  return p.kind === 'quarter' ? `Y${p.year} Q${p.quarter}` : `Y${p.year} CY`;
}

/** A period sheet: header row, label column, and the row index of every metric key. */
export class PeriodSheet {
  readonly grid: Grid;
  readonly rowOf: Record<string, number> = {};
  /** Reference to a plan year's ARR target, for the quarter and year progress rows. */
  yearTarget?: (year: number) => string;
  /** Where `setInput` records the cells of plan inputs; nothing is recorded without it. */
  inputs?: InputCells;

  constructor(
    readonly name: string,
    readonly rows: RowDef[],
    title: string,
    startYear: number,
    startMonth: number,
  ) {
    this.grid = emptyGrid(rows.length + 1, PERIOD_COLUMNS + 1);
    setCell(this.grid, 0, 0, title);
    for (const p of ALL_PERIODS) setCell(this.grid, 0, periodColumn(p), periodLabel(p, startYear, startMonth));
    rows.forEach((r, i) => {
      this.rowOf[r.key] = i + 1;
      setCell(this.grid, i + 1, 0, r.label);
    });
  }

  has(key: string): boolean {
    return key in this.rowOf;
  }

  row(key: string): number {
    const r = this.rowOf[key];
    if (r === undefined) throw new Error(`sheet ${this.name} has no row ${key}`);
    return r;
  }

  /** Reference to a row's cell in a column, local (no sheet name) or qualified. */
  ref(key: string, column: number, qualified = false): string {
    return a1(this.row(key), column, qualified ? this.name : undefined);
  }

  /** Reference to a row at plan month t; month 0 and earlier have no cell. */
  at(key: string, t: number, qualified = false): string {
    return this.ref(key, monthColumn(t), qualified);
  }

  set(key: string, column: number, value: Cell): void {
    setCell(this.grid, this.row(key), column, value);
  }

  setMonth(key: string, t: number, value: Cell): void {
    this.set(key, monthColumn(t), value);
  }

  /** Writes an input of month t (or what stands in for it) and records the cell under the input's path. */
  setInput(key: string, t: number, input: Input, fallback: Cell): void {
    const row = this.row(key);
    const column = monthColumn(t);
    const absent = input.fallback !== undefined ? input.fallback : fallback;
    setCell(this.grid, row, column, input.value ?? absent);
    if (!this.inputs) return;
    const cell: InputCell = {
      sheet: this.name,
      row,
      column,
      fallback: typeof absent === 'number' ? absent : undefined,
    };
    const cells = this.inputs.get(input.path);
    if (cells) cells.push(cell);
    else this.inputs.set(input.path, [cell]);
  }
}

/**
 * A reference to another sheet's month cell, or a blank where that cell is blank: a formula pointing at an empty cell
 * shows 0 in Excel and LibreOffice but blank in HyperFormula.
 */
export function refOrBlank(source: PeriodSheet, key: string, t: number): Cell {
  return source.grid[source.row(key)]?.[monthColumn(t)] === null ? null : `=${source.at(key, t, true)}`;
}
