/**
 * The building blocks every sheet compiler shares: a cell grid, the period-sheet skeleton, and the quarter/year
 * aggregation of MODEL.md section 4.
 */
import {
  ALL_PERIODS,
  a1,
  calendarOf,
  monthColumn,
  PERIOD_COLUMNS,
  type Period,
  periodColumn,
  previousPeriod,
  quarterColumn,
  yearColumn,
} from '../layout';
import type { RowDef } from '../rows';

/** A cell's content: a number, a string (a formula when it starts with '='), or empty. */
export type Cell = number | string | null;
export type Grid = Cell[][];

export function emptyGrid(rows: number, columns: number): Grid {
  return Array.from({ length: rows }, () => new Array<Cell>(columns).fill(null));
}

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

/**
 * How a period column is aggregated: over which months, from which monthly cells, and (for a sheet that masks another
 * to its ACT months) where the full sheet's period cells are.
 */
export interface PeriodScope {
  months: number[];
  /** Reference to the monthly figure that is aggregated (in this sheet, or in the sheet it masks). */
  monthRef: (key: string, t: number) => string;
  /** Reference to the full sheet's month figure, for what lies before the period (the ARR before it). */
  baseMonthRef: (key: string, t: number) => string;
  /** Set for a masked sheet: the full sheet's cell of this period, used where the whole period is covered. */
  basePeriodRef?: (key: string) => string;
}

/** Fills a period column by the rules of MODEL.md section 4. */
export function aggregatePeriod(sheet: PeriodSheet, p: Exclude<Period, { kind: 'month' }>, scope: PeriodScope): void {
  const column = periodColumn(p);
  const first = Math.min(...scope.months);
  const last = Math.max(...scope.months);
  const c = (key: string) => sheet.ref(key, column);
  for (const row of sheet.rows) {
    let value: Cell = null;
    switch (row.rule) {
      case 'sum':
        value = `=${periodSum(sheet, row.key, p)}`;
        break;
      case 'last':
        value = `=${scope.monthRef(row.key, last)}`;
        break;
      case 'first':
        value = `=${scope.monthRef(row.key, first)}`;
        break;
      case 'same':
        value = row.same ? `=${row.same(c)}` : null;
        break;
      case 'special':
        value = specialPeriodCell(sheet, row.key, p, scope, first, last);
        break;
    }
    sheet.set(row.key, column, value);
  }
}

/**
 * A flow over a period: a quarter sums its three month cells, a year its four quarter cells. Months outside the
 * scope (not ACT, in a masked sheet) are blank, so the same formula sums the ACT months only.
 */
export function periodSum(sheet: PeriodSheet, key: string, p: Exclude<Period, { kind: 'month' }>): string {
  if (p.kind === 'quarter') return `SUM(${sheet.at(key, p.months[0] ?? 1)}:${sheet.at(key, p.months[2] ?? 1)})`;
  return `SUM(${[1, 2, 3, 4].map((q) => sheet.ref(key, quarterColumn(p.year, q))).join(',')})`;
}

function specialPeriodCell(
  sheet: PeriodSheet,
  key: string,
  p: Exclude<Period, { kind: 'month' }>,
  scope: PeriodScope,
  first: number,
  last: number,
): Cell {
  const column = periodColumn(p);
  if (key === 'burn_multiple') {
    const before = first > 1 ? scope.baseMonthRef('arr', first - 1) : '0';
    return burnMultiple(sheet.ref('arr', column), before, sheet.ref('operating_income', column));
  }
  if (key === 'arr_progress') {
    if (scope.basePeriodRef)
      return p.months.every((t) => scope.months.includes(t)) ? `=${scope.basePeriodRef(key)}` : null;
    return sheet.yearTarget ? `=IFERROR(${sheet.ref('arr', column)}/${sheet.yearTarget(p.year)},"")` : null;
  }
  if (key !== 'revenue_rate' && key !== 'required_cash') return null;
  // Required cash is read by year (the annual P&L).
  if (key === 'required_cash' && p.kind === 'quarter') return null;
  if (scope.basePeriodRef) {
    // Part of a period has no growth rate or required cash of its own; the whole period takes the full sheet's.
    const whole = p.months.every((t) => scope.months.includes(t));
    return whole ? `=${scope.basePeriodRef(key)}` : null;
  }
  if (key === 'revenue_rate') {
    // Growth against the previous period of the same kind (MODEL.md section 4).
    const prev = previousPeriod(p);
    return prev ? `=IFERROR(${sheet.ref('revenue', column)}/${sheet.ref('revenue', periodColumn(prev))}-1,"")` : null;
  }
  // MODEL.md section 3: the deepest cumulative operating loss up to the period's end. Quarter and CY cells of the
  // running-sum row hold their last month, so they leave the minimum unchanged.
  return `=MAX(0,-MIN(${sheet.at('cumulative_operating_income', 1)}:${sheet.at('cumulative_operating_income', last)}))`;
}

/**
 * a / b, blank where either is blank or b is zero. Spreadsheets disagree on "" in arithmetic (HyperFormula reads it
 * as 0, Excel as an error), so a blank part must give a blank result explicitly.
 */
export function safeRatio(a: string, b: string, suffix = ''): string {
  return `=IF(OR(${a}="",${b}=""),"",IFERROR(${a}/${b}${suffix},""))`;
}

/** MODEL.md section 3: MAX(0, -operating income) / net new ARR, blank unless net new ARR > 0. */
export function burnMultiple(arr: string, arrBefore: string, operatingIncome: string): string {
  return `=IF(${arr}-${arrBefore}>0,MAX(0,-${operatingIncome})/(${arr}-${arrBefore}),"")`;
}

/** Reference to the CY cell of month 72's year: the stock value at the plan's end. */
export function planEndRef(sheet: PeriodSheet, key: string, qualified = true): string {
  return sheet.ref(key, yearColumn(6), qualified);
}
