/**
 * Reading an XLSX file back as plain cell values per sheet title (`SheetValues`), the form the actual-inputs reader
 * takes. A formula cell gives its cached result (what Excel, LibreOffice or Sheets computed when saving), a date or an
 * error cell its text, so that a number cell holding either is refused as not a number. No I/O here.
 */
import ExcelJS from 'exceljs';
import type { PlanFile } from '../schema';
import {
  type ActualInputsReading,
  type CellValue,
  type ReadActualInputsOptions,
  readActualInputs,
  type SheetValues,
} from './actualInputs';

/** Thrown when the bytes are not an XLSX file. */
export class XlsxReadError extends Error {
  override readonly name = 'XlsxReadError';
}

/**
 * Every sheet's cell values, rows then columns from A1.
 * @throws {XlsxReadError} when the bytes are not a readable XLSX file.
 */
export async function xlsxSheetValues(bytes: Uint8Array): Promise<SheetValues> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new XlsxReadError('the file is not an XLSX workbook');
  }
  const out: Record<string, CellValue[][]> = {};
  for (const sheet of book.worksheets) {
    const rows: CellValue[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row, r) => {
      const values: CellValue[] = [];
      row.eachCell({ includeEmpty: false }, (cell, c) => {
        values[c - 1] = plainValue(cell.value);
      });
      for (let c = 0; c < values.length; c++) if (values[c] === undefined) values[c] = null;
      rows[r - 1] = values;
    });
    for (let r = 0; r < rows.length; r++) if (rows[r] === undefined) rows[r] = [];
    out[sheet.name] = rows;
  }
  return out;
}

function plainValue(v: ExcelJS.CellValue): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('formula' in v || 'sharedFormula' in v) {
      const result = (v as { result?: unknown }).result;
      if (result === undefined || result === null) return `=${(v as { formula?: string }).formula ?? ''}`;
      if (typeof result === 'object' && result !== null && 'error' in result) return String(result.error);
      return result instanceof Date ? result.toISOString().slice(0, 10) : (result as CellValue);
    }
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('error' in v) return String(v.error);
    if ('text' in v) return String(v.text);
  }
  return String(v);
}

/**
 * Reads the actual inputs of every case from an exported XLSX file (see `readActualInputs`).
 * @throws {XlsxReadError} when the bytes are not a readable XLSX file.
 */
export async function readActualInputsXlsx(
  plan: PlanFile,
  bytes: Uint8Array,
  options: ReadActualInputsOptions = {},
): Promise<ActualInputsReading> {
  return readActualInputs(plan, await xlsxSheetValues(bytes), options);
}
