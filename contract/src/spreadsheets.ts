/**
 * The plan as a spreadsheet (MODEL.md section 8, working-screens.md section 7): the XLSX download with live formulas
 * (every case), the XLSX import of the actual-inputs sheets, and the monthly P&L's CSV. Spread into the route table.
 */
import { z } from 'zod';
import { planIdText, planQuery } from './plans';
import type { Route } from './route';
import { csvRequest } from './screens';
import { snapshotIdText } from './snapshots';
import { body } from './wire';

/** The interface language of a download's headers and labels; without it the API reads `Accept-Language`. */
export const CSV_LANGS = ['ja', 'en'] as const;
export type CsvLang = (typeof CSV_LANGS)[number];
export const csvLang = z.enum(CSV_LANGS, 'lang must be ja or en');

/**
 * The monthly P&L's views as its CSV names them (the screen's actual view is the revised forecast; its variance is
 * `difference` in values, `difference_rate` in rates).
 */
export const MONTHLY_CSV_VIEWS = ['estimate', 'actual', 'progress', 'difference', 'difference_rate'] as const;
export type MonthlyCsvView = (typeof MONTHLY_CSV_VIEWS)[number];

/**
 * GET /pl/monthly/csv: one plan year (Y1 without `year`) of a case in one view. With `snapshot_id`, the progress and
 * difference views are read against that snapshot of the plan, as `/pl/monthly/retrieve` reads them.
 */
export const monthlyCsvRequest = csvRequest.extend({
  view: z
    .enum(MONTHLY_CSV_VIEWS, 'view must be estimate, actual, progress, difference or difference_rate')
    .default('estimate'),
  snapshot_id: snapshotIdText.optional(),
});

/**
 * GET /business-plan/xlsx: with `snapshot_id`, each case gets a `VsSnapshot` sheet: the snapshot's estimate and the
 * case's actual view compared with it, as formulas (the snapshot needs the monthly P&L area's read; another plan's is
 * a 404).
 */
export const xlsxDownloadQuery = planQuery.extend({ snapshot_id: snapshotIdText.optional() });

/** POST /business-plan/xlsx/import: the plan, and the edited file in the multipart field `file`. */
export const xlsxImportRequest = body({ business_plan_id: planIdText });

/** One actual the import changed: its case, month (`YYYY/MM`), input key, and the values before and after. */
export const actualChange = z.object({
  case_id: z.number(),
  month: z.string(),
  key: z.string(),
  old: z.number().nullable(),
  new: z.number().nullable(),
});
export type ActualChangeAnswer = z.infer<typeof actualChange>;

export const xlsxImportAnswer = z.object({
  title: z.literal('Success'),
  message: z.string(),
  data: z.object({ changes: z.array(actualChange) }),
});

const typed = <
  M extends 'GET' | 'POST',
  P extends string,
  Request extends z.ZodType,
  Answer extends z.ZodType,
  N extends Route['needs'],
  B extends 'multipart' | undefined,
  F extends 'csv' | 'xlsx' | undefined,
>(
  r: Route<Request, Answer> & { method: M; path: P; needs: N; body: B; file: F },
) => r;

/** The spreadsheet calls, spread into the route table. */
export const spreadsheetFileRoutes = {
  /** The workbook of every case with live formulas: the owner's, or a member's who may see every area. */
  xlsxDownload: typed({
    method: 'GET',
    path: '/business-plan/xlsx',
    request: xlsxDownloadQuery,
    answer: z.string(),
    needs: { kind: 'every_area' } as const,
    body: undefined,
    file: 'xlsx',
  }),
  /** Saves the actuals typed into the actual-inputs sheets, all or nothing; needs can_edit on actuals. */
  xlsxImport: typed({
    method: 'POST',
    path: '/business-plan/xlsx/import',
    request: xlsxImportRequest,
    answer: xlsxImportAnswer,
    needs: { kind: 'scope', scope: 'actuals' } as const,
    body: 'multipart',
    file: undefined,
  }),
  monthlyCsv: typed({
    method: 'GET',
    path: '/pl/monthly/csv',
    request: monthlyCsvRequest,
    answer: z.string(),
    needs: { kind: 'scope', scope: 'monthly_pl' } as const,
    body: undefined,
    file: 'csv',
  }),
};
