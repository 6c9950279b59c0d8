/**
 * @topline/engine: a business plan's inputs in, one HyperFormula workbook out, and the read models and exports of
 * that workbook. Pure TypeScript with no I/O: the same code runs in Node and in the browser.
 */
export type { CaseLayout, CompiledWorkbook } from './compile';
export { costGroupOf } from './compile/costs';
export { csvFileName, formatCsvNumber, kpiCsv, plCsv, revenueCsv } from './csv';
export { EditError, type PlanEdit } from './edits';
export {
  ALL_PERIODS,
  calendarOf,
  monthColumn,
  type Period,
  periodsOfYear,
  planMonthOf,
  quarterColumn,
  yearColumn,
  yearOf,
} from './layout';
export type { NumberRecord, SpecRow, ViewName } from './read/cells';
export { VIEWS } from './read/cells';
export { DASHBOARD_METRICS, type Dashboard, type DashboardSeries } from './read/dashboard';
export { estimateMonths, type GridColumn, type MonthlyPlYear, type MonthType } from './read/monthly';
export {
  assumptions,
  type CostGroupYear,
  type CostItemYear,
  type CostYear,
  type KpiYear,
  type PlYearRow,
  type RevenueYear,
} from './read/plan';
export { MONEY_KEYS, RATE_KEYS, recordKeys } from './rows';
export * from './schema';
export {
  type ApplyResult,
  FormulaError,
  HYPERFORMULA_CONFIG,
  PlanWorkbook,
  type ReadModelName,
  type Value,
} from './workbook';
