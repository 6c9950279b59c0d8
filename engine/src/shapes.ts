/**
 * `@topline/engine/shapes`: what the engine's answers look like, without the workbook that computes them. The read
 * models' zod schemas, the keys and periods explain takes, the dashboard's columns and metrics and the rule that puts
 * a cost category in its group. None of it reaches HyperFormula, so the contract and the browser's first bundle may
 * import it by value; everything computed from a plan comes from `@topline/engine`.
 */
export { costGroupOf } from './compile/costs';
export {
  DASHBOARD_COLUMNS,
  DASHBOARD_SCALARS,
  type DashboardColumn,
  type DashboardScalar,
} from './compile/dashboard';
export {
  ASSUMPTION_PREFIX,
  DASHBOARD_PREFIX,
  dashboardKey,
  EXPLAIN_KEYS,
  EXPLAIN_PERIODS,
  EXPLAIN_VIEWS,
  type ExplainPeriod,
  type ExplainTarget,
  type ExplainView,
  explainTarget,
  type PeriodOfYear,
  PL_FIELD_ROWS,
  parseExplainPeriod,
} from './explainKeys';
export { type AssumptionValues, assumptionValuesSchema } from './read/assumptions';
export {
  type CaseComparison,
  COMPARE_KEYS,
  COMPARE_MEASURES,
  type ComparedCase,
  type CompareKey,
  type CompareMeasure,
  type CompareYear,
  caseComparisonSchema,
  comparedCaseSchema,
} from './read/caseComparison';
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
export {
  type RevisionPattern,
  type RevisionPreview,
  revisionPreviewSchema,
} from './read/revisionPreview';
export {
  SNAPSHOT_VIEWS,
  type SnapshotBudget,
  type SnapshotView,
  snapshotBudgetSchema,
} from './read/snapshotVariance';
