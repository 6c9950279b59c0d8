/**
 * The dashboard of a case (working-screens.md section 3, "Dashboard"): each metric's actual and estimate series with
 * its latest value, fiscal-year achievement and 3/6/12-month averages, plus runway and the MRR progress gauge.
 */
import { z } from 'zod';
import { calendarOf, yearOf } from '../calendar';
import type { DASHBOARD_COLUMNS, DashboardScalar } from '../compile/dashboard';
import { rowsFor } from '../rows';
import { PLAN_MONTHS, TEMPLATES } from '../schema';
import {
  brokenSchema,
  CaseReader,
  figureSchema as figure,
  flagBroken,
  monthLabel,
  recordOf,
  refusedInputs,
} from './cells';
import { dashesSchema, figureKind, isResidue, rateBase, shownMoney } from './residue';
import type { WorkbookFigures } from './source';

/** Dashboard metric -> workbook row. */
export const DASHBOARD_METRICS: Record<string, string> = {
  cash_balance: 'ending_cash_balance',
  mrr: 'mrr',
  arr: 'arr',
  arpa: 'arpa',
  gross_margin: 'gross_profit_rate',
  customers: 'cumulative',
  ltv_cac: 'ltv_cac',
  ltv: 'ltv',
  cac: 'cac',
  session: 'session',
  lead: 'lead',
  lead_cvr: 'lead_cvr',
  meeting: 'meeting',
  meeting_cvr: 'meeting_cvr',
  registration: 'registration',
  registration_cvr: 'registration_cvr',
  order: 'order',
  order_cvr: 'order_cvr',
  churn: 'churn',
  churn_cvr: 'churn_cvr',
  burn_multiple: 'burn_multiple',
  arr_per_employees: 'arr_per_headcount',
  revenue_per_employees: 'revenue_per_headcount',
};

export const dashboardSeriesSchema = z.strictObject({
  /** 72 months: the actual of ACT months, null elsewhere. */
  actual: z.array(figure),
  /** 72 months of the estimate. */
  estimate: z.array(figure),
  /** 72 months of the actual view (ACT months, then the forecast). */
  forecast: z.array(figure),
  latest_value: figure,
  fiscal_year_achieved: figure,
  ave_three_monthes: figure,
  ave_six_monthes: figure,
  ave_twelve_monthes: figure,
});
export type DashboardSeries = z.infer<typeof dashboardSeriesSchema>;

/** The dashboard metrics of a template: those whose row its sheets have. */
const metricsOf = (template: (typeof TEMPLATES)[number]) => {
  const rows = new Set(rowsFor(template).map((r) => r.key));
  return Object.keys(DASHBOARD_METRICS).filter((name) => rows.has(DASHBOARD_METRICS[name] ?? ''));
};

export const dashboardSchema = z.strictObject({
  /** Calendar month "YYYY-MM" of each plan month. */
  months: z.array(z.string()),
  latest_actual_month: z.int().nullable(),
  metrics: recordOf(TEMPLATES.map(metricsOf), dashboardSeriesSchema),
  forecast_monthes: figure,
  cash_out: z.strictObject({ t: z.int(), year: z.int(), month: z.int() }).nullable(),
  mrr_progress: z.strictObject({
    year: z.int(),
    month: z.int(),
    progress_percent: figure,
    as_is: figure,
    goal: figure,
  }),
  /**
   * Paths of figures blank because their base is zero up to residue (`metrics.gross_margin.ave_three_monthes`,
   * `mrr_progress.progress_percent`): the screens show a dash (`read/residue.ts`).
   */
  dashes: dashesSchema.optional(),
  broken: brokenSchema.optional(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export function dashboard(wb: WorkbookFigures, caseIndex: number): Dashboard {
  const r = new CaseReader(wb, caseIndex);
  const { sheets, dashboard: layout } = r.layout;
  const start = { year: wb.plan.start_year, month: wb.plan.start_month };
  const months = Array.from({ length: PLAN_MONTHS }, (_, i) => i + 1);
  const scalar = (key: DashboardScalar) => wb.figure(sheets.dashboard, layout.scalarRow[key], 1);
  const latest = scalar('latest_actual_month');
  const metrics: Record<string, DashboardSeries> = {};
  const dashes: string[] = [];
  for (const [name, key] of Object.entries(DASHBOARD_METRICS)) {
    const row = layout.metricRow[key];
    if (row === undefined) continue;
    // Money as shown (residue is 0, so a chart never scales an axis on it); a rate over a residue base is a dash.
    const shown = figureKind(key) === 'money' ? shownMoney : (v: number | null) => v;
    const base = rateBase(wb.plan.template, key);
    const baseRow = base === undefined ? undefined : layout.metricRow[base];
    const at = (column: (typeof DASHBOARD_COLUMNS)[number]) => {
      const value = wb.figure(sheets.dashboard, row, layout.column[column]);
      const over =
        baseRow !== undefined &&
        isResidue(wb.figure(sheets.dashboard, baseRow, layout.column[column]), figureKind(base ?? ''));
      if (over) dashes.push(`metrics.${name}.${column}`);
      return over ? null : shown(value);
    };
    // Fiscal year achieved is the year to date over the whole year's plan (engine/DECISIONS.md).
    const yearPlan = latest === null ? null : r.estimateYear(key, yearOf(latest));
    const achieved = wb.figure(sheets.dashboard, row, layout.column.fiscal_year_achieved);
    const achievedOverResidue = latest !== null && isResidue(yearPlan, figureKind(key));
    if (achievedOverResidue) dashes.push(`metrics.${name}.fiscal_year_achieved`);
    metrics[name] = {
      actual: months.map((t) => (r.isAct(t) ? shown(r.viewAt(key, t)) : null)),
      estimate: months.map((t) => shown(r.estimateAt(key, t))),
      forecast: months.map((t) => shown(r.viewAt(key, t))),
      latest_value: at('latest_value'),
      fiscal_year_achieved: achievedOverResidue ? null : achieved,
      ave_three_monthes: at('ave_three_monthes'),
      ave_six_monthes: at('ave_six_monthes'),
      ave_twelve_monthes: at('ave_twelve_monthes'),
    };
  }
  const cashOut = scalar('cash_out_month');
  const goal = scalar('mrr_goal');
  const progressPercent = scalar('mrr_progress_percent');
  const progressOverResidue = isResidue(goal, 'money');
  if (progressOverResidue) dashes.push('mrr_progress.progress_percent');
  const gauge = latest ?? Math.min(PLAN_MONTHS, Math.max(1, wb.layout.asOfMonth));
  const gaugeMonth = calendarOf(start.year, start.month, gauge);
  const answer: Dashboard = {
    months: months.map((t) => monthLabel(start, t)),
    latest_actual_month: latest,
    metrics,
    forecast_monthes: scalar('forecast_monthes'),
    cash_out: cashOut ? { t: cashOut, ...calendarOf(start.year, start.month, cashOut) } : null,
    mrr_progress: {
      year: yearOf(gauge),
      month: gaugeMonth.month,
      progress_percent: progressOverResidue ? null : progressPercent,
      as_is: shownMoney(scalar('mrr_as_is')),
      goal: shownMoney(goal),
    },
    ...(dashes.length > 0 ? { dashes } : {}),
  };
  return flagBroken(answer, refusedInputs(wb, caseIndex));
}

/** Months of runway (the dashboard's `forecast_monthes`) as the read models take a figure: NaN if not computed. */
export function forecastMonths(wb: WorkbookFigures, caseIndex: number): number | null {
  const { sheets, dashboard: layout } = wb.caseLayout(caseIndex);
  return wb.figure(sheets.dashboard, layout.scalarRow.forecast_monthes, 1);
}
