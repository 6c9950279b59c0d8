/**
 * The Google Sheets import's reading: the actual-inputs sheets (`C1 Actuals`, …) and the `Topline` marker sheet read
 * from the linked spreadsheet with `values.batchGet`, as the engine's reader takes them. The route then reads them
 * with the XLSX import's reader and saves with its `importActuals`, so a sheet and an XLSX file follow the same rules
 * and are refused with the same cell errors.
 */
import { actualInputsSheetName, PLAN_MARKER_SHEET, type SheetValues } from '@topline/engine/export';
import type { GoogleSession } from './sheets';

/**
 * The values of the plan's actual-inputs sheets and marker sheet, of those the spreadsheet has (the reader names
 * each one missing); null when the spreadsheet is gone.
 */
export async function readLinkedSheets(
  session: GoogleSession,
  spreadsheetId: string,
  caseCount: number,
): Promise<SheetValues | null> {
  const titles = await session.sheetTitles(spreadsheetId);
  if (!titles) return null;
  const wanted = [...Array.from({ length: caseCount }, (_, i) => actualInputsSheetName(i)), PLAN_MARKER_SHEET];
  return session.values(
    spreadsheetId,
    wanted.filter((title) => titles.includes(title)),
  );
}
