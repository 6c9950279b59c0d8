import { resolve } from 'node:path';
import type Router from '@koa/router';
import { type DataOf, routes, type screenQuery } from '@topline/contract';
import {
  type CsvLanguage,
  type CsvRows,
  csvFileName,
  csvLanguage,
  kpiCsvRows,
  plCsvRows,
  revenueCsvRows,
} from '@topline/engine';
import type { z } from 'zod';
import type { Services } from '../deps';
import { cachedOnce, sendCached } from '../http/cachedAnswer';
import type { AppContext, AppState } from '../http/context';
import { sendCsv } from '../http/download';
import { handle } from '../http/route';
import type { PlanAccess } from '../services/access/access';
import { createCostItem, deleteCostItem, editCostItem } from '../services/plans/costs';
import {
  reverseMonth,
  reviseBudget,
  saveActuals,
  saveCashflow,
  saveComment,
  saveDaily,
} from '../services/plans/monthly';
import { snapshotWorkbook } from '../services/workbooks/planOfRecord';
import {
  actualsAnswer,
  caseIndexOf,
  compiledPlan,
  costAnswer,
  dashboardAnswer,
  homeAnswer,
  kpiAnswer,
  monthlyAnswer,
  perEmployeeAnswer,
  plAnswer,
  revenueAnswer,
  type ScreenContext,
} from '../services/workbooks/screens';

const FIXTURES_DIR = resolve(import.meta.dirname, '..', '..', '..', 'fixtures');

/** The screen reads every member with the area sees alike. */
type SharedRead =
  | 'plRetrieve'
  | 'kpiRetrieve'
  | 'revenueRetrieve'
  | 'dashboardRetrieve'
  | 'monthlyRetrieve'
  | 'actualsRetrieve';
type ScreenInput = z.output<typeof screenQuery> & { snapshot_id?: number };

/** The working screens (working-screens.md section 7); every number is read from the engine's workbook. */
export function screenRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;

  const screen = (access: ScreenContext['access']): ScreenContext => ({
    db,
    workbooks: services.workbooks,
    access,
    today: services.now(),
  });

  /** A screen read whose answer depends only on the plan's version: serialised once per version, then a lookup. */
  const sharedRead = <N extends SharedRead>(
    name: N,
    answer: (s: ScreenContext, input: ScreenInput) => Promise<DataOf<N>>,
    /** Checks the answer's cache cannot stand for (a snapshot still the plan's): run at every read. */
    before?: (s: ScreenContext, input: ScreenInput) => Promise<void>,
  ) => {
    const { path } = routes[name];
    const keyOf = (input: ScreenInput) =>
      `${path}:${input.case_id ?? ''}:${input.year ?? ''}:${input.snapshot_id ?? ''}`;
    const run = async ({ ctx, input, access }: { ctx: AppContext; input: ScreenInput; access: PlanAccess }) => {
      await before?.(screen(access), input);
      const compiled = await compiledPlan(screen(access));
      const cached = await cachedOnce(compiled.answers, keyOf(input), async () => ({
        data: await answer(screen(access), input),
      }));
      await sendCached(ctx, cached);
      return undefined;
    };
    handle(router, services, name as SharedRead, run);
  };

  sharedRead('plRetrieve', (s) => plAnswer(s));
  sharedRead('kpiRetrieve', (s) => kpiAnswer(s));
  sharedRead('revenueRetrieve', (s) => revenueAnswer(s));
  sharedRead('dashboardRetrieve', (s, input) => dashboardAnswer(s, input.case_id));
  // With a snapshot, its estimate is the budget of the progress and difference views; the snapshot is asked for at
  // every read (a deleted one, or another plan's, is a 404), its figures are cached with the plan's version.
  sharedRead(
    'monthlyRetrieve',
    (s, input) => monthlyAnswer(s, input.case_id, input.year, input.snapshot_id),
    async (s, input) => {
      if (input.snapshot_id !== undefined) await snapshotWorkbook(db, s.access, input.snapshot_id, s.today);
    },
  );
  sharedRead('actualsRetrieve', (s, input) => actualsAnswer(s, input.case_id));
  // The cost answer holds only the groups the caller may see.
  handle(router, services, 'costRetrieve', async ({ access }) => ({ data: await costAnswer(screen(access)) }));
  handle(router, services, 'homeRetrieve', async ({ access }) => ({
    data: await homeAnswer(screen(access), FIXTURES_DIR),
  }));
  handle(router, services, 'perEmployee', async ({ access, input }) => ({
    data: await perEmployeeAnswer(screen(access), input.case_id, FIXTURES_DIR),
  }));

  // The plan's inputs for the browser's own engine (DESIGN.md: an edit recomputes on screen at once while the API
  // saves it).
  handle(router, services, 'planFile', async ({ access }) => {
    const compiled = await compiledPlan(screen(access));
    return { data: { plan: compiled.workbook.plan, version: compiled.version, case_ids: compiled.caseIds } };
  });

  handle(router, services, 'homeEdit', async ({ access, input }) => {
    await saveDaily(db, access, input.date ?? services.now().toISOString().slice(0, 10), input.kpi_title, input.value);
    return { title: 'Success', message: 'saved' };
  });

  handle(router, services, 'actualsEdit', async ({ access, input }) => {
    await saveActuals(db, access, input);
    return { title: 'Success', message: 'saved' };
  });
  handle(router, services, 'monthReverse', async ({ access, input }) => {
    await reverseMonth(db, access, input.year, input.month, input.case_id);
    return { title: 'Success', message: 'the month is a forecast again' };
  });
  handle(router, services, 'cashflowEdit', async ({ access, input }) => {
    await saveCashflow(db, access, input);
    return { title: 'Success', message: 'saved' };
  });
  handle(router, services, 'commentEdit', async ({ access, input }) => {
    await saveComment(db, access, input);
    return { title: 'Success', message: 'saved' };
  });
  handle(router, services, 'budgetRevise', async ({ access, input }) => {
    await reviseBudget(db, access, input.case_id, input.year, input.pattern);
    return { title: 'Success', message: 'budget revised' };
  });

  handle(router, services, 'costCreate', async ({ access, input }) => ({
    data: { cost_id: await createCostItem(db, access, input.case_id, input) },
  }));
  handle(router, services, 'costEdit', async ({ access, input }) => {
    await editCostItem(db, access, input.case_id, input.cost_id, input.version, input);
    return { title: 'Success', message: 'saved' };
  });
  handle(router, services, 'costDelete', async ({ access, input }) => {
    await deleteCostItem(db, access, input.case_id, input.cost_id);
    return { title: 'Success', message: 'deleted' };
  });

  const csv = (
    name: 'plCsv' | 'revenueCsv' | 'kpiCsv',
    area: string,
    render: (s: ScreenContext, index: number, year: number | undefined, lang: CsvLanguage) => Promise<CsvRows>,
  ) =>
    handle(router, services, name, async ({ ctx, access, input }) => {
      const s = screen(access);
      const compiled = await compiledPlan(s);
      const index = caseIndexOf(compiled, input.case_id);
      // Headers and labels in the interface language: `lang`, else Accept-Language.
      const rows = await render(s, index, input.year, csvLanguage(input.lang, ctx.get('Accept-Language')));
      const caseName = compiled.workbook.plan.cases[index]?.case_name ?? 'case';
      // plan_case_area_yyyyMMdd.csv (working-screens.md section 7)
      const name = csvFileName(access.plan.name, caseName, area, s.today);
      sendCsv(ctx, name, rows);
      return undefined;
    });

  csv('plCsv', 'pl', async (s, index, _year, lang) => plCsvRows((await compiledPlan(s)).workbook, index, lang));
  csv('revenueCsv', 'revenue', async (s, index, _year, lang) =>
    revenueCsvRows((await compiledPlan(s)).workbook, index, lang),
  );
  csv('kpiCsv', 'kpi', async (s, index, year, lang) =>
    kpiCsvRows((await compiledPlan(s)).workbook, index, year ?? 1, lang),
  );
}
