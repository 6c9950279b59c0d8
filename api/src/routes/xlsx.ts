import multer from '@koa/multer';
import type Router from '@koa/router';
import { csvFileName, csvLanguage, monthlyCsv } from '@topline/engine';
import type { Next } from 'koa';
import type { Services } from '../app';
import type { AppContext, AppState } from '../http/context';
import { CSV_TYPE, sendDownload } from '../http/download';
import { handle } from '../http/route';
import { caseIndexOf, compiledPlan } from '../services/screens';
import { cellErrors, planXlsx, saveActualInputs, uploadedSheets } from '../services/xlsx';

/** The largest XLSX file an import reads (a plan's export is about 1 MB). */
export const MAX_XLSX_BYTES = 20_000_000;

/** Multipart with one `file`; an over-large file is a 400 on `file`. */
function xlsxUpload() {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_XLSX_BYTES, files: 1, fields: 10 },
  });
  const single = upload.single('file');
  return async (ctx: AppContext, next: Next) => {
    try {
      await single(ctx, async () => {});
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'LIMIT_FILE_SIZE') {
        throw cellErrors([
          { cell: 'file', message: `the file must be at most ${MAX_XLSX_BYTES.toLocaleString('en-US')} bytes` },
        ]);
      }
      throw cellErrors([{ cell: 'file', message: 'the form could not be read: send business_plan_id and file' }]);
    }
    await next();
  };
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The XLSX download and import, and the monthly P&L's CSV (MODEL.md section 8, working-screens.md section 7). */
export function xlsxRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;

  handle(router, services, 'xlsxDownload', async ({ ctx, access }) => {
    const today = services.now();
    const { bytes, caseNames } = await planXlsx({ db, workbooks: services.workbooks, access, today });
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
    const body = monthlyCsv(compiled.workbook, index, year, input.view, lang);
    const caseName = compiled.workbook.plan.cases[index]?.case_name ?? 'case';
    // plan_case_area_yyyyMMdd.csv (working-screens.md section 7); the area names the view and the year.
    const name = csvFileName(access.plan.name, caseName, `monthly-${input.view}-Y${year}`, today);
    sendDownload(ctx, name, CSV_TYPE, body);
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
    { before: [xlsxUpload()] },
  );
}
