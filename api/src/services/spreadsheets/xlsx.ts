/**
 * The plan as an XLSX workbook and back (MODEL.md section 8): the download with live formulas of every case, and the
 * import of the actuals typed into its actual-inputs sheets, all or nothing. The Google Sheets import saves its
 * reading through `saveActualInputs` too, so both answer the same changes and the same cell errors.
 */
import {
  type ActualChangeAnswer,
  ApiError,
  conflict,
  limitReached,
  MAX_CASES,
  type PlanChange,
} from '@topline/contract';
import {
  ACTUAL_INPUTS_SHEET_ENDING,
  type ActualInputsReading,
  actualInputKeys,
  actualInputsSheetName,
  cellErrorText,
  PLAN_MARKER_SHEET,
  readActualInputs,
  type SheetValues,
} from '@topline/engine/export';
import { salvagePlanFile } from '@topline/engine/schema';
import type { Db } from '../../db';
import type { PlanAccess } from '../access/access';
import { writePlanChanges } from '../plans/planChanges';
import { loadPlanFile } from '../plans/planFile';
import { compiledPlan, type ScreenContext } from '../workbooks/screens';
import { xlsxOffThread } from './xlsxExport';
import { readXlsxOffThread, XlsxRefused } from './xlsxReader';

/** The workbook of every case with live formulas, naming the plan in its hidden `Topline` sheet. */
export async function planXlsx(s: ScreenContext): Promise<{ bytes: Uint8Array; caseNames: string[] }> {
  const compiled = await compiledPlan(s);
  const wb = compiled.workbook;
  const bytes = await xlsxOffThread(wb, { planId: s.access.plan.id });
  return { bytes, caseNames: wb.plan.cases.map((c) => c.case_name) };
}

/** Most cell errors a 400's message lists; `errors` holds every one. */
const LISTED = 20;

/** A 400 naming every cell that is wrong: `errors` by cell, and the message listing them a line each. */
export function cellErrors(errors: { cell: string; message: string }[]): ApiError {
  const lines = errors.slice(0, LISTED).map(cellErrorText);
  if (errors.length > LISTED) lines.push(`… and ${errors.length - LISTED} more`);
  return new ApiError(400, {
    title: 'Bad Request',
    message: lines.join('\n'),
    code: 'invalid',
    errors: Object.fromEntries(errors.map((e) => [e.cell, e.message])),
  });
}

/** The sheets an import reads: the plan's marker and each case's actual inputs. */
const IMPORTED_SHEETS = [PLAN_MARKER_SHEET, ...Array.from({ length: MAX_CASES }, (_, i) => actualInputsSheetName(i))];

/**
 * Reads an uploaded XLSX file's cells, off the API's thread and within `XLSX_IMPORT_LIMITS`.
 * @throws ApiError 400 on `file` when it is not an XLSX workbook, 400 `limit` naming the bound a file goes over,
 *   400 naming each cell that cannot be read (a date out of range)
 */
export async function uploadedSheets(bytes: Uint8Array | undefined): Promise<SheetValues> {
  if (!bytes || bytes.length === 0) throw cellErrors([{ cell: 'file', message: 'choose an XLSX file to import' }]);
  try {
    // The file names each case's actual-inputs sheet after the case (`Base case Actuals`), which the plan, read only
    // once the file is, tells apart: every sheet so named is read.
    return await readXlsxOffThread(bytes, IMPORTED_SHEETS, [ACTUAL_INPUTS_SHEET_ENDING]);
  } catch (error) {
    if (!(error instanceof XlsxRefused)) throw error;
    const { message, cells, limit } = error.refusal;
    if (limit) throw limitReached('file', message, limit);
    throw cellErrors(cells.length > 0 ? cells : [{ cell: 'file', message }]);
  }
}

/**
 * Saves the actual inputs of `sheets` (every case's `C<n> Actuals` sheet) in one transaction: the plan is read under
 * its lock, every cell checked, and either every change is written or, on any problem, nothing.
 * @returns the changes, by case id and month (`YYYY/MM`)
 * @throws ApiError 400 listing every cell that is wrong (text in a number cell, a value out of bounds, a missing
 *   sheet, another plan's file)
 */
export async function saveActualInputs(db: Db, access: PlanAccess, sheets: SheetValues): Promise<ActualChangeAnswer[]> {
  let answer: ActualChangeAnswer[] = [];
  await writePlanChanges(db, access, async (trx) => {
    const loaded = await loadPlanFile(trx, access.plan);
    const { plan } = salvagePlanFile(loaded.file);
    const reading = readActualInputs(plan, sheets, { planId: access.plan.id });
    if (!reading.ok) throw cellErrors(reading.errors);
    answer = reading.changes.map(
      (c): ActualChangeAnswer => ({
        case_id: loaded.caseIds[c.caseIndex] ?? 0,
        month: c.yearMonth,
        key: c.key,
        old: c.old,
        new: c.new,
      }),
    );
    return importChanges(reading, loaded.caseIds, actualInputKeys(plan.template));
  });
  return answer;
}

/**
 * The import as a change set: each changed month's actuals, every key of the template set or cleared; a month the file
 * leaves without actuals goes back to the forecast (EST) with none entered.
 */
function importChanges(
  reading: Extract<ActualInputsReading, { ok: true }>,
  caseIds: readonly number[],
  keys: readonly string[],
): PlanChange[] {
  const changes: PlanChange[] = [];
  reading.months.forEach((months, caseIndex) => {
    const caseId = caseIds[caseIndex];
    if (caseId === undefined) throw conflict('the plan changed while the file was read: import it again');
    for (const [month, next] of months) {
      const values = Object.fromEntries(
        keys.map((k) => [k, (next as Record<string, number> | undefined)?.[k] ?? null]),
      ) as Extract<PlanChange, { type: 'actual' }>['values'];
      changes.push({ type: 'actual', caseId, month, values });
      if (next === undefined) changes.push({ type: 'reverse', caseId, month });
    }
  });
  return changes;
}
