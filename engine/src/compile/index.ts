/**
 * Compiles a plan file into the sheets and named expressions of one workbook. Pure: the same inputs give the same
 * cells, so an edit recompiles and the workbook receives only the cells that differ.
 */

import { isPlanMonth, planMonthOf } from '../calendar';
import { a1 } from '../layout';
import { type RowDef, recordKeys, rowsFor } from '../rows';
import type { PlanFile, Template } from '../schema';
import { actMonths, compileActual, type DailySums, revisedMonths } from './actual';
import {
  Assumptions,
  caseRateName,
  compileAssumptions,
  compilePlanSheet,
  PLAN_NAMES,
  PLAN_SHEET,
  planRef,
} from './assumptions';
import {
  ACTUAL_TO_DATE_TITLE,
  comparedPeriods,
  compileMasked,
  compileVariance,
  ESTIMATE_TO_DATE_TITLE,
} from './compare';
import { type CostLayout, compileCosts } from './costs';
import { compileDashboard, type DashboardLayout } from './dashboard';
import { compileEstimate } from './estimate';
import { caseOfInputPath, emptyGrid, type Grid, type InputCells, PeriodSheet, setCell } from './grid';

export type { Cell, Grid, InputCell, InputCells } from './grid';
export { inputPath } from './grid';

export interface CaseLayout {
  index: number;
  sheets: {
    assumptions: string;
    estimate: string;
    actual?: string;
    actualToDate?: string;
    estimateToDate?: string;
    variance?: string;
    costs: string;
    daily?: string;
    dashboard: string;
  };
  /** Row index of every metric in the estimate, actual and masked sheets. */
  rowOf: Record<string, number>;
  /** Metric rows of the variance blocks (the monthly record's keys). */
  varianceRows: RowDef[];
  act: number[];
  revised: number[];
  latest: number | undefined;
  costs: CostLayout;
  dashboard: DashboardLayout;
}

export interface CompiledWorkbook {
  sheets: Record<string, Grid>;
  names: { name: string; expression: string }[];
  template: Template;
  asOfMonth: number;
  cases: CaseLayout[];
  /** The cells each monthly input (cash items, entered actuals) was written to as a literal. */
  inputCells: InputCells;
}

export interface CompileOptions {
  /** Today's calendar month; decides the runway's start in a plan without actuals. */
  asOf: { year: number; month: number };
}

export function caseSheetName(caseIndex: number, part: string): string {
  return `C${caseIndex + 1}_${part}`;
}

export function compilePlan(plan: PlanFile, options: CompileOptions): CompiledWorkbook {
  const asOfMonth = planMonthOf(plan.start_year, plan.start_month, options.asOf.year, options.asOf.month);
  const sheets: Record<string, Grid> = { [PLAN_SHEET]: compilePlanSheet(plan, asOfMonth) };
  const names: { name: string; expression: string }[] = PLAN_NAMES.map((name) => ({
    name,
    expression: `=${planRef(name)}`,
  }));
  const inputCells: InputCells = new Map();
  const context = caseContext(plan, asOfMonth, inputCells);
  const cases = plan.cases.map((_, i) => {
    const compiled = compileCase(context, i);
    Object.assign(sheets, compiled.sheets);
    names.push({ name: caseRateName(i), expression: `=${a1(1, 1, compiled.layout.sheets.assumptions, true)}` });
    return compiled.layout;
  });
  return { sheets, names, template: plan.template, asOfMonth, cases, inputCells };
}

/**
 * The two sides of every month as the spreadsheet exports take them (`export/conditionalMonths.ts`), from the plan
 * with every month ACT in every case, without values or revisions (`plan`, as the exports make it):
 * - `act`: that plan compiled, each case's sheets as `compilePlan` gives them but its ActualToDate, EstimateToDate and
 *   Variance sheets only named in its layout, not compiled, as the exports write those themselves
 *   (`export/actMonths.ts`), and its Estimate and Actual sheets' months alone, which is what the exports read;
 * - `forecasts`: by case, its Actual sheet with no month ACT, every month as the actual view forecasts a month that is
 *   not ACT, which depends on that month alone (without a revision, which needs an ACT month, it is the estimate).
 */
export function compileActSide(plan: PlanFile, options: CompileOptions): { act: CompiledWorkbook; forecasts: Grid[] } {
  const asOfMonth = planMonthOf(plan.start_year, plan.start_month, options.asOf.year, options.asOf.month);
  const sheets: Record<string, Grid> = { [PLAN_SHEET]: compilePlanSheet(plan, asOfMonth) };
  const inputCells: InputCells = new Map();
  const context = { ...caseContext(plan, asOfMonth, inputCells), namesOnly: true };
  const forecasts: Grid[] = [];
  const none = () => undefined;
  const cases = plan.cases.map((c, i) => {
    const compiled = compileCase(context, i);
    Object.assign(sheets, compiled.sheets);
    const { assumptions, estimate } = compiled;
    const asForecast = { ...c, actuals: {}, revisions: {} };
    const inputs = { caseIndex: i, cells: new Map() };
    const name = caseSheetName(i, 'Actual');
    forecasts.push(
      compileActual(name, asForecast, plan.template, assumptions, estimate, context.start, none, inputs).grid,
    );
    return compiled.layout;
  });
  return { act: { sheets, names: [], template: plan.template, asOfMonth, cases, inputCells }, forecasts };
}

/**
 * The workbook after edits that touched only the given cases' inputs: those cases compiled again, every other sheet
 * kept as the same grid object (so `apply` skips it), in the order a full compile gives. The plan's own inputs and its
 * list of cases must be as `previous` was compiled from.
 */
export function recompileCases(previous: CompiledWorkbook, plan: PlanFile, caseIndices: Set<number>): CompiledWorkbook {
  const inputCells: InputCells = new Map(
    [...previous.inputCells].filter(([path]) => !caseIndices.has(caseOfInputPath(path))),
  );
  const context = caseContext(plan, previous.asOfMonth, inputCells);
  const sheets: Record<string, Grid> = { [PLAN_SHEET]: previous.sheets[PLAN_SHEET] ?? [] };
  const cases = previous.cases.map((layout, i) => {
    if (caseIndices.has(i)) {
      const compiled = compileCase(context, i);
      Object.assign(sheets, compiled.sheets);
      return compiled.layout;
    }
    const own = new Set(Object.values(layout.sheets));
    for (const name of Object.keys(previous.sheets)) if (own.has(name)) sheets[name] = previous.sheets[name] as Grid;
    return layout;
  });
  return { ...previous, sheets, cases, inputCells };
}

interface CaseContext {
  plan: PlanFile;
  asOfMonth: number;
  start: { year: number; month: number };
  rows: RowDef[];
  varianceRows: RowDef[];
  inputCells: InputCells;
  /**
   * The ActualToDate, EstimateToDate and Variance sheets are named in the layout, not compiled, the Costs sheet is
   * left out, and the Estimate and Actual sheets have their months only, no quarters or years (`compileActSide`).
   */
  namesOnly?: boolean;
}

function caseContext(plan: PlanFile, asOfMonth: number, inputCells: InputCells): CaseContext {
  const rows = rowsFor(plan.template);
  const keys = new Set(recordKeys(plan.template));
  return {
    plan,
    asOfMonth,
    start: { year: plan.start_year, month: plan.start_month },
    rows,
    varianceRows: rows.filter((r) => keys.has(r.key)),
    inputCells,
  };
}

/** A case's Assumptions and Estimate sheets, whose inputs are recorded in `inputCells`. */
function caseEstimate(context: CaseContext, i: number) {
  const { plan, start } = context;
  const c = plan.cases[i];
  if (!c) throw new RangeError(`the plan has no case ${i}`);
  const assumptions = new Assumptions(caseSheetName(i, 'Assumptions'));
  const assumptionsGrid = compileAssumptions(c, i);
  const inputs = { caseIndex: i, cells: context.inputCells };
  const estimate = compileEstimate(
    caseSheetName(i, 'Estimate'),
    c,
    plan.template,
    assumptions,
    start,
    inputs,
    !context.namesOnly,
  );
  return { assumptions, assumptionsGrid, inputs, estimate };
}

/** The sheets of one case, in workbook order, and their layout; its monthly inputs are recorded in `inputCells`. */
function compileCase(
  context: CaseContext,
  i: number,
): { sheets: Record<string, Grid>; layout: CaseLayout; assumptions: Assumptions; estimate: PeriodSheet } {
  const { plan, asOfMonth, start, rows, varianceRows } = context;
  const c = plan.cases[i];
  if (!c) throw new RangeError(`the plan has no case ${i}`);
  const sheets: Record<string, Grid> = {};
  const name = (part: string) => caseSheetName(i, part);
  const { assumptions, assumptionsGrid, inputs, estimate } = caseEstimate(context, i);
  sheets[assumptions.sheet] = assumptionsGrid;
  sheets[estimate.name] = estimate.grid;
  const layout: CaseLayout = {
    index: i,
    sheets: {
      assumptions: assumptions.sheet,
      estimate: estimate.name,
      costs: name('Costs'),
      dashboard: name('Dashboard'),
    },
    rowOf: estimate.rowOf,
    varianceRows,
    act: actMonths(c).filter(isPlanMonth),
    revised: [],
    latest: undefined,
    costs: { itemRows: [], summaryRow: {} as CostLayout['summaryRow'] },
    dashboard: {} as DashboardLayout,
  };
  layout.latest = layout.act.at(-1);
  layout.revised = [...revisedMonths(c, new Set(layout.act)).keys()];

  const daily = compileDaily(c.daily, plan.start_year, plan.start_month, name('Daily'));
  if (daily) {
    sheets[daily.name] = daily.grid;
    layout.sheets.daily = daily.name;
  }

  let view: PeriodSheet = estimate;
  let actualToDate: PeriodSheet | undefined;
  if (layout.act.length > 0) {
    const actual = compileActual(
      name('Actual'),
      c,
      plan.template,
      assumptions,
      estimate,
      start,
      daily?.sums ?? (() => undefined),
      inputs,
      !context.namesOnly,
    );
    sheets[actual.name] = actual.grid;
    view = actual;
    Object.assign(layout.sheets, {
      actual: actual.name,
      actualToDate: name('ActualToDate'),
      estimateToDate: name('EstimateToDate'),
      variance: name('Variance'),
    });
    if (context.namesOnly) {
      // Referred to by name only (the Dashboard's fiscal year achieved reads its year cells).
      actualToDate = new PeriodSheet(name('ActualToDate'), rows, '', start.year, start.month);
    } else {
      actualToDate = compileMasked(name('ActualToDate'), ACTUAL_TO_DATE_TITLE, actual, rows, layout.act, start);
      const estimateToDate = compileMasked(
        name('EstimateToDate'),
        ESTIMATE_TO_DATE_TITLE,
        estimate,
        rows,
        layout.act,
        start,
      );
      sheets[actualToDate.name] = actualToDate.grid;
      sheets[estimateToDate.name] = estimateToDate.grid;
      sheets[name('Variance')] = compileVariance(
        varianceRows,
        actualToDate,
        estimateToDate,
        layout.act,
        estimate.grid[0]?.length ?? 0,
      );
    }
  }

  if (!context.namesOnly) {
    const costs = compileCosts(c.cost_items, estimate, start);
    sheets[layout.sheets.costs] = costs.grid;
    layout.costs = costs.layout;
  }

  const dashboard = compileDashboard({ rows, view, estimate, actualToDate, latest: layout.latest, asOfMonth });
  sheets[layout.sheets.dashboard] = dashboard.grid;
  layout.dashboard = dashboard.layout;
  return { sheets, layout, assumptions, estimate };
}

export { comparedPeriods };

const DAILY_COLUMNS = ['date', 't', 'meeting', 'order', 'registration', 'billing'] as const;

/** Daily entries from the home screen, one row a day; they add up into their month's actual (MODEL.md section 5). */
function compileDaily(
  daily: PlanFile['cases'][number]['daily'],
  startYear: number,
  startMonth: number,
  name: string,
): { name: string; grid: Grid; sums: DailySums } | undefined {
  const dates = Object.keys(daily).sort();
  if (dates.length === 0) return undefined;
  const grid = emptyGrid(dates.length + 1, DAILY_COLUMNS.length);
  DAILY_COLUMNS.forEach((c, i) => {
    setCell(grid, 0, i, c);
  });
  const rowsOfMonth = new Map<number, number[]>();
  dates.forEach((date, i) => {
    const [y, m] = date.split('-').map(Number);
    const t = planMonthOf(startYear, startMonth, y ?? 0, m ?? 0);
    const entry = daily[date] ?? {};
    setCell(grid, i + 1, 0, date);
    setCell(grid, i + 1, 1, t);
    setCell(grid, i + 1, 2, entry.meeting ?? null);
    setCell(grid, i + 1, 3, entry.order ?? null);
    setCell(grid, i + 1, 4, entry.registration ?? null);
    setCell(grid, i + 1, 5, entry.billing ?? null);
    rowsOfMonth.set(t, [...(rowsOfMonth.get(t) ?? []), i + 1]);
  });
  const column = (metric: string) => DAILY_COLUMNS.indexOf(metric as (typeof DAILY_COLUMNS)[number]);
  const range = (rows: number[], metric: string) =>
    `SUM(${a1(Math.min(...rows), column(metric), name)}:${a1(Math.max(...rows), column(metric))})`;
  const sums: DailySums = (metric, t) => {
    const rows = rowsOfMonth.get(t);
    if (!rows) return undefined;
    // A self-serve plan's "billing" entries are its paid conversions, its new customers.
    return metric === 'order' ? `${range(rows, 'order')}+${range(rows, 'billing')}` : range(rows, metric);
  };
  return { name, grid, sums };
}
