import multer from '@koa/multer';
import type Router from '@koa/router';
import { ApiError, limitReached, requestSchema, XLSX_IMPORT_LIMITS } from '@topline/contract';
import { csvFileName, csvLanguage, MONTHLY_VIEWS, monthlyCsvRows, snapshotGrid } from '@topline/engine';
import { snapshotSheets } from '@topline/engine/export';
import type { Next } from 'koa';
import type { Services } from '../deps';
import { type AppContext, type AppState, currentUser } from '../http/context';
import { sendCsv, sendDownload } from '../http/download';
import { planFor } from '../http/plan';
import { handle } from '../http/route';
import { parseInput } from '../http/validate';
import { type PlanAccess, requireScope } from '../services/access/access';
import { ImportSlots } from '../services/spreadsheets/importSlots';
import { cellErrors, planXlsx, saveActualInputs, uploadedSheets } from '../services/spreadsheets/xlsx';
import { xlsxOffThread } from '../services/spreadsheets/xlsxExport';
import { planOfRecord, snapshotWorkbook } from '../services/workbooks/planOfRecord';
import { caseIndexOf, compiledPlan, type ScreenContext } from '../services/workbooks/screens';

/** The largest XLSX file an import reads (a plan's export is about 1 MB; 3 MB at the cost-item limit). */
export const MAX_XLSX_BYTES = XLSX_IMPORT_LIMITS.bytes;

/**
 * Multipart with `business_plan_id` then one `file`. The caller's right to import into the plan is checked, and an
 * import slot taken (`ImportSlots`), when the file's part begins and before any of it is buffered, so that a file for
 * a plan the caller may not import into, or beyond the imports running at once, is never read; the slot is given
 * back when the request ends. An over-large file is a 400 naming the `xlsx_bytes` limit.
 */
function xlsxUpload(services: Services, slots: ImportSlots) {
  return async (ctx: AppContext, next: Next) => {
    let release: (() => void) | undefined;
    const upload = multer({
      storage: multer.memoryStorage(),
      limits: { fileSize: MAX_XLSX_BYTES, files: 1, fields: 10 },
      fileFilter: (req, _file, accept) => {
        const fields = (req as { body?: unknown }).body;
        admit(services, ctx, fields)
          .then((access) => {
            release = slots.take(access.plan.id, currentUser(ctx).id);
          })
          .then(
            () => accept(null, true),
            (error: unknown) => accept(error as Error, false),
          );
      },
    });
    try {
      try {
        await upload.single('file')(ctx, async () => {});
      } catch (error) {
        if (error instanceof ApiError) throw error;
        const code = (error as { code?: unknown }).code;
        if (code === 'LIMIT_FILE_SIZE') {
          const max = MAX_XLSX_BYTES;
          const message = `the file must be at most ${max.toLocaleString('en-US')} bytes`;
          throw limitReached('file', message, { name: 'xlsx_bytes', max, value: max + 1 });
        }
        throw cellErrors([{ cell: 'file', message: 'the form could not be read: send business_plan_id and file' }]);
      }
      await next();
    } finally {
      release?.();
    }
  };
}

/** The plan of the form's fields so far, if the caller may import into it (as the route itself checks). */
async function admit(services: Services, ctx: AppContext, fields: unknown): Promise<PlanAccess> {
  const input = parseInput(requestSchema('xlsxImport', services.now()), fields);
  const access = await planFor(services, ctx, input.business_plan_id);
  requireScope(access, 'actuals', 'write');
  return access;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The XLSX download and import, and the monthly P&L's CSV (MODEL.md section 8, working-screens.md section 7). */
export function xlsxRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;

  handle(router, services, 'xlsxDownload', async ({ ctx, access, input }) => {
    const today = services.now();
    const s = { db, workbooks: services.workbooks, access, today };
    const id = input.snapshot_id;
    // Against a snapshot: every case with its sheet comparing its actual view with the snapshot's estimate.
    const { bytes, caseNames } = id === undefined ? await planXlsx(s) : await snapshotVarianceXlsx(s, id);
    // plan_case_area_yyyyMMdd as the CSVs (working-screens.md section 7), the case part naming every case.
    const name = csvFileName(access.plan.name, caseNames.join('-'), 'workbook', today).replace(/\.csv$/, '.xlsx');
    sendDownload(ctx, name, XLSX_TYPE, Buffer.from(bytes));
    return undefined;
  });

  handle(router, services, 'monthlyCsv', async ({ ctx, access, input }) => {
    const today = services.now();
    const compiled = await compiledPlan({ db, workbooks: services.workbooks, access, today });
    const index = caseIndexOf(compiled, input.case_id);
    const year = input.year ?? 1;
    const lang = csvLanguage(input.lang, ctx.get('Accept-Language'));
    // Against a snapshot, the progress and difference views read its estimate as the budget.
    const engineView = MONTHLY_VIEWS[input.view];
    const snapshot = input.snapshot_id;
    const record =
      snapshot === undefined ? undefined : await planOfRecord(db, access, compiled, index, snapshot, today);
    const compared =
      record && engineView !== 'estimate' && engineView !== 'actual' && engineView !== 'forecast'
        ? snapshotGrid(compiled.workbook, index, record, year, engineView)
        : undefined;
    const rows = monthlyCsvRows(compiled.workbook, index, year, input.view, lang, compared);
    const caseName = compiled.workbook.plan.cases[index]?.case_name ?? 'case';
    // plan_case_area_yyyyMMdd.csv (working-screens.md section 7); the area names the view, the year and the snapshot.
    const against = compared ? `-vs-snapshot-${snapshot}` : '';
    const name = csvFileName(access.plan.name, caseName, `monthly-${input.view}${against}-Y${year}`, today);
    sendCsv(ctx, name, rows);
    return undefined;
  });

  handle(
    router,
    services,
    'xlsxImport',
    async ({ ctx, access }) => {
      const file = (ctx.request as { file?: { buffer: Buffer } }).file;
      const sheets = await uploadedSheets(file ? new Uint8Array(file.buffer) : undefined);
      const changes = await saveActualInputs(db, access, sheets);
      const message = changes.length === 0 ? 'nothing changed' : `${changes.length} actual values changed`;
      return { title: 'Success', message, data: { changes } };
    },
    { before: [xlsxUpload(services, new ImportSlots())] },
  );
}

/** The plan's XLSX with, per case, its `VsSnapshot` sheet against the snapshot (`snapshotSheets`). */
async function snapshotVarianceXlsx(s: ScreenContext, id: number) {
  const compiled = await compiledPlan(s);
  // The snapshot is the plan's, the caller may read it, and its months are the plan's (else 404, 403 or 409).
  await planOfRecord(s.db, s.access, compiled, 0, id, s.today);
  const snapshot = await snapshotWorkbook(s.db, s.access, id, s.today);
  const found = await s.db('plan_snapshots').where({ plan_id: s.access.plan.id, id }).first('name');
  const workbook = compiled.workbook;
  const extraSheets = snapshotSheets(workbook, snapshot, String(found?.name ?? ''));
  const bytes = await xlsxOffThread(workbook, { planId: s.access.plan.id, extraSheets });
  return { bytes, caseNames: workbook.plan.cases.map((c) => c.case_name) };
}
