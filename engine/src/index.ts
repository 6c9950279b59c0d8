/**
 * @topline/engine: a business plan's inputs in, one HyperFormula workbook out, and the read models and exports of
 * that workbook. Pure TypeScript with no I/O: the same code runs in Node and in the browser.
 */
export type { CaseLayout, CompiledWorkbook } from './compile';
export { costGroupOf } from './compile/costs';
export { csvFileName, formatCsvNumber, kpiCsv, type MonthlyCsvView, monthlyCsv, plCsv, revenueCsv } from './csv';
export { type CsvLanguage, csvLanguage } from './csvLabels';
export { EditError, type PlanEdit, revisionMonth } from './edits';
export {
  ExplainError,
  type ExplainInput,
  type ExplainRequest,
  type ExplainSource,
  type ExplainView,
  type Explanation,
  explain,
} from './explain';
export { EXPLAIN_KEYS, EXPLAIN_PERIODS, EXPLAIN_VIEWS, explainTarget } from './explainKeys';
export { EXPLAIN_LANGUAGES, type ExplainLanguage } from './explainLabels';
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
export type { ApplyResult, ReadModelName } from './patch';
export { type AssumptionValues, assumptions, assumptionValuesSchema } from './read/assumptions';
export {
  type Broken,
  brokenSchema,
  type NumberRecord,
  numberRecordSchema,
  type SpecRow,
  specRowSchema,
  VIEWS,
  type ViewName,
} from './read/cells';
export {
  type CostGroupYear,
  type CostItemYear,
  type CostYear,
  costGroupYearSchema,
  costItemYearSchema,
  costYearSchema,
} from './read/costs';
export {
  DASHBOARD_METRICS,
  type Dashboard,
  type DashboardSeries,
  dashboardSchema,
  dashboardSeriesSchema,
} from './read/dashboard';
export { type KpiYear, kpiMonthSchema, kpiQuarterSchema, kpiRecordSchema, kpiYearSchema } from './read/kpi';
export {
  estimateMonths,
  type GridColumn,
  gridColumnSchema,
  type MonthlyPlYear,
  type MonthType,
  monthlyPlYearSchema,
  monthTypeSchema,
  type ViewRecords,
  viewRecordsSchema,
} from './read/monthly';
export { type PlYearRow, plYearRowSchema } from './read/pl';
export { type RevenueYear, revenueMonthSchema, revenueYearSchema } from './read/revenue';
export { MONEY_KEYS, RATE_KEYS, recordKeys } from './rows';
export * from './schema';
export { type BrokenCell, FormulaError, HYPERFORMULA_CONFIG, PlanWorkbook, type Value } from './workbook';
