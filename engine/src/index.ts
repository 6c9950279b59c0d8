/**
 * @topline/engine: a business plan's inputs in, one HyperFormula workbook out, and the read models and exports of
 * that workbook. Pure TypeScript with no I/O: the same code runs in Node and in the browser.
 *
 * What other packages may use, by entry point (package.json `exports`):
 * - `@topline/engine`: this file, the workbook (HyperFormula) and everything the lighter entry points list;
 * - `@topline/engine/schema`, `/calendar`, `/shapes`, `/labels`: the plan file, plan and calendar months, the
 *   answers' shapes and the rows' names, none of which reaches HyperFormula, so the contract and the browser's first
 *   bundle may take them by value;
 * - `@topline/engine/export`: the XLSX and Google Sheets exports (ExcelJS), for the API.
 */

export * from './calendar';
export { comparisonCsv, comparisonCsvRows } from './comparisonCsv';
export { type CaseLayout, type CompiledWorkbook, compilePlan } from './compile';
export {
  type CsvRows,
  csvFileName,
  csvLines,
  formatCsvNumber,
  kpiCsv,
  kpiCsvRows,
  MONTHLY_VIEWS,
  type MonthlyCsvView,
  monthlyCsv,
  monthlyCsvRows,
  plCsv,
  plCsvRows,
  revenueCsv,
  revenueCsvRows,
} from './csv';
export { type CsvLanguage, csvLanguage } from './csvLabels';
export { applyEdits, EditError, type PlanEdit, revisionMonth } from './edits';
export {
  ExplainError,
  type ExplainInput,
  type ExplainRequest,
  type ExplainSource,
  type Explanation,
  explain,
} from './explain';
export { EXPLAIN_LANGUAGES, type ExplainLanguage } from './explainLabels';
export * from './labels';
export { ALL_PERIODS, a1, monthColumn, type Period, periodsOfYear, quarterColumn, yearColumn } from './layout';
export type { ApplyResult, ReadModelName } from './patch';
export { changedEntries, sameData } from './planDiff';
export { assumptions } from './read/assumptions';
export { caseComparison } from './read/caseComparison';
export { estimateMonths } from './read/monthly';
export { type ComparedSnapshot, snapshotCompared } from './read/snapshotComparison';
export { explainAgainstSnapshot } from './read/snapshotExplain';
export {
  againstSnapshot,
  type PlanOfRecord,
  snapshotCaseIndex,
  snapshotGrid,
  snapshotMismatch,
} from './read/snapshotVariance';
export { revisionPreview } from './revise';
export { MONEY_KEYS, RATE_KEYS, recordKeys } from './rows';
export * from './schema';
export * from './shapes';
export { type BrokenCell, FormulaError, HYPERFORMULA_CONFIG, PlanWorkbook, type Value } from './workbook';
