/**
 * Which months are ACT, as the spreadsheet exports compute it from the actual-inputs sheets, and the sheets that
 * depend on it: a hidden `C1_ActMonths` sheet per case holds one flag per plan month (1 when the month is ACT: it was
 * ACT at export, or a value is entered into its column of `C1 Actuals`; a reversed month only when one of its kept
 * values was changed, as the import reads it), the latest ACT month and the column of each month in the period
 * sheets. The sheets restricted to ACT months (ActualToDate, EstimateToDate), the Variance sheet and the Dashboard
 * read those flags, so a number typed into a forecast month recomputes them as the engine does after the import.
 */

import { PeriodSheet } from '../compile/grid';
import type { CompiledWorkbook, Grid } from '../compile/index';
import { aggregatePeriod, type PeriodScope, periodCell } from '../compile/periodRules';
import {
  ALL_PERIODS,
  a1,
  columnLetter,
  monthColumn,
  PERIOD_COLUMNS,
  type Period,
  periodColumn,
  yearColumn,
} from '../layout';
import { type RowDef, rowsFor } from '../rows';
import { PLAN_MONTHS, type PlanFile } from '../schema';
import type { Value } from '../workbook';
import { actualInputColumn, actualInputKeys, actualInputRows, actualInputsSheetName } from './actualInputs';
import { quoteSheet } from './references';
import { FILLED } from './sheetValues';
import type { Sharing } from './xlsxWriter';

type CaseLayout = CompiledWorkbook['cases'][number];

/** The title of case `caseIndex`'s hidden sheet of ACT flags: `C1_ActMonths`. */
export const actMonthsSheetName = (caseIndex: number): string => `C${caseIndex + 1}_ActMonths`;

/** Rows of the flags sheet (0-based). */
const MONTH_ROW = 0;
const FLAG_ROW = 1;
const LATEST_ROW = 2;
const COLUMN_ROW = 3;

/** The cell of month t's flag (1: ACT, 0: EST). */
export const flagRef = (caseIndex: number, t: number): string => a1(FLAG_ROW, t, actMonthsSheetName(caseIndex), true);
/** The cell of the latest ACT month (0 when none). */
export const latestRef = (caseIndex: number): string => a1(LATEST_ROW, 1, actMonthsSheetName(caseIndex), true);

/**
 * The months ACT at export whatever the actual-inputs sheet holds: ACT months without an entered value (whose column
 * is empty). Every other month is ACT while its flag is 1.
 */
export function fixedMonths(plan: PlanFile, c: CaseLayout): Set<number> {
  const actuals = plan.cases[c.index]?.actuals ?? {};
  return new Set(c.act.filter((t) => !Object.keys(actuals[String(t)] ?? {}).some((k) => k !== 'status')));
}

/** Month t's flag as a condition, or undefined when the month is ACT whatever is typed (always true). */
function flagCondition(c: CaseLayout, fixed: Set<number>, t: number): string | undefined {
  return fixed.has(t) ? undefined : `${flagRef(c.index, t)}=1`;
}

/** The grid of case `c`'s flags sheet and its values for the plan as exported. */
export function actMonthsGrid(plan: PlanFile, c: CaseLayout): { grid: Grid; values: Value[][] } {
  const planCase = plan.cases[c.index];
  const inputs = quoteSheet(actualInputsSheetName(c.index));
  const keys = actualInputKeys(plan.template);
  const rows = actualInputRows(plan.template);
  const lastRow = keys.length + 1;
  const grid: Grid = [['month'], ['ACT'], ['latest_actual_month'], ['column']];
  const values: Value[][] = [['month'], ['ACT'], ['latest_actual_month'], ['column']];
  const latestTerms: string[] = [];
  let latest = 0;
  for (let t = 1; t <= PLAN_MONTHS; t++) {
    const letter = columnLetter(actualInputColumn(t));
    const range = `${inputs}!$${letter}$2:$${letter}$${lastRow}`;
    const stored = planCase?.actuals[String(t)];
    let flag: string | number;
    if (c.act.includes(t) && !Object.keys(stored ?? {}).some((k) => k !== 'status')) flag = 1;
    else if (c.act.includes(t)) flag = `=IF(COUNT(${range})>0,1,0)`;
    else if (stored && Object.keys(stored).some((k) => k !== 'status')) {
      // A reversed month stays EST while its kept values are unchanged.
      const unchanged = keys.map((key) => {
        const cell = `${inputs}!$${letter}$${(rows[key] ?? 0) + 1}`;
        const v = stored[key];
        return v === undefined ? `COUNT(${cell})=0` : `AND(COUNT(${cell})=1,${cell}=${v})`;
      });
      flag = `=IF(COUNT(${range})=0,0,IF(AND(${unchanged.join(',')}),0,1))`;
    } else flag = `=IF(COUNT(${range})>0,1,0)`;
    const acted = c.act.includes(t);
    if (acted) latest = t;
    (grid[MONTH_ROW] as Grid[number]).push(t);
    (grid[FLAG_ROW] as Grid[number]).push(flag);
    (grid[COLUMN_ROW] as Grid[number]).push(monthColumn(t) + 1);
    (values[MONTH_ROW] as Value[]).push(t);
    (values[FLAG_ROW] as Value[]).push(acted ? 1 : 0);
    (values[COLUMN_ROW] as Value[]).push(monthColumn(t) + 1);
    latestTerms.push(`${a1(MONTH_ROW, t)}*${a1(FLAG_ROW, t)}`);
  }
  (grid[LATEST_ROW] as Grid[number]).push(`=MAX(${latestTerms.join(',')})`);
  (values[LATEST_ROW] as Value[]).push(latest);
  return { grid, values };
}

/** Conditions over the flags of a period's months: any of them ACT, all of them ACT (undefined: always true). */
function periodConditions(c: CaseLayout, fixed: Set<number>, months: number[]): { any?: string; all?: string } {
  if (months.some((t) => fixed.has(t))) {
    const all = months.every((t) => fixed.has(t));
    if (all) return {};
    return { all: `SUM(${flagRange(c, months)})=${months.length}` };
  }
  return { any: `SUM(${flagRange(c, months)})>0`, all: `SUM(${flagRange(c, months)})=${months.length}` };
}

function flagRange(c: CaseLayout, months: number[]): string {
  const first = Math.min(...months);
  const last = Math.max(...months);
  return `${flagRef(c.index, first)}:${a1(FLAG_ROW, last, undefined, true)}`;
}

/** A cell's content inside a formula: a number, the formula without '=', or "" for blank. */
function expression(content: string | number | null | undefined): string {
  if (typeof content === 'number') return String(content);
  if (typeof content === 'string' && content.startsWith('=')) return content.slice(1);
  return '""';
}

/** `=IF(cond,x,"")`, or the content itself when there is no condition; blank stays blank. */
function when(condition: string | undefined, content: string | number | null | undefined): string | number | null {
  if (content === null || content === undefined) return null;
  if (condition === undefined) return content;
  return `=IF(${condition},${expression(content)},"")`;
}

const periodOfColumn = new Map<number, Period>(ALL_PERIODS.map((p) => [periodColumn(p), p]));

/**
 * A sheet restricted to ACT months (`masked`, reading `source`), with each month not ACT at export shown only while
 * its flag is 1, and each period not wholly ACT at export aggregated over the months whose flags are 1. `grid` is the
 * sheet as compiled, or for a case without ACT months its header and labels alone; `sourceGrid` is the source as
 * compiled with every month ACT: a month cell reads the source's same cell, or is blank where that is, as
 * `compileMasked` writes it. `shared` tells which of those cells are the one above filled down: a column of month
 * cells is one formula, and a period cell of a summed, last-month or first-month row reads its own row only, so
 * consecutive rows of one rule are one formula.
 */
export function dynamicMasked(
  plan: PlanFile,
  c: CaseLayout,
  masked: string,
  source: string,
  grid: Grid,
  sourceGrid: Grid,
): { grid: Grid; shared: Sharing } {
  const rows = rowsFor(plan.template);
  const src = new PeriodSheet(source, rows, '', plan.start_year, plan.start_month);
  const fixed = fixedMonths(plan, c);
  const out = grid.map((row) => row.slice());
  const width = PERIOD_COLUMNS + 1;
  /**
   * Each written cell's shape (0: its own formula): a cell below one of its own shape is that one filled down, and
   * holds `FILLED`. Rows are written top down.
   */
  const shapes = new Uint8Array(out.length * width);
  /** Whether the cell, of `shape` (never blank), is the one above filled down; records its shape. */
  const filled = (row: number, column: number, shape: number) => {
    shapes[row * width + column] = shape;
    return shapes[(row - 1) * width + column] === shape;
  };
  const set = (row: number, column: number, content: string | number | null) => {
    const r = out[row];
    if (r) r[column] = content;
  };
  for (let t = 1; t <= PLAN_MONTHS; t++) {
    const condition = flagCondition(c, fixed, t);
    if (condition === undefined) continue;
    const column = monthColumn(t);
    for (let r = 1; r <= rows.length; r++) {
      if ((sourceGrid[r]?.[column] ?? null) === null) set(r, column, null);
      else if (filled(r, column, SHAPE.MONTH)) set(r, column, FILLED);
      else set(r, column, when(condition, `=${a1(r, column, source)}`));
    }
  }
  const scratch = new PeriodSheet(masked, rows, '', plan.start_year, plan.start_month);
  const monthRef = (key: string, t: number) => scratch.at(key, t);
  const baseMonthRef = (key: string, t: number) => src.at(key, t, true);
  for (const p of ALL_PERIODS) {
    if (p.kind === 'month') continue;
    if (p.months.every((t) => fixed.has(t))) continue;
    const column = periodColumn(p);
    const basePeriodRef = (key: string) => src.ref(key, column, true);
    // The period column as aggregated over its months (the scratch sheet's other cells are never read).
    aggregatePeriod(scratch, p, { months: p.months, monthRef, baseMonthRef, basePeriodRef });
    const whole = scratch.grid.map((row) => row[column] ?? null);
    const { any, all } = periodConditions(c, fixed, p.months);
    /** The scope of each of the period's months alone, in order. */
    const singles = p.months.map((t) => ({ months: [t], monthRef, baseMonthRef, basePeriodRef }));
    const conditions = p.months.map((t) => flagCondition(c, fixed, t));
    rows.forEach((row, i) => {
      const r = i + 1;
      // A last-month or first-month row's cell is never blank (`periodCell`), a summed row's where the sum is.
      if (row.rule === 'last' || row.rule === 'first') {
        const shape = row.rule === 'last' ? SHAPE.LAST : SHAPE.FIRST;
        if (row.key !== 'burn_multiple' && filled(r, column, shape)) set(r, column, FILLED);
        else set(r, column, when(any, byMonth(scratch, row, p, singles, conditions, row.rule === 'last')));
      } else if (row.key === 'burn_multiple') {
        set(r, column, when(any, byMonth(scratch, row, p, singles, conditions, false)));
      } else if (row.rule === 'special') {
        const content =
          row.key === 'arr_progress' || row.key === 'revenue_rate' || row.key === 'required_cash'
            ? when(all, whole[r])
            : (whole[r] ?? null);
        set(r, column, when(any, content));
      } else if (row.rule === 'sum' && whole[r] != null && filled(r, column, SHAPE.SUM)) set(r, column, FILLED);
      else set(r, column, when(any, whole[r] ?? null));
    });
  }
  return {
    grid: out,
    shared: (row, column) => {
      if (row < 2 || column >= width) return undefined;
      const shape = shapes[row * width + column];
      return shape && shape === shapes[(row - 1) * width + column] ? 'up' : undefined;
    },
  };
}

/**
 * A period cell taken month by month: the latest (`latest`) or the earliest of the period's months whose flag is 1,
 * each month's cell as the row aggregated over that month alone (`singles`, with each month's flag condition).
 */
function byMonth(
  scratch: PeriodSheet,
  row: RowDef,
  p: Exclude<Period, { kind: 'month' }>,
  singles: PeriodScope[],
  conditions: (string | undefined)[],
  latest: boolean,
): string | null {
  const order = singles.map((_, k) => k);
  if (latest) order.reverse();
  if (periodCell(scratch, row, p, singles[order[0] ?? 0] as PeriodScope) == null) return null;
  let e = '""';
  for (let k = order.length - 1; k >= 0; k--) {
    const m = order[k] ?? 0;
    const cell = expression(periodCell(scratch, row, p, singles[m] as PeriodScope));
    const condition = conditions[m];
    e = condition === undefined ? cell : `IF(${condition},${cell},${e})`;
  }
  return `=${e}`;
}

/**
 * The shapes of `dynamicMasked`'s cells: a month cell reading its source's same cell, and period cells of summed,
 * last-month and first-month rows, each reading its own row only; any other cell is its own.
 */
const SHAPE = { OWN: 0, MONTH: 1, SUM: 2, LAST: 3, FIRST: 4 } as const;

/**
 * The Variance sheet with each period not compared at export compared while any of its months is ACT; `base` is the
 * sheet compared in every column (`compileVariance` over every month, its filled cells `FILLED`). Each comparison of `compileVariance` reads its own period's ActualToDate cell
 * first and is blank while that is (`varianceComparisons.test.ts`), which `dynamicMasked` makes it whenever none of
 * the period's months is ACT: so a comparison needs no condition of its own.
 */
export function dynamicVariance(plan: PlanFile, c: CaseLayout, grid: Grid | undefined, base: Grid): Grid {
  const fixed = fixedMonths(plan, c);
  // The columns kept as compiled at export: periods with a month ACT whatever is typed.
  const kept = new Set<number>();
  for (const [column, p] of periodOfColumn) {
    if (grid && (p.kind === 'month' ? [p.t] : p.months).some((t) => fixed.has(t))) kept.add(column);
  }
  return base.map((row, r) =>
    row.map((content, column) => {
      if (r === 0 || column === 0 || !periodOfColumn.has(column)) return grid?.[r]?.[column] ?? content;
      return kept.has(column) ? (grid?.[r]?.[column] ?? null) : content;
    }),
  );
}

/**
 * Which cells of a Variance sheet (`dynamicVariance`) are the comparison to their left moved one column right: every
 * formula below its header row is a comparison of `compileVariance`, and two side by side in a row compare the same
 * rows of ActualToDate and EstimateToDate in the same way, each in its own column; so a row's comparisons are one
 * formula filled right.
 */
export function varianceShared(grid: Grid): Sharing {
  return (row, column) =>
    row > 0 && column > 1 && typeof grid[row]?.[column] === 'string' && typeof grid[row]?.[column - 1] === 'string'
      ? 'left'
      : undefined;
}

/**
 * The values of a Variance sheet whose every comparison is blank at export (`blankValues`), read from where its cells
 * are: below its header row and right of its labels, every text is a comparison (`varianceShared`).
 */
export function varianceBlankValues(grid: Grid): Value[][] {
  return grid.map((row, r) =>
    row.map((content, column) => (r > 0 && column > 0 && typeof content === 'string' ? null : content)),
  );
}

/**
 * The Dashboard of a case computed from the latest ACT month of the flags sheet: the latest value, the 3/6/12-month
 * averages, the fiscal year achieved, the latest month, the MRR goal and as-is. `view` is the Actual sheet, `estimate`
 * and `actualToDate` the case's; `base` is the Dashboard compiled with every month ACT (the rate rows' formulas).
 */
export function dynamicDashboard(input: {
  plan: PlanFile;
  c: CaseLayout;
  grid: Grid;
  base: Grid;
  view: string;
  estimate: string;
  actualToDate: string;
  asOfMonth: number;
  /** The case had no ACT month at export: the estimate stands for the view until one is typed. */
  bare: boolean;
}): Grid {
  const { plan, c, base, view, estimate, actualToDate } = input;
  const d = c.dashboard;
  const rows = rowsFor(plan.template);
  const out = input.grid.map((row) => row.slice());
  const set = (row: number, column: number, content: string | number | null) => {
    const r = out[row];
    if (r) r[column] = content;
  };
  const L = latestRef(c.index);
  const lastColumn = columnLetter(PERIOD_COLUMNS);
  const columns = `${a1(COLUMN_ROW, 1, actMonthsSheetName(c.index), true)}:${a1(COLUMN_ROW, PLAN_MONTHS, undefined, true)}`;
  const at = (sheet: string, key: string, month: string) => {
    const r = (c.rowOf[key] ?? 0) + 1;
    return `INDEX(${sheet}!$A$${r}:$${lastColumn}$${r},1,INDEX(${columns},1,${month}))`;
  };
  const year = `INT((${L}-1)/12)+1`;
  const byYear = (sheet: string, key: string) =>
    `CHOOSE(${year},${[1, 2, 3, 4, 5, 6].map((y) => a1(c.rowOf[key] ?? 0, yearColumn(y), sheet)).join(',')})`;
  for (const row of rows) {
    const r = d.metricRow[row.key];
    if (r === undefined) continue;
    const latest = at(view, row.key, L);
    set(r, d.column.latest_value, `=IF(${L}=0,"",IF(${latest}="","",${latest}))`);
    for (const [name, n] of [
      ['ave_three_monthes', 3],
      ['ave_six_monthes', 6],
      ['ave_twelve_monthes', 12],
    ] as const) {
      const column = d.column[name];
      let content: string | null = null;
      if (row.rule === 'sum' || row.rule === 'last' || row.rule === 'first') {
        const terms = Array.from(
          { length: n },
          (_, k) => `(${L}-${k}>=1)*IFERROR(1*${at(view, row.key, `MAX(1,${L}-${k})`)},0)`,
        );
        content = `=IF(${L}=0,"",(${terms.join('+')})/MIN(${n},${L}))`;
      } else if (row.rule === 'same') {
        const f = base[r]?.[column];
        content = f == null ? null : `=IF(${L}=0,"",${expression(f)})`;
      } else if (row.key === 'burn_multiple') {
        const arr = at(view, 'arr', L);
        const before = `IF(${L}-${n}>=1,${at(view, 'arr', `MAX(1,${L}-${n})`)},0)`;
        const oi = a1(d.metricRow.operating_income ?? 0, column);
        content = `=IF(${L}=0,"",IF(${arr}-${before}>0,MAX(0,-${oi})*MIN(${n},${L})/(${arr}-${before}),""))`;
      }
      set(r, column, content);
    }
    const ytd = byYear(actualToDate, row.key);
    const planned = byYear(estimate, row.key);
    set(
      r,
      d.column.fiscal_year_achieved,
      `=IF(${L}=0,"",IF(OR(${ytd}="",${planned}=""),"",IFERROR(${ytd}/${planned},"")))`,
    );
  }
  const s = (key: keyof typeof d.scalarRow) => d.scalarRow[key];
  set(s('latest_actual_month'), 1, `=IF(${L}=0,"",${L})`);
  if (input.bare) {
    const cash = (sheet: string) => a1(c.rowOf.cash_out_month ?? 0, yearColumn(6), sheet);
    set(s('cash_out_month'), 1, `=IF(${L}=0,${cash(estimate)},${cash(view)})`);
  }
  const asOf = Math.min(72, Math.max(1, input.asOfMonth));
  const goalYear = `MIN(6,MAX(1,INT((IF(${L}=0,${asOf},${L})-1)/12)+1))`;
  const goals = [1, 2, 3, 4, 5, 6].map((y) => a1(c.rowOf.mrr ?? 0, monthColumn(12 * y), estimate));
  set(s('mrr_goal'), 1, `=CHOOSE(${goalYear},${goals.join(',')})`);
  set(s('mrr_as_is'), 1, `=IF(${L}=0,"",${at(view, 'mrr', L)})`);
  return out;
}
