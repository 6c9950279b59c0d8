import type Router from '@koa/router';
import { comparisonCsvRows, csvFileName, csvLanguage, snapshotCompared } from '@topline/engine';
import type { Services } from '../deps';
import { cachedOnce, sendCached } from '../http/cachedAnswer';
import type { AppState } from '../http/context';
import { sendCsv, sendDownload } from '../http/download';
import { handle } from '../http/route';
import type { PlanAccess } from '../services/access/access';
import { compareAnswer, compareXlsx, revisePreviewAnswer } from '../services/workbooks/comparison';
import { comparedSnapshot, snapshotWorkbook } from '../services/workbooks/planOfRecord';
import { compiledPlan, type ScreenContext } from '../services/workbooks/screens';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Cases side by side and the revise preview (contract `comparison.ts`); the numbers are the engine's. */
export function comparisonRoutes(router: Router<AppState>, services: Services): void {
  const screen = (access: PlanAccess): ScreenContext => ({
    db: services.db,
    workbooks: services.workbooks,
    access,
    today: services.now(),
  });

  // Every member with the P&L sees the same comparison: serialised once per version (and snapshot). A snapshot is
  // asked for at every read: a deleted one, or another plan's, is a 404.
  handle(router, services, 'caseCompare', async ({ ctx, access, input }) => {
    const s = screen(access);
    const id = input.snapshot_id;
    const snapshot = id === undefined ? undefined : await snapshotWorkbook(s.db, access, id, s.today);
    const compiled = await compiledPlan(s);
    await sendCached(
      ctx,
      await cachedOnce(compiled.answers, `/pl/compare:${id ?? ''}`, async () => {
        const cases = await compareAnswer(s);
        if (id === undefined || !snapshot) return { data: cases };
        return { data: { ...cases, snapshot: { ...snapshotCompared(compiled.workbook, snapshot), snapshot_id: id } } };
      }),
    );
    return undefined;
  });

  handle(router, services, 'compareCsv', async ({ ctx, access, input }) => {
    const s = screen(access);
    const snapshot = await comparedSnapshot(s, input.snapshot_id);
    const { workbook } = await compiledPlan(s);
    const rows = comparisonCsvRows(workbook, csvLanguage(input.lang, ctx.get('Accept-Language')), snapshot);
    // plan_case_area_yyyyMMdd.csv, the cases named together.
    const name = csvFileName(access.plan.name, 'cases', 'compare', s.today);
    sendCsv(ctx, name, rows);
    return undefined;
  });

  handle(router, services, 'compareXlsx', async ({ ctx, access, input }) => {
    const s = screen(access);
    const { bytes } = await compareXlsx(s, await comparedSnapshot(s, input.snapshot_id));
    const name = csvFileName(access.plan.name, 'cases', 'compare', s.today).replace(/\.csv$/, '.xlsx');
    sendDownload(ctx, name, XLSX_TYPE, Buffer.from(bytes));
    return undefined;
  });

  // A preview builds a copy of the plan's workbook: kept once per version, case and year, and shared by every reader.
  handle(router, services, 'revisePreview', async ({ ctx, access, input }) => {
    const s = screen(access);
    const compiled = await compiledPlan(s);
    const key = `/pl/monthly/adjust/preview:${input.case_id}:${input.year}`;
    await sendCached(
      ctx,
      await cachedOnce(compiled.answers, key, async () => ({
        data: await revisePreviewAnswer(s, input.case_id, input.year),
      })),
    );
    return undefined;
  });
}
