/** The spreadsheet exports of a plan's workbook (MODEL.md section 8): XLSX bytes and the Google Sheets grid. */

export {
  type ActualCellError,
  type ActualChange,
  type ActualInputsReading,
  actualInputKeys,
  actualInputsSheetName,
  type CellValue,
  cellErrorText,
  type ImportedMonths,
  PLAN_MARKER_SHEET,
  type ReadActualInputsOptions,
  readActualInputs,
  type SheetValues,
} from './actualInputs';
export { COMPARISON_SHEET, comparisonSheet, exportComparisonXlsx } from './comparisonSheet';
export { type FormatKind, formatPattern, metricFormat } from './formats';
export { type ExportSheet, type ExportSheetsOptions, exportSheets } from './linked';
export { ACTUAL_INPUTS_SHEET_ENDING, xlsxSheetName, xlsxSheetNames } from './sheetNames';
export {
  type SheetsCell,
  SheetsExportError,
  type SheetsExtendedValue,
  type SheetsGrid,
  type SheetsNamedRange,
  type SheetsNumberFormat,
  type SheetsRequest,
  type SheetsSheet,
  sheetsBatchRequests,
  sheetsGrid,
  sheetsValueUpdate,
} from './sheets';
export { snapshotSheet, snapshotSheetName, snapshotSheets } from './snapshotSheet';
export {
  type ExportWorkbook,
  type SheetData,
  sheetData,
  sheetOfData,
  type WorkbookData,
  workbookData,
  workbookOfData,
} from './workbookData';
export { exportXlsx, XlsxExportError, type XlsxOptions } from './xlsx';
export {
  readActualInputsXlsx,
  type XlsxBound,
  type XlsxBoundName,
  XlsxReadError,
  type XlsxReadLimits,
  type XlsxReadOptions,
  xlsxSheetValues,
} from './xlsxRead';
