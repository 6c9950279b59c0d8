/**
 * Answers of the working screens. Every number comes from the plan's engine workbook; this file only picks the
 * cases and areas the caller may see and shapes the spec's answers.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  asOfMonth,
  COST_AREAS,
  costAreaOf,
  HOME_ALIASES,
  homeAnswer as homeAnswerSchema,
  isoDay,
  notFound,
} from '@topline/contract';
import { againstSnapshot, countSchema, planMonthOf, yearOf } from '@topline/engine';
import { z } from 'zod';
import type { Db } from '../../db';
import { levelFor, type PlanAccess } from '../access/access';
import { planColors } from '../plans/plans';
import { planOfRecord } from './planOfRecord';
import type { CompiledPlan, WorkbookCache } from './workbooks';

export interface ScreenContext {
  db: Db;
  workbooks: WorkbookCache;
  access: PlanAccess;
  today: Date;
}

/**
 * The plan's workbook for a read: at the version the read's access loaded (every write committed before it, and at
 * least the version the caller names in `Plan-Version`) or a newer one. The answer names the version it was read at.
 */
export async function compiledPlan(ctx: ScreenContext): Promise<CompiledPlan> {
  const { plan, served } = ctx.access;
  const compiled = await ctx.workbooks.get(ctx.db, plan, asOfMonth(ctx.today));
  served?.(compiled.version);
  return compiled;
}

/** The workbook's case index of a case id; without an id, the first case (the screens' default). */
export function caseIndexOf(compiled: CompiledPlan, caseId: number | undefined): number {
  if (caseId === undefined) return 0;
  const index = compiled.caseIds.indexOf(caseId);
  if (index < 0) throw notFound('the case');
  return index;
}

const caseIdAt = (compiled: CompiledPlan, index: number): number => {
  const caseId = compiled.caseIds[index];
  if (caseId === undefined) throw notFound('the case');
  return caseId;
};

async function perCase<T>(ctx: ScreenContext, read: (compiled: CompiledPlan, index: number) => T) {
  const compiled = await compiledPlan(ctx);
  return compiled.caseIds.map((caseId, index) => {
    const c = compiled.workbook.plan.cases[index];
    return { case_id: caseId, case_name: c?.case_name ?? '', case_rate: c?.case_rate ?? 1, ...read(compiled, index) };
  });
}

export async function plAnswer(ctx: ScreenContext) {
  const values = await perCase(ctx, (compiled, index) => ({
    model: compiled.workbook.plan.cases[index]?.model ?? null,
    pl: compiled.workbook.annualPl(index),
  }));
  return { values, colors: await planColors(ctx.db, ctx.access.plan.id) };
}

export const kpiAnswer = async (ctx: ScreenContext) => ({
  values: await perCase(ctx, (compiled, index) => ({ kpi: compiled.workbook.kpi(index) })),
});

export const revenueAnswer = async (ctx: ScreenContext) => ({
  values: await perCase(ctx, (compiled, index) => ({ revenue: compiled.workbook.revenue(index) })),
});

/** Cost per year and case, holding only the groups the caller's roles show (working-screens.md section 6). */
export async function costAnswer(ctx: ScreenContext) {
  const visible = COST_AREAS.filter((area) => levelFor(ctx.access, area) !== 'no_access');
  const all = visible.length === COST_AREAS.length;
  const shown = (group: string) => (group === 'all' ? all : visible.includes(group as never));
  const values = await perCase(ctx, (compiled, index) => ({
    cost: compiled.workbook.costs(index).map(({ year, total_cost, groups, broken }) => ({
      year,
      total_cost: all ? total_cost : null,
      groups: Object.fromEntries(Object.entries(groups).filter(([group]) => shown(group))),
      // Of the figures that could not be computed, those shown: `total_cost` and `groups.<group>.…`.
      ...(broken && {
        broken: {
          figures: broken.figures.filter((path) => (path === 'total_cost' ? all : shown(path.split('.')[1] ?? ''))),
          inputs: broken.inputs,
        },
      }),
    })),
  }));
  const items = await ctx
    .db('cost_items')
    .join('cases', 'cases.id', 'cost_items.case_id')
    .where('cases.plan_id', ctx.access.plan.id)
    .select('cost_items.id', 'cost_items.item_title', 'cost_items.version');
  const versions = Object.fromEntries(
    items
      .filter((item) => visible.includes(costAreaOf(item.item_title)))
      .map((item) => [String(item.id), Number(item.version)]),
  );
  return { values, visible_groups: visible, versions };
}

export async function dashboardAnswer(ctx: ScreenContext, caseId: number | undefined) {
  const compiled = await compiledPlan(ctx);
  const index = caseIndexOf(compiled, caseId);
  return { case_id: caseIdAt(compiled, index), ...compiled.workbook.dashboard(index) };
}

export async function monthlyAnswer(
  ctx: ScreenContext,
  caseId: number | undefined,
  year?: number,
  snapshotId?: number,
) {
  const compiled = await compiledPlan(ctx);
  const index = caseIndexOf(compiled, caseId);
  // With a year, only that year's entry: the monthly screen shows one year at a time.
  const monthly = compiled.workbook.monthlyPl(index, year);
  if (snapshotId === undefined) return { case_id: caseIdAt(compiled, index), monthly_pl: monthly };
  // Against a snapshot: its estimate is the budget of the progress and difference views.
  const record = await planOfRecord(ctx.db, ctx.access, compiled, index, snapshotId, ctx.today);
  return {
    case_id: caseIdAt(compiled, index),
    monthly_pl: monthly.map((y) => againstSnapshot(compiled.workbook, index, record, y)),
    snapshot: { id: snapshotId, case_name: record.workbook.plan.cases[record.caseIndex]?.case_name ?? '' },
  };
}

/** The actual view (ACT months as entered, the forecast elsewhere) of every year of a case. */
export async function actualsAnswer(ctx: ScreenContext, caseId: number | undefined) {
  const compiled = await compiledPlan(ctx);
  const index = caseIndexOf(compiled, caseId);
  const years = [1, 2, 3, 4, 5, 6].map((year) => ({
    year,
    columns: compiled.workbook.monthlyGrid(index, year, 'actual'),
  }));
  return { case_id: caseIdAt(compiled, index), years };
}

const companyList = z.object({
  average: z.number(),
  companies: z.array(z.object({ name: z.string(), value: z.number() })),
});
const suggestionFile = z.object({
  source: z.string(),
  JPY: z.object({ arr_per_employee: companyList, revenue_per_employee: companyList }),
  USD: z.object({ arr_per_employee: companyList, revenue_per_employee: companyList }),
});
let suggestions: Promise<z.infer<typeof suggestionFile>> | undefined;

/** The file holds what Home answers, with where it comes from. */
const homeContentFile = homeAnswerSchema.pick({ db_chart: true, blog: true }).extend({ source: z.string() });
let homeContentCache: Promise<z.infer<typeof homeContentFile>> | undefined;

/** Benchmark charts and blog cards of the home screen, from fixtures/home/content.json. */
function homeContent(fixturesDir: string) {
  homeContentCache ??= readFile(resolve(fixturesDir, 'home', 'content.json'), 'utf8').then((text) =>
    homeContentFile.parse(JSON.parse(text)),
  );
  return homeContentCache;
}

/** Reference ARR and revenue per employee, with the plan years whose per-head figure is below the average. */
export async function perEmployeeAnswer(ctx: ScreenContext, caseId: number | undefined, fixturesDir: string) {
  suggestions ??= readFile(resolve(fixturesDir, 'suggestions', 'per-employee.json'), 'utf8').then((text) =>
    suggestionFile.parse(JSON.parse(text)),
  );
  const reference = (await suggestions)[ctx.access.plan.currency];
  const compiled = await compiledPlan(ctx);
  const index = caseIndexOf(compiled, caseId);
  const pl = compiled.workbook.annualPl(index);
  const below = (value: number | null, average: number) => value !== null && value < average;
  return {
    arr_per_employee: reference.arr_per_employee,
    revenue_per_employee: reference.revenue_per_employee,
    alerts: pl.map((row) => ({
      year: row.year,
      arr_per_employee: below(row.arr_per_headcount, reference.arr_per_employee.average),
      revenue_per_employee: below(row.revenue_per_headcount, reference.revenue_per_employee.average),
    })),
  };
}

/**
 * Home: today's, this week's and this month's daily entries of the two home metrics against the month's estimate.
 * saas records sales (meetings) and orders; selfserve records registrations and billing (paid).
 */
export async function homeAnswer(ctx: ScreenContext, fixturesDir: string) {
  const { plan } = ctx.access;
  const compiled = await compiledPlan(ctx);
  const today = isoDay(ctx.today);
  const monthStart = `${today.slice(0, 8)}01`;
  const weekStart = isoDay(new Date(ctx.today.getTime() - ((ctx.today.getUTCDay() + 6) % 7) * 86_400_000));
  const rows = await ctx
    .db('daily_entries')
    .where({ plan_id: plan.id })
    .andWhere('date', '>=', weekStart < monthStart ? weekStart : monthStart)
    .andWhere('date', '<=', today)
    .orderBy('date');
  // The month of the plan that contains today (MODEL.md section 1), if the plan covers it.
  const asOf = asOfMonth(ctx.today);
  const t = planMonthOf(plan.start_year, plan.start_month, asOf.year, asOf.month);
  const year = yearOf(t);
  const column =
    t >= 1 && t <= 72 ? compiled.workbook.monthlyGrid(0, year, 'estimate').find((c) => c.t === t) : undefined;
  const calendarOf = (name: 'sales' | 'orders') => {
    const daily = HOME_ALIASES[plan.template][name];
    // Paid sign-ups (billing) are the month's orders of a selfserve plan.
    const estimate = daily === 'billing' ? 'order' : daily;
    // An entry outside the bounds of a count (stored before they existed) is left out, as the plan's workbook does.
    const mine = rows.filter((r) => r.key === daily && countSchema.safeParse(Number(r.value)).success);
    const sum = (from: string) => mine.filter((r) => r.date >= from).reduce((total, r) => total + Number(r.value), 0);
    const monthly = sum(monthStart);
    const estimated = column?.values[estimate] ?? null;
    return {
      actual: { today: sum(today), weekly: sum(weekStart), monthly },
      completion_rate: estimated ? finiteOrNull((monthly / estimated) * 100) : null,
      daily_data: mine
        .filter((r) => r.date >= monthStart)
        .map((r) => ({ date: String(r.date), count: Number(r.value) })),
      estimated: { monthly: estimated },
    };
  };
  const calendar = { sales: calendarOf('sales'), orders: calendarOf('orders') };
  const content = await homeContent(fixturesDir);
  return { calendar, db_chart: content.db_chart, blog: content.blog };
}

const finiteOrNull = (n: number) => (Number.isFinite(n) ? n : null);
