/**
 * The actual-inputs sheets of the spreadsheet exports (one per case, `C1 Actuals`, `C2 Actuals`, …), made for people
 * to type actuals into, and the reader that takes them back. Layout: row 1 holds `Actual input` in A1, `key` in B1
 * and the plan months headed `YYYY/MM` from column C on (C = plan month 1, … BV = plan month 72); each further row is
 * one actual input of MODEL.md section 5 for the plan's template, its label in column A and its key in column B
 * (`session`, `order`, `equity_raised`, …); a cell holds the month's entered value or is empty.
 *
 * The reader takes plain cell values per sheet title (what Google Sheets `values.batchGet` answers and what
 * `xlsxSheetValues` reads from an XLSX file), checks every cell, and answers either every change against the plan or
 * every problem, each named by its cell (`C1 Actuals!E7: not a number`). No I/O here.
 */

import { calendarOf } from '../calendar';
import { columnLetter } from '../layout';
import { ROWS } from '../rows';
import {
  type ActualInputs,
  type ActualKey,
  ARPA_MAX,
  ARPA_MIN,
  actualInputsSchema,
  CASH_KEYS,
  COUNT_MAX,
  HEADCOUNT_MAX,
  MONEY_MAX,
  MONEY_MIN,
  PLAN_MONTHS,
  type PlanFile,
  type Template,
} from '../schema';
import { hasInputSign, inputSignMessage, inputSignNote } from '../signs';
import { actualInputsSheetIn } from './sheetNames';

/** One cell's value as a spreadsheet reader gives it; empty cells are null, '' or missing. */
export type CellValue = string | number | boolean | null;
/** Cell values by sheet title, rows then columns from A1; rows and columns may stop short at the last value. */
export type SheetValues = Record<string, readonly (readonly CellValue[] | undefined)[]>;

/** The title of case `caseIndex`'s actual-inputs sheet: `C1 Actuals` for case index 0. */
export const actualInputsSheetName = (caseIndex: number): string => `C${caseIndex + 1} Actuals`;

/** The sheet that names the plan a file was exported from: A1 `business_plan_id`, B1 the plan's id. */
export const PLAN_MARKER_SHEET = 'Topline';
export const PLAN_MARKER_LABEL = 'business_plan_id';

/** First month column (0-based): C. */
export const FIRST_MONTH_COLUMN = 2;

const FUNNEL: Record<Template, ActualKey[]> = {
  saas: ['session', 'lead', 'meeting', 'order'],
  selfserve: ['session', 'registration', 'order'],
};

/** The actual inputs of a template, in sheet order (MODEL.md section 5). */
export function actualInputKeys(template: Template): ActualKey[] {
  return [
    ...FUNNEL[template],
    'churn',
    'arpa',
    'professional_service',
    'cogs',
    'sm',
    'rd',
    'ga',
    'employees',
    ...CASH_KEYS,
  ];
}

/**
 * The English label of an actual input (column A), with the sign the row takes where it has one (engine/src/signs.ts):
 * `COGS (cost: 0 or positive)`, `Other (positive or negative)`.
 */
export function actualInputLabel(key: ActualKey): string {
  const label = ROWS.find((r) => r.key === key)?.label ?? key;
  const note = inputSignNote(key);
  return note ? `${label} (${note})` : label;
}

/** The header of plan month t's column: `2026/04`. */
export function monthHeader(plan: Pick<PlanFile, 'start_year' | 'start_month'>, t: number): string {
  const c = calendarOf(plan.start_year, plan.start_month, t);
  return `${c.year}/${String(c.month).padStart(2, '0')}`;
}

/** 0-based sheet row of each input key (row 0 is the header). */
export function actualInputRows(template: Template): Record<string, number> {
  return Object.fromEntries(actualInputKeys(template).map((k, i) => [k, i + 1]));
}

/** The column (0-based) of plan month t. */
export const actualInputColumn = (t: number): number => FIRST_MONTH_COLUMN + t - 1;

/** The grid of case `caseIndex`'s actual-inputs sheet with the plan's entered values (reversed months included). */
export function actualInputsGrid(plan: PlanFile, caseIndex: number): (string | number | null)[][] {
  const c = plan.cases[caseIndex];
  if (!c) throw new RangeError(`the plan has no case ${caseIndex}`);
  const header: (string | number | null)[] = ['Actual input', 'key'];
  for (let t = 1; t <= PLAN_MONTHS; t++) header.push(monthHeader(plan, t));
  const rows = actualInputKeys(plan.template).map((key) => {
    const row: (string | number | null)[] = [actualInputLabel(key), key];
    for (let t = 1; t <= PLAN_MONTHS; t++) row.push(c.actuals[String(t)]?.[key] ?? null);
    return row;
  });
  return [header, ...rows];
}

/** One change an import makes: case (index and name), plan month, calendar month, input key, old and new value. */
export interface ActualChange {
  caseIndex: number;
  caseName: string;
  /** Plan month index t (1..72). */
  month: number;
  /** The month's header, `YYYY/MM`. */
  yearMonth: string;
  key: ActualKey;
  old: number | null;
  new: number | null;
}

/** A problem with one cell, or with a whole sheet (then `cell` is the sheet title alone). */
export interface ActualCellError {
  /** `C1 Actuals!E7`, or `C1 Actuals` for a missing sheet. */
  cell: string;
  message: string;
}

/** A case's months after the import: the month's values and status, or undefined where the month has none. */
export type ImportedMonths = Map<number, ActualInputs | undefined>;

export type ActualInputsReading =
  | {
      ok: true;
      changes: ActualChange[];
      /** Per case index, the months that change and what each holds afterwards (undefined: no actuals, EST). */
      months: ImportedMonths[];
    }
  | { ok: false; errors: ActualCellError[] };

export interface ReadActualInputsOptions {
  /** The plan's id; when given, the file must name the same plan in its `Topline` sheet. */
  planId?: string | number;
}

/** `ActualCellError` as one line: `C1 Actuals!E7: not a number`. */
export const cellErrorText = (e: ActualCellError): string => `${e.cell}: ${e.message}`;

/**
 * Reads the actual-inputs sheets of every case of `plan` from `sheets`.
 *
 * - A number cell is the month's entered value; an empty cell (null, '' or whitespace) means no value. Text that is a
 *   plain decimal number (`1234.5`, `1,234`, `-20`) is read as that number; any other text, a boolean or a value
 *   outside the input's bounds (`engine/DECISIONS.md`, bounds) is an error of that cell, and so is a figure of the
 *   sign its row does not take (a negative cost, revenue, funding or repayment; the label in column A says so).
 * - A month with any value becomes ACT with exactly the values in its column: an emptied cell removes that actual, a
 *   column emptied whole removes the month's actuals (it returns to EST). A reversed month (EST with kept values)
 *   whose values are all unchanged stays reversed; one with a changed value becomes ACT (`months` says so, the
 *   changes list only values).
 * - Rows are found by the key in column B, so their order may change; a key row missing, a month header that is not
 *   the plan's (`2026/04` in C1), a missing sheet or another plan's id in the `Topline` sheet are errors too.
 * @returns every change, or every error (then nothing may be written).
 */
export function readActualInputs(
  plan: PlanFile,
  sheets: SheetValues,
  options: ReadActualInputsOptions = {},
): ActualInputsReading {
  const errors: ActualCellError[] = [];
  if (options.planId !== undefined) checkMarker(sheets, String(options.planId), errors);
  const changes: ActualChange[] = [];
  const months: ImportedMonths[] = [];
  const keys = actualInputKeys(plan.template);
  plan.cases.forEach((c, caseIndex) => {
    // An XLSX file names the sheet after the case (sheetNames.ts), a Google Sheets export by the case's number.
    const title = actualInputsSheetIn(plan, actualInputsSheetName(caseIndex), sheets);
    const caseMonths: ImportedMonths = new Map();
    months.push(caseMonths);
    const grid = sheets[title];
    if (!grid) {
      errors.push({ cell: title, message: 'the sheet is missing' });
      return;
    }
    const cellName = (row: number, column: number) => `${title}!${columnLetter(column)}${row + 1}`;
    const header = grid[0] ?? [];
    for (let t = 1; t <= PLAN_MONTHS; t++) {
      const column = actualInputColumn(t);
      const expected = monthHeader(plan, t);
      if (headerText(header[column]) !== expected) {
        errors.push({ cell: cellName(0, column), message: `must be the month ${expected}` });
      }
    }
    const rowOf = new Map<string, number>();
    grid.forEach((row, r) => {
      const key = r === 0 ? undefined : row?.[1];
      if (typeof key !== 'string' || key.trim() === '') return;
      const k = key.trim();
      if (!keys.includes(k as ActualKey)) {
        errors.push({ cell: cellName(r, 1), message: `${k} is not an actual input of this plan` });
      } else if (rowOf.has(k)) {
        errors.push({ cell: cellName(r, 1), message: `${k} appears twice` });
      } else rowOf.set(k, r);
    });
    for (const key of keys) {
      if (!rowOf.has(key)) errors.push({ cell: `${title}!B`, message: `the row of ${key} is missing` });
    }
    for (let t = 1; t <= PLAN_MONTHS; t++) {
      const column = actualInputColumn(t);
      const values: Partial<Record<ActualKey, number>> = {};
      for (const key of keys) {
        const r = rowOf.get(key);
        if (r === undefined) continue;
        const parsed = readNumber(grid[r]?.[column]);
        if (parsed === undefined) continue;
        if (typeof parsed === 'string') {
          errors.push({ cell: cellName(r, column), message: parsed });
          continue;
        }
        if (!actualInputsSchema.shape[key].safeParse(parsed).success) {
          errors.push({ cell: cellName(r, column), message: boundsMessage(key) });
          continue;
        }
        // Costs, revenue, funding and repayments are positive amounts in the sheet: a negative one is refused.
        if (!hasInputSign(key, parsed)) {
          errors.push({ cell: cellName(r, column), message: inputSignMessage(key) });
          continue;
        }
        values[key] = parsed;
      }
      const stored = c.actuals[String(t)];
      const monthChanges = diffMonth(stored, values, keys);
      if (monthChanges.length === 0) continue;
      const entered = Object.keys(values).length > 0;
      const next: ActualInputs | undefined = entered ? { ...values, status: 'ACT' } : undefined;
      caseMonths.set(t, next);
      for (const ch of monthChanges) {
        changes.push({ caseIndex, caseName: c.case_name, month: t, yearMonth: monthHeader(plan, t), ...ch });
      }
    }
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, changes, months };
}

function diffMonth(
  stored: ActualInputs | undefined,
  values: Partial<Record<ActualKey, number>>,
  keys: readonly ActualKey[],
): Omit<ActualChange, 'caseIndex' | 'caseName' | 'month' | 'yearMonth'>[] {
  const out: Omit<ActualChange, 'caseIndex' | 'caseName' | 'month' | 'yearMonth'>[] = [];
  for (const key of keys) {
    const old = stored?.[key] ?? null;
    const now = values[key] ?? null;
    if (old !== now) out.push({ key, old, new: now });
  }
  return out;
}

function headerText(v: CellValue | undefined): string {
  if (typeof v === 'string') return v.trim();
  return v === null || v === undefined ? '' : String(v);
}

/** The bounds of an actual input in words (engine/DECISIONS.md, "Bounds of the stored numbers"). */
export function boundsMessage(key: ActualKey): string {
  const n = (x: number) => x.toLocaleString('en-US');
  switch (key) {
    case 'arpa':
      return `must be a number from ${ARPA_MIN} to ${n(ARPA_MAX)}`;
    case 'employees':
      return `must be a whole number from 0 to ${n(HEADCOUNT_MAX)}`;
    case 'session':
    case 'lead':
    case 'meeting':
    case 'registration':
    case 'order':
    case 'churn':
      return `must be a whole number from 0 to ${n(COUNT_MAX)}`;
    default:
      return `must be a number from -${n(MONEY_MAX)} to ${n(MONEY_MAX)}, 0 or at least ${MONEY_MIN} in size`;
  }
}

const PLAIN_NUMBER = /^[-+]?(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d+)?$/;

/** A cell as a number, undefined when empty, or the problem as a message. */
function readNumber(v: CellValue | undefined): number | string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? v : 'not a number';
  if (typeof v === 'boolean') return 'not a number';
  const text = v.trim();
  if (text === '') return undefined;
  if (!PLAIN_NUMBER.test(text)) return 'not a number';
  return Number(text.replace(/,/g, ''));
}

function checkMarker(sheets: SheetValues, planId: string, errors: ActualCellError[]): void {
  const marker = sheets[PLAN_MARKER_SHEET];
  const label = headerText(marker?.[0]?.[0]);
  const id = headerText(marker?.[0]?.[1]);
  if (!marker || label !== PLAN_MARKER_LABEL || id === '') {
    errors.push({ cell: `${PLAN_MARKER_SHEET}!B1`, message: 'the file was not exported from a business plan' });
  } else if (id !== planId) {
    errors.push({ cell: `${PLAN_MARKER_SHEET}!B1`, message: 'the file was exported from another business plan' });
  }
}

/** The grid of the `Topline` sheet that names the plan. */
export function planMarkerGrid(planId: string | number): (string | number)[][] {
  return [[PLAN_MARKER_LABEL, String(planId)]];
}
