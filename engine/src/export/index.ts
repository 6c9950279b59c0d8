/** The spreadsheet exports of a plan's workbook (MODEL.md section 8): XLSX bytes and the Google Sheets grid. */
export { type FormatKind, formatPattern, metricFormat } from './formats';
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
