/**
 * Reading an XLSX file back as plain cell values per sheet title (`SheetValues`), the form the actual-inputs reader
 * takes. A formula cell gives its cached result (what Excel, LibreOffice or Sheets computed when saving), a date or an
 * error cell its text, so that a number cell holding either is refused as not a number. With limits, the file is
 * measured before it is parsed: its zip directory's sizes, then each part as it inflates (cells, rows, the longest
 * text), so that a file built to exhaust memory is refused before any of it is held. No I/O here.
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import type { PlanFile } from '../schema';
import {
  type ActualCellError,
  type ActualInputsReading,
  type CellValue,
  type ReadActualInputsOptions,
  readActualInputs,
  type SheetValues,
} from './actualInputs';

/** The bounds a read checks; `XlsxReadError.bound` names the one a file went over. */
export interface XlsxReadLimits {
  /** Every part inflated, declared and actual. */
  uncompressedBytes: number;
  /** Cells and rows of every sheet. */
  cells: number;
  rows: number;
  /** Characters of any one text or formula of the sheets and their shared strings. */
  stringLength: number;
}
export type XlsxBoundName = 'uncompressed_bytes' | 'cells' | 'rows' | 'string_length';
/** A bound a file went over: its maximum and the value the read had reached when it stopped. */
export interface XlsxBound {
  name: XlsxBoundName;
  max: number;
  value: number;
}

/** Thrown when the bytes are not an XLSX file, go over a bound, or hold a cell that cannot be read. */
export class XlsxReadError extends Error {
  override readonly name = 'XlsxReadError';
  constructor(
    message: string,
    readonly bound?: XlsxBound,
    /** Cells that cannot be read (a date out of range), by `Sheet!A1`. */
    readonly cells: ActualCellError[] = [],
  ) {
    super(message);
  }
}

export interface XlsxReadOptions {
  limits?: XlsxReadLimits;
  /** Only these sheets are answered (every sheet is still measured). */
  sheets?: readonly string[];
  /**
   * With `sheets`: sheets whose names end with one of these are answered too (` Actuals`: the actual-inputs sheets,
   * which the XLSX file names after the cases, `export/sheetNames.ts`).
   */
  sheetsEndingWith?: readonly string[];
}

const NOT_XLSX = 'the file is not an XLSX workbook';

/**
 * Every sheet's cell values, rows then columns from A1.
 * @throws {XlsxReadError} when the bytes are not a readable XLSX file, go over a limit, or hold a date out of range.
 */
export async function xlsxSheetValues(bytes: Uint8Array, options: XlsxReadOptions = {}): Promise<SheetValues> {
  if (options.limits) await measure(bytes, options.limits);
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new XlsxReadError(NOT_XLSX);
  }
  const out: Record<string, CellValue[][]> = {};
  const errors: ActualCellError[] = [];
  const maxText = options.limits?.stringLength ?? Number.POSITIVE_INFINITY;
  for (const sheet of book.worksheets) {
    const ending = options.sheetsEndingWith ?? [];
    if (options.sheets && !options.sheets.includes(sheet.name) && !ending.some((end) => sheet.name.endsWith(end))) {
      continue;
    }
    const rows: CellValue[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row, r) => {
      const values: CellValue[] = [];
      row.eachCell({ includeEmpty: false }, (cell, c) => {
        const value = plainValue(cell.value);
        if (value === OUT_OF_RANGE) {
          errors.push({ cell: `${sheet.name}!${cell.address}`, message: 'the date is out of range' });
          values[c - 1] = null;
        } else if (typeof value === 'string' && value.length > maxText) {
          throw tooLong(maxText, value.length);
        } else values[c - 1] = value;
      });
      for (let c = 0; c < values.length; c++) if (values[c] === undefined) values[c] = null;
      rows[r - 1] = values;
    });
    for (let r = 0; r < rows.length; r++) if (rows[r] === undefined) rows[r] = [];
    out[sheet.name] = rows;
  }
  if (errors.length > 0) throw new XlsxReadError('a date is out of range', undefined, errors);
  return out;
}

/** A date cell whose number is no date (`1e12` formatted `yyyy-mm-dd`): a cell error, not a crash. */
const OUT_OF_RANGE = Symbol('out of range');

/** The text of a date, or `OUT_OF_RANGE` past what a date can be (Excel's last is 9999-12-31). */
function dateText(d: Date): string | typeof OUT_OF_RANGE {
  const time = d.getTime();
  if (!Number.isFinite(time) || d.getUTCFullYear() > 9999 || d.getUTCFullYear() < 0) return OUT_OF_RANGE;
  return d.toISOString().slice(0, 10);
}

function plainValue(v: ExcelJS.CellValue): CellValue | typeof OUT_OF_RANGE {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return dateText(v);
  if (typeof v === 'object') {
    if ('formula' in v || 'sharedFormula' in v) {
      const result = (v as { result?: unknown }).result;
      if (result === undefined || result === null) return `=${(v as { formula?: string }).formula ?? ''}`;
      if (typeof result === 'object' && result !== null && 'error' in result) return String(result.error);
      return result instanceof Date ? dateText(result) : (result as CellValue);
    }
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('error' in v) return String(v.error);
    if ('text' in v) return String(v.text);
  }
  return String(v);
}

const tooLong = (max: number, value: number) =>
  new XlsxReadError(`a text of the file is longer than ${max.toLocaleString('en-US')} characters`, {
    name: 'string_length',
    max,
    value,
  });

function over(name: XlsxBoundName, what: string, max: number, value: number): XlsxReadError {
  return new XlsxReadError(`the file holds more than ${max.toLocaleString('en-US')} ${what}`, { name, max, value });
}

/** The parts whose cells, rows and texts are measured: the sheets and their shared strings. */
const SHEET_PART = /^xl\/worksheets\/[^/]+\.xml$/;
const STRINGS_PART = /^xl\/sharedStrings\.xml$/;

/**
 * Measures the file against `limits` before anything is parsed: the inflated sizes its zip directory declares, then
 * each part as it inflates a chunk at a time (a directory can understate them), counting the cells and rows of the
 * sheets and the longest run of text. Nothing of a part is kept but the counts.
 * @throws {XlsxReadError} at the first bound gone over
 */
async function measure(bytes: Uint8Array, limits: XlsxReadLimits): Promise<void> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new XlsxReadError(NOT_XLSX);
  }
  const parts = Object.values(zip.files).filter((f) => !f.dir);
  const declared = parts.reduce((sum, f) => sum + declaredSize(f), 0);
  const maxBytes = limits.uncompressedBytes;
  if (declared > maxBytes) throw over('uncompressed_bytes', 'bytes inflated', maxBytes, declared);
  const count = { bytes: 0, cells: 0, rows: 0 };
  for (const part of parts) {
    const sheet = SHEET_PART.test(part.name);
    const scan = sheet || STRINGS_PART.test(part.name) ? new XmlScan(limits.stringLength, sheet) : undefined;
    const decoder = new TextDecoder();
    await eachChunk(part, (data) => {
      count.bytes += data.length;
      if (count.bytes > maxBytes) throw over('uncompressed_bytes', 'bytes inflated', maxBytes, count.bytes);
      if (!scan) return;
      scan.add(decoder.decode(data, { stream: true }));
      if (count.cells + scan.cells > limits.cells) throw over('cells', 'cells', limits.cells, count.cells + scan.cells);
      if (count.rows + scan.rows > limits.rows) throw over('rows', 'rows', limits.rows, count.rows + scan.rows);
    });
    count.cells += scan?.cells ?? 0;
    count.rows += scan?.rows ?? 0;
  }
}

/** Inflates a part a chunk at a time; the first throw of `use` stops it and is the answer. */
function eachChunk(part: JSZip.JSZipObject, use: (data: Uint8Array) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = part.nodeStream('nodebuffer');
    stream.on('data', (data: Uint8Array) => {
      try {
        use(data);
      } catch (error) {
        stream.pause();
        stream.removeAllListeners('data');
        reject(error);
      }
    });
    stream.on('end', () => resolve());
    stream.on('error', () => reject(new XlsxReadError(NOT_XLSX)));
  });
}

/** What the zip directory says a part inflates to (JSZip keeps it from the directory; 0 when it has none). */
function declaredSize(part: JSZip.JSZipObject): number {
  const size = (part as unknown as { _data?: { uncompressedSize?: unknown } })._data?.uncompressedSize;
  return typeof size === 'number' && Number.isFinite(size) ? size : 0;
}

/** Counts `<c>` and `<row>` elements and the longest text of an XML part fed a chunk at a time. */
class XmlScan {
  cells = 0;
  rows = 0;
  private inTag = false;
  private run = 0;
  /** The end of the previous chunk, so that an element cut between two chunks is counted once. */
  private tail = '';

  constructor(
    private readonly maxText: number,
    private readonly countCells: boolean,
  ) {}

  add(text: string): void {
    if (this.countCells) {
      const joined = this.tail + text;
      this.cells += countNew(joined, /<c[\s>/]/g, this.tail.length);
      this.rows += countNew(joined, /<row[\s>/]/g, this.tail.length);
      this.tail = joined.slice(-4);
    }
    let i = 0;
    while (i < text.length) {
      const stop = text.indexOf(this.inTag ? '>' : '<', i);
      const end = stop < 0 ? text.length : stop;
      // Text only: a tag's length (the root's namespaces run to hundreds) is bounded by the inflated bytes.
      if (!this.inTag) this.run += end - i;
      if (this.run > this.maxText) throw tooLong(this.maxText, this.run);
      if (stop < 0) return;
      this.inTag = !this.inTag;
      this.run = 0;
      i = stop + 1;
    }
  }
}

/** Matches of `re` in `text` that end past `from` (those before were counted with the previous chunk). */
function countNew(text: string, re: RegExp, from: number): number {
  let n = 0;
  for (const m of text.matchAll(re)) if (m.index + m[0].length > from) n++;
  return n;
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
