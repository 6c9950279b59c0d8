/**
 * The monthly P&L: the 17-column grid of a plan year in each view, and the spec's monthly_pl answer
 * (working-screens.md section 3, "Monthly P&L response").
 */
import { monthsOfYear, type Period, periodsOfYear } from '../layout';
import { recordKeys } from '../rows';
import { PLAN_YEARS } from '../schema';
import type { PlanWorkbook } from '../workbook';
import { CaseReader, monthLabel, type NumberRecord, type SpecRow, VIEWS, type ViewName } from './cells';

export type MonthType = 'month' | 'quarter' | 'cy';

export interface GridColumn {
  /** M1..M12, Q1..Q4 or CY. */
  column: string;
  monthType: MonthType;
  /** Calendar month "YYYY-MM" of a month column; "Q1".."Q4" or "CY" otherwise. */
  month: string;
  /** Plan month index of a month column. */
  t: number | null;
  isQuarter: boolean;
  status: 'ACT' | 'EST';
  comment: string | null;
  values: NumberRecord;
}

function columnName(p: Period): string {
  if (p.kind === 'month') return `M${p.month}`;
  return p.kind === 'quarter' ? `Q${p.quarter}` : 'CY';
}

/** The 17 columns of a plan year in one view. Progress and difference are blank outside ACT months. */
export function monthlyGrid(wb: PlanWorkbook, caseIndex: number, year: number, view: ViewName): GridColumn[] {
  const r = new CaseReader(wb, caseIndex);
  const keys = recordKeys(wb.plan.template);
  const start = { year: wb.plan.start_year, month: wb.plan.start_month };
  const comments = wb.plan.cases[caseIndex]?.comments ?? [];
  const section = view === 'estimate' ? 'estimate' : view === 'actual' || view === 'forecast' ? 'actual' : 'difference';
  return periodsOfYear(year).map((p) => {
    const comment =
      p.kind === 'month'
        ? (comments.find((c) => c.year === year && c.column_name === p.month && c.section === section)?.content ?? null)
        : null;
    return {
      column: columnName(p),
      monthType: p.kind === 'year' ? 'cy' : p.kind,
      month: p.kind === 'month' ? monthLabel(start, p.t) : columnName(p),
      t: p.kind === 'month' ? p.t : null,
      isQuarter: p.kind === 'quarter',
      status: view === 'estimate' ? 'EST' : r.status(p),
      comment,
      values: r.viewRecord(view, keys, p),
    };
  });
}

/** The spec's record shape: the values with month, status and comment beside them. */
type SpecRecord = SpecRow;

function toRecords(columns: GridColumn[]): { monthly: SpecRecord[]; quarterly: SpecRecord[]; yearly: SpecRecord } {
  const record = (c: GridColumn): SpecRecord => ({ ...c.values, month: c.month, status: c.status, comment: c.comment });
  return {
    monthly: columns.filter((c) => c.monthType === 'month').map(record),
    quarterly: columns.filter((c) => c.monthType === 'quarter').map(record),
    yearly: record(columns.find((c) => c.monthType === 'cy') ?? (columns[0] as GridColumn)),
  };
}

const GRAPH_SERIES: Record<string, string> = {
  arpa: 'arpa',
  arr: 'arr',
  churn: 'churn',
  cumulative_customers: 'cumulative',
  cumulative_revenue: 'cumulative_revenue',
  ending_cash_balance: 'ending_cash_balance',
  meeting: 'meeting',
  mrr: 'mrr',
  order: 'order',
  revenue: 'revenue',
  session: 'session',
  lead: 'lead',
  registration: 'registration',
};

export interface MonthlyPlYear {
  year: number;
  estimate: ReturnType<typeof toRecords>;
  actual: ReturnType<typeof toRecords>;
  forecast: ReturnType<typeof toRecords>;
  progress: ReturnType<typeof toRecords>;
  difference: { rate: ReturnType<typeof toRecords>; value: ReturnType<typeof toRecords> };
  graph: Record<string, { actual: (number | null)[]; estimate: (number | null)[] }> & {
    forecast_monthes?: number | null;
  };
}

export function monthlyPl(
  wb: PlanWorkbook,
  caseIndex: number,
  forecastMonths: number | null,
  years: number[] = Array.from({ length: PLAN_YEARS }, (_, i) => i + 1),
): MonthlyPlYear[] {
  const r = new CaseReader(wb, caseIndex);
  const template = wb.plan.template;
  return years.map((year) => {
    const views = Object.fromEntries(VIEWS.map((v) => [v, toRecords(monthlyGrid(wb, caseIndex, year, v))])) as Record<
      ViewName,
      ReturnType<typeof toRecords>
    >;
    const graph: MonthlyPlYear['graph'] = {};
    for (const [name, key] of Object.entries(GRAPH_SERIES)) {
      if ((key === 'lead' || key === 'meeting') && template !== 'saas') continue;
      if (key === 'registration' && template !== 'selfserve') continue;
      graph[name] = {
        actual: monthsOfYear(year).map((t) => (r.isAct(t) ? r.viewAt(key, t) : null)),
        estimate: monthsOfYear(year).map((t) => r.estimateAt(key, t)),
      };
    }
    graph.forecast_monthes = forecastMonths;
    return {
      year,
      estimate: views.estimate,
      actual: views.actual,
      forecast: views.forecast,
      progress: views.progress,
      difference: { rate: views.difference_rate, value: views.difference_value },
      graph,
    };
  });
}

/** The 72 monthly estimate records of a case, as the CLI prints them. */
export function estimateMonths(wb: PlanWorkbook, caseIndex: number): SpecRecord[] {
  return Array.from(
    { length: PLAN_YEARS },
    (_, i) => toRecords(monthlyGrid(wb, caseIndex, i + 1, 'estimate')).monthly,
  ).flat();
}
