import { resolve } from 'node:path';
import type Router from '@koa/router';
import { csvFileName, kpiCsv, plCsv, revenueCsv } from '@topline/engine';
import { z } from 'zod';
import type { Services } from '../app';
import { homeAnswer as homeAnswerSchema, perEmployeeAnswer as perEmployeeSchema } from '../contract/answers';
import { caseIdField, planScoped } from '../contract/plans';
import {
  actualsEditRequest,
  adjustEditRequest,
  cashflowEditRequest,
  commentEditRequest,
  costCreateRequest,
  costDeleteRequest,
  costEditRequest,
  csvRequest,
  homeEditRequest,
  reverseRequest,
} from '../contract/screens';
import { noPermission } from '../errors';
import { requireToken } from '../http/auth';
import { cachedAnswer, sendCached, sendCachedNow } from '../http/cachedAnswer';
import type { AppContext, AppState } from '../http/context';
import { parseInput, parseQuery } from '../http/validate';
import { AREAS, requireScope, type Scope, signedInAccess } from '../services/access';
import { costGroupOf, costItemOf, createCostItem, deleteCostItem, editCostItem } from '../services/costs';
import { reverseMonth, reviseBudget, saveActuals, saveCashflow, saveComment, saveDaily } from '../services/monthly';
import {
  actualsAnswer,
  asOfOf,
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
} from '../services/screens';
import { planFor } from './plans';

const FIXTURES_DIR = resolve(import.meta.dirname, '..', '..', '..', 'fixtures');
/** A screen read: the plan, optionally a case, and (for the monthly P&L) optionally one plan year. */
const planAndCase = planScoped.extend({
  case_id: caseIdField.optional(),
  year: z.coerce.number().int().min(1).max(6).optional(),
});

/** The working screens (working-screens.md section 7); every number is read from the engine's workbook. */
export function screenRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;
  // Every call here is plan-scoped: the token is verified here, the user loaded with the plan in one query.
  const auth = requireToken(services);

  const screen = async (ctx: AppContext, planId: number): Promise<ScreenContext> => ({
    db,
    workbooks: services.workbooks,
    access: await planFor(services, ctx, planId),
    today: services.now(),
  });

  /**
   * The warm read: access, workbook and serialised answer all in memory, answered with no waiting and the same checks
   * as the path below. Answers false when anything is missing, and the caller takes that path.
   */
  const warmRead = (ctx: AppContext, planId: number, scope: Scope, key: string): boolean => {
    const claims = ctx.state.claims;
    const facts = claims && services.accessCache.peek(claims.userId, planId);
    if (!claims || !facts) return false;
    const today = services.now();
    const { user, access } = signedInAccess(facts, claims, today);
    requireScope(access, scope, 'read');
    const cached = services.workbooks.peek(planId, access.plan.version, asOfOf(today))?.answers.get(key);
    if (!cached || !sendCachedNow(ctx, cached)) return false;
    ctx.state.user = user;
    return true;
  };

  const read = (
    path: string,
    scope: Scope,
    answer: (s: ScreenContext, caseId?: number, year?: number) => Promise<unknown>,
    options: { sameForEveryone?: boolean } = {},
  ) =>
    router.get(path, auth, async (ctx) => {
      const input = parseQuery(planAndCase, ctx.querystring, ctx.query);
      const key = `${path}:${input.case_id ?? ''}:${input.year ?? ''}`;
      if (options.sameForEveryone && warmRead(ctx, input.business_plan_id, scope, key)) return;
      const s = await screen(ctx, input.business_plan_id);
      requireScope(s.access, scope, 'read');
      if (!options.sameForEveryone) {
        ctx.body = { data: await answer(s, input.case_id, input.year) };
        return;
      }
      // Answers that depend only on the plan's version are serialised once per version.
      const compiled = await compiledPlan(s);
      let cached = compiled.answers.get(key);
      if (cached === undefined) {
        cached = cachedAnswer({ data: await answer(s, input.case_id, input.year) });
        compiled.answers.set(key, cached);
      }
      await sendCached(ctx, cached);
    });

  const shared = { sameForEveryone: true };
  read('/pl/retrieve', 'pl', plAnswer, shared);
  read('/kpi/retrieve', 'kpi', kpiAnswer, shared);
  read('/revenue/retrieve', 'sales_detail', revenueAnswer, shared);
  read('/cost/retrieve', 'expenses', costAnswer);
  read('/dashboard/retrieve', 'dashboard', dashboardAnswer, shared);
  read('/pl/monthly/retrieve', 'monthly_pl', monthlyAnswer, shared);
  read('/actuals/retrieve', 'actuals', actualsAnswer, shared);
  read('/home/retrieve', 'home', async (s) => homeAnswerSchema.parse(await homeAnswer(s, FIXTURES_DIR)));
  read('/suggestions/per-employee', 'pl', async (s, caseId) =>
    perEmployeeSchema.parse(await perEmployeeAnswer(s, caseId, FIXTURES_DIR)),
  );

  // The plan's inputs for the browser's own engine (DESIGN.md: an edit recomputes on screen at once). The file holds
  // every area's inputs, so it goes to the owner and to members who may see every area.
  router.get('/business-plan/file', auth, async (ctx) => {
    const input = parseInput(planScoped, ctx.query);
    const s = await screen(ctx, input.business_plan_id);
    if (!s.access.isOwner && AREAS.some((area) => s.access.roles[area] === 'no_access')) throw noPermission();
    const compiled = await compiledPlan(s);
    ctx.body = { data: { plan: compiled.workbook.plan, version: compiled.version, case_ids: compiled.caseIds } };
  });

  router.post('/home/edit', auth, async (ctx) => {
    const input = parseInput(homeEditRequest, ctx.request.body);
    const s = await screen(ctx, input.business_plan_id);
    requireScope(s.access, 'home', 'write');
    const saas = s.access.plan.template === 'saas';
    // The home screen calls them sales and orders: meetings and orders (saas), registrations and billing (selfserve).
    const aliases = { sales: saas ? 'meeting' : 'registration', orders: saas ? 'order' : 'billing' } as const;
    const metric =
      input.kpi_title === 'sales' || input.kpi_title === 'orders' ? aliases[input.kpi_title] : input.kpi_title;
    await saveDaily(db, s.access, input.date ?? s.today.toISOString().slice(0, 10), metric, input.value);
    ctx.body = { title: 'Success', message: 'saved' };
  });

  /** A plan write guarded by one area: parse, check the caller's role, save, answer Success. */
  const write = <T extends { business_plan_id: number }>(
    path: string,
    request: z.ZodType<T>,
    scope: Scope,
    save: (access: ScreenContext['access'], input: T) => Promise<unknown>,
    message: string,
  ) =>
    router.post(path, auth, async (ctx) => {
      const input = parseInput(request, ctx.request.body);
      const s = await screen(ctx, input.business_plan_id);
      requireScope(s.access, scope, 'write');
      await save(s.access, input);
      ctx.body = { title: 'Success', message };
    });

  write('/pl/monthly/edit', actualsEditRequest, 'actuals', (access, input) => saveActuals(db, access, input), 'saved');
  write(
    '/pl/monthly/reverse',
    reverseRequest,
    'actuals',
    (access, input) => reverseMonth(db, access, input.year, input.month, input.case_id),
    'the month is a forecast again',
  );
  write(
    '/pl/monthly/cashflow/edit',
    cashflowEditRequest,
    'monthly_pl',
    (access, input) => saveCashflow(db, access, input),
    'saved',
  );
  write(
    '/pl/monthly/comment/edit',
    commentEditRequest,
    'monthly_pl',
    (access, input) => saveComment(db, access, input),
    'saved',
  );
  write(
    '/pl/monthly/adjust/edit',
    adjustEditRequest,
    'monthly_pl',
    (access, input) => reviseBudget(db, access, input.case_id, input.year, input.pattern),
    'budget revised',
  );

  router.post('/cost/create', auth, async (ctx) => {
    const input = parseInput(costCreateRequest, ctx.request.body);
    const s = await screen(ctx, input.business_plan_id);
    requireScope(s.access, costGroupOf(input.item_title), 'write');
    const costId = await createCostItem(db, s.access, input.case_id, input);
    ctx.body = { data: { cost_id: costId } };
  });

  router.post('/cost/edit', auth, async (ctx) => {
    const input = parseInput(costEditRequest, ctx.request.body);
    const s = await screen(ctx, input.business_plan_id);
    const existing = await costItemOf(db, s.access, input.case_id, input.cost_id);
    // Moving an item between groups needs edit rights on both.
    requireScope(s.access, costGroupOf(existing.item_title), 'write');
    requireScope(s.access, costGroupOf(input.item_title), 'write');
    await editCostItem(db, s.access, input.case_id, input.cost_id, input);
    ctx.body = { title: 'Success', message: 'saved' };
  });

  router.post('/cost/delete', auth, async (ctx) => {
    const input = parseInput(costDeleteRequest, ctx.request.body);
    const s = await screen(ctx, input.business_plan_id);
    const existing = await costItemOf(db, s.access, input.case_id, input.cost_id);
    requireScope(s.access, costGroupOf(existing.item_title), 'write');
    await deleteCostItem(db, s.access, input.case_id, input.cost_id);
    ctx.body = { title: 'Success', message: 'deleted' };
  });

  const csv = (
    path: string,
    scope: Scope,
    area: string,
    render: (s: ScreenContext, index: number, year: number | undefined) => Promise<string>,
  ) =>
    router.get(path, auth, async (ctx) => {
      const input = parseInput(csvRequest, ctx.query);
      const s = await screen(ctx, input.business_plan_id);
      requireScope(s.access, scope, 'read');
      const compiled = await compiledPlan(s);
      const index = caseIndexOf(compiled, input.case_id);
      const body = await render(s, index, input.year);
      const caseName = compiled.workbook.plan.cases[index]?.case_name ?? 'case';
      // plan_case_area_yyyyMMdd.csv (working-screens.md section 7)
      const name = csvFileName(s.access.plan.name, caseName, area, s.today);
      ctx.set(
        'Content-Disposition',
        `attachment; filename="${asciiName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      );
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = body;
    });

  csv('/pl/csv', 'pl', 'pl', async (s, index) => plCsv((await compiledPlan(s)).workbook, index));
  csv('/revenue/csv', 'sales_detail', 'revenue', async (s, index) =>
    revenueCsv((await compiledPlan(s)).workbook, index),
  );
  csv('/kpi/csv', 'kpi', 'kpi', async (s, index, year) => kpiCsv((await compiledPlan(s)).workbook, index, year ?? 1));
}

const asciiName = (name: string) => name.replace(/[^\x20-\x7e]/g, '_').replaceAll('"', '_');
