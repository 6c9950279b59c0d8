/**
 * The dashboard of a case (working-screens.md section 3, "Dashboard"): each metric's actual and estimate series with
 * its latest value, fiscal-year achievement and 3/6/12-month averages, plus runway and the MRR progress gauge.
 */
import type { DASHBOARD_COLUMNS, DashboardScalar } from '../compile/dashboard';
import { calendarOf, yearOf } from '../layout';
import { PLAN_MONTHS } from '../schema';
import type { PlanWorkbook } from '../workbook';
import { CaseReader, monthLabel, num } from './cells';

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

export interface DashboardSeries {
  /** 72 months: the actual of ACT months, null elsewhere. */
  actual: (number | null)[];
  /** 72 months of the estimate. */
  estimate: (number | null)[];
  /** 72 months of the actual view (ACT months, then the forecast). */
  forecast: (number | null)[];
  latest_value: number | null;
  fiscal_year_achieved: number | null;
  ave_three_monthes: number | null;
  ave_six_monthes: number | null;
  ave_twelve_monthes: number | null;
}

export interface Dashboard {
  months: string[];
  latest_actual_month: number | null;
  metrics: Record<string, DashboardSeries>;
  forecast_monthes: number | null;
  cash_out: { t: number; year: number; month: number } | null;
  mrr_progress: {
    year: number;
    month: number;
    progress_percent: number | null;
    as_is: number | null;
    goal: number | null;
  };
}

export function dashboard(wb: PlanWorkbook, caseIndex: number): Dashboard {
  const r = new CaseReader(wb, caseIndex);
  const { sheets, dashboard: layout } = r.layout;
  const start = { year: wb.plan.start_year, month: wb.plan.start_month };
  const months = Array.from({ length: PLAN_MONTHS }, (_, i) => i + 1);
  const scalar = (key: DashboardScalar) => num(wb.value(sheets.dashboard, layout.scalarRow[key], 1));
  const metrics: Record<string, DashboardSeries> = {};
  for (const [name, key] of Object.entries(DASHBOARD_METRICS)) {
    const row = layout.metricRow[key];
    if (row === undefined) continue;
    const at = (column: (typeof DASHBOARD_COLUMNS)[number]) =>
      num(wb.value(sheets.dashboard, row, layout.column[column]));
    metrics[name] = {
      actual: months.map((t) => (r.isAct(t) ? r.viewAt(key, t) : null)),
      estimate: months.map((t) => r.estimateAt(key, t)),
      forecast: months.map((t) => r.viewAt(key, t)),
      latest_value: at('latest_value'),
      fiscal_year_achieved: at('fiscal_year_achieved'),
      ave_three_monthes: at('ave_three_monthes'),
      ave_six_monthes: at('ave_six_monthes'),
      ave_twelve_monthes: at('ave_twelve_monthes'),
    };
  }
  const cashOut = scalar('cash_out_month');
  const latest = scalar('latest_actual_month');
  const gauge = latest ?? Math.min(PLAN_MONTHS, Math.max(1, wb.layout.asOfMonth));
  const gaugeMonth = calendarOf(start.year, start.month, gauge);
  return {
    months: months.map((t) => monthLabel(start, t)),
    latest_actual_month: latest,
    metrics,
    forecast_monthes: scalar('forecast_monthes'),
    cash_out: cashOut ? { t: cashOut, ...calendarOf(start.year, start.month, cashOut) } : null,
    mrr_progress: {
      year: yearOf(gauge),
      month: gaugeMonth.month,
      progress_percent: scalar('mrr_progress_percent'),
      as_is: scalar('mrr_as_is'),
      goal: scalar('mrr_goal'),
    },
  };
}
