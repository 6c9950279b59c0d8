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
export { type FormatKind, formatPattern, metricFormat } from './formats';
export { type ExportSheetsOptions, exportSheets } from './linked';
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
export { exportXlsx, XlsxExportError, type XlsxOptions } from './xlsx';
export { readActualInputsXlsx, XlsxReadError, xlsxSheetValues } from './xlsxRead';
