import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { XlsxReadError, type XlsxReadLimits, xlsxSheetValues } from './xlsxRead';

const LIMITS: XlsxReadLimits = { uncompressedBytes: 5_000_000, cells: 3_000, rows: 1_000, stringLength: 100 };

/** A one-sheet workbook of `rows` rows of `columns` numbers, and the text `text` in A1 when given. */
async function book(rows: number, columns: number, text?: string): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Data');
  for (let r = 1; r <= rows; r++) sheet.addRow(Array.from({ length: columns }, (_, c) => r * 100 + c));
  if (text !== undefined) sheet.getCell('A1').value = text;
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

async function refusal(bytes: Uint8Array, limits = LIMITS): Promise<XlsxReadError> {
  try {
    await xlsxSheetValues(bytes, { limits });
  } catch (error) {
    if (error instanceof XlsxReadError) return error;
    throw error;
  }
  throw new Error('read without a refusal');
}

describe('xlsxSheetValues within limits', () => {
  it('reads a file at every bound and refuses one cell, one row or one character more, naming the bound', async () => {
    // 1,000 rows of 3 cells: exactly the cell and row bounds, counted across the chunks the part inflates in.
    const atBounds = await xlsxSheetValues(await book(1_000, 3), { limits: LIMITS });
    expect(atBounds.Data?.length).toBe(1_000);
    expect((await refusal(await book(1_000, 3), { ...LIMITS, cells: 2_999 })).bound).toEqual({
      name: 'cells',
      max: 2_999,
      value: 3_000,
    });
    expect((await refusal(await book(1_001, 1))).bound).toMatchObject({ name: 'rows', max: 1_000 });
    await xlsxSheetValues(await book(1, 1, 'x'.repeat(100)), { limits: LIMITS });
    expect((await refusal(await book(1, 1, 'x'.repeat(101)))).bound).toMatchObject({
      name: 'string_length',
      max: 100,
    });
  });

  it('refuses a file whose parts inflate past the bound, from the zip directory and as they inflate', async () => {
    const zip = await JSZip.loadAsync(await book(1, 1));
    zip.file('xl/media/zeros.bin', '0'.repeat(LIMITS.uncompressedBytes));
    const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    const error = await refusal(bytes);
    expect(error.bound?.name).toBe('uncompressed_bytes');
    expect(error.bound?.value).toBeGreaterThan(LIMITS.uncompressedBytes);
  });

  it('answers a date cell whose number is no date as a cell error, and bytes that are no XLSX as such', async () => {
    const wb = new ExcelJS.Workbook();
    const cell = wb.addWorksheet('Data').getCell('B3');
    cell.value = 1e12;
    cell.numFmt = 'yyyy-mm-dd';
    const error = await refusal(new Uint8Array(await wb.xlsx.writeBuffer()));
    expect(error.cells).toEqual([{ cell: 'Data!B3', message: 'the date is out of range' }]);
    expect((await refusal(new TextEncoder().encode('a,b\n1,2\n'))).message).toBe('the file is not an XLSX workbook');
  });
});
