/**
 * A plan's workbook as plain data, for an export written away from the workbook (another thread): the plan file, the
 * month the workbook was built as of and every sheet's values. The layout is compiled again from the plan, which
 * gives the grids the workbook holds (`compilePlan` is a function of the plan and the month); the values are the
 * workbook's own, so the file caches what the engine computed and no formula is evaluated again.
 */
import { calendarOf } from '../calendar';
import { type CompiledWorkbook, compilePlan, type Grid } from '../compile/index';
import type { PlanFile } from '../schema';
import type { PlanWorkbook, Value } from '../workbook';
import type { FormatKind } from './formats';
import type { ExportSheet } from './sheetValues';

/** What the exports read of a plan's workbook. */
export type ExportWorkbook = Pick<
  PlanWorkbook,
  'plan' | 'layout' | 'sheetNames' | 'grid' | 'sheetValues' | 'caseLayout'
>;

/** A workbook as data a structured clone carries. */
export interface WorkbookData {
  plan: PlanFile;
  /** The plan month the workbook was built as of (`CompiledWorkbook.asOfMonth`). */
  asOfMonth: number;
  values: Record<string, Value[][]>;
}

export function workbookData(wb: PlanWorkbook): WorkbookData {
  const values: Record<string, Value[][]> = {};
  for (const name of wb.sheetNames()) values[name] = wb.sheetValues(name);
  return { plan: wb.plan, asOfMonth: wb.layout.asOfMonth, values };
}

/**
 * The workbook of `data` as the exports read it.
 * @throws {Error} when the plan compiles to other sheets than the values were read from
 */
export function workbookOfData(data: WorkbookData): ExportWorkbook {
  const { plan } = data;
  const layout: CompiledWorkbook = compilePlan(plan, {
    asOf: calendarOf(plan.start_year, plan.start_month, data.asOfMonth),
  });
  const names = Object.keys(layout.sheets);
  const read = Object.keys(data.values);
  const differs = names.length !== read.length || names.some((n, i) => read[i] !== n);
  if (differs || names.some((n) => layout.sheets[n]?.length !== data.values[n]?.length)) {
    throw new Error('the plan compiles to other sheets than its values were read from');
  }
  return {
    plan,
    layout,
    sheetNames: () => names,
    grid(sheet: string): Grid {
      const g = layout.sheets[sheet];
      if (!g) throw new RangeError(`no sheet ${sheet}`);
      return g;
    },
    sheetValues(sheet: string): Value[][] {
      const v = data.values[sheet];
      if (!v) throw new RangeError(`no sheet ${sheet}`);
      return v;
    },
    caseLayout(caseIndex: number) {
      const c = layout.cases[caseIndex];
      if (!c) throw new RangeError(`the plan has no case ${caseIndex}`);
      return c;
    },
  };
}

/** An export sheet as data a structured clone carries: its formats and user text cell by cell. */
export interface SheetData {
  name: string;
  grid: Grid;
  values?: Value[][];
  formats: (FormatKind | null)[][];
  texts: (string | null)[][];
  frozenColumns: number;
  hidden?: boolean;
}

export function sheetData(sheet: ExportSheet): SheetData {
  const { name, grid, values, formatOf, textOf, frozenColumns, hidden } = sheet;
  return {
    name,
    grid,
    ...(values ? { values } : {}),
    formats: grid.map((row, r) => row.map((_, c) => formatOf(r, c) ?? null)),
    texts: grid.map((row, r) => row.map((_, c) => textOf(r, c) ?? null)),
    frozenColumns,
    ...(hidden === undefined ? {} : { hidden }),
  };
}

export function sheetOfData(data: SheetData): ExportSheet {
  const { name, grid, values, formats, texts, frozenColumns, hidden } = data;
  return {
    name,
    grid,
    ...(values ? { values } : {}),
    formatOf: (r, c) => formats[r]?.[c] ?? undefined,
    textOf: (r, c) => texts[r]?.[c] ?? undefined,
    frozenColumns,
    ...(hidden === undefined ? {} : { hidden }),
  };
}
