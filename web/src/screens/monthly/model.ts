/**
 * The monthly P&L's rows, sections, views and the 17 columns (working-screens.md section 2, MODEL.md section 4).
 */
import type { GridColumn, ViewName, ViewRecords } from '@topline/engine';
import { planMonthAt } from '@topline/engine/calendar';
import { ACTUAL_KEYS, type ActualKey, CASH_KEYS, type CashInputs } from '@topline/engine/schema';
import type { AnswerAt } from '../../api/client';

export type Section = 'kpi' | 'pl' | 'cash';
export type ScreenView = 'estimate' | 'revise' | 'actual' | 'progress' | 'variance';

export interface MetricRow {
  key: string;
  section: Section;
  /** 2 and 4 are rate rows, shown as percentages. */
  level: 1 | 2 | 3 | 4;
  /** Costs are shown with the sign inverted. */
  invert?: boolean;
  template?: 'saas' | 'selfserve';
}

export const METRIC_ROWS: MetricRow[] = [
  { key: 'session', section: 'kpi', level: 1 },
  { key: 'lead', section: 'kpi', level: 1, template: 'saas' },
  { key: 'lead_cvr', section: 'kpi', level: 2, template: 'saas' },
  { key: 'meeting', section: 'kpi', level: 1, template: 'saas' },
  { key: 'meeting_cvr', section: 'kpi', level: 2, template: 'saas' },
  { key: 'registration', section: 'kpi', level: 1, template: 'selfserve' },
  { key: 'registration_cvr', section: 'kpi', level: 2, template: 'selfserve' },
  { key: 'order', section: 'kpi', level: 1 },
  { key: 'order_cvr', section: 'kpi', level: 2 },
  { key: 'churn', section: 'kpi', level: 1 },
  { key: 'churn_cvr', section: 'kpi', level: 2 },
  { key: 'cumulative', section: 'kpi', level: 1 },
  { key: 'arpa', section: 'kpi', level: 1 },
  { key: 'mrr', section: 'kpi', level: 1 },
  { key: 'arr', section: 'kpi', level: 1 },
  { key: 'ltv', section: 'kpi', level: 1 },
  { key: 'cac', section: 'kpi', level: 1 },
  { key: 'ltv_cac', section: 'kpi', level: 3 },
  { key: 'employees', section: 'kpi', level: 1 },
  { key: 'revenue', section: 'pl', level: 1 },
  { key: 'revenue_rate', section: 'pl', level: 2 },
  { key: 'professional_service', section: 'pl', level: 3 },
  { key: 'cogs', section: 'pl', level: 1, invert: true },
  { key: 'cogs_rate', section: 'pl', level: 2 },
  { key: 'gross_profit', section: 'pl', level: 1 },
  { key: 'gross_profit_rate', section: 'pl', level: 2 },
  { key: 'operating_expense', section: 'pl', level: 1, invert: true },
  { key: 'operating_expense_rate', section: 'pl', level: 2 },
  { key: 'sm', section: 'pl', level: 3, invert: true },
  { key: 'sm_rate', section: 'pl', level: 4 },
  { key: 'rd', section: 'pl', level: 3, invert: true },
  { key: 'rd_rate', section: 'pl', level: 4 },
  { key: 'ga', section: 'pl', level: 3, invert: true },
  { key: 'ga_rate', section: 'pl', level: 4 },
  { key: 'operating_income', section: 'pl', level: 1 },
  { key: 'operating_income_rate', section: 'pl', level: 2 },
  { key: 'burn_multiple', section: 'pl', level: 3 },
  { key: 'beginning_cash_balance', section: 'cash', level: 1 },
  { key: 'equity_raised', section: 'cash', level: 3 },
  { key: 'debt_raised', section: 'cash', level: 3 },
  { key: 'debt_payment', section: 'cash', level: 3 },
  { key: 'other', section: 'cash', level: 3 },
  { key: 'net_cash_movement', section: 'cash', level: 1 },
  { key: 'ending_cash_balance', section: 'cash', level: 1 },
];

/** What the cash-flow view and a month of actuals hold: the engine schema's lists (MODEL.md sections 2 and 5). */
export type CashKey = keyof CashInputs;
export const isCashKey = (key: string): key is CashKey => (CASH_KEYS as readonly string[]).includes(key);
export const isActualKey = (key: string): key is ActualKey => (ACTUAL_KEYS as readonly string[]).includes(key);

/** Keys a view lets the user enter: cash items in the estimate, actuals in the actual view, none elsewhere. */
export function editableKeys(view: ScreenView): ReadonlySet<string> {
  if (view === 'estimate') return new Set(CASH_KEYS);
  if (view === 'actual') return new Set(ACTUAL_KEYS);
  return new Set();
}

export const isRateRow = (row: MetricRow) => row.level === 2 || row.level === 4;

export function engineView(view: ScreenView, variance: 'rate' | 'value'): ViewName {
  if (view === 'revise') return 'forecast';
  if (view === 'variance') return variance === 'rate' ? 'difference_rate' : 'difference_value';
  return view;
}

/** The comment section of a view (progress uses difference). */
export const commentSection = (view: ScreenView): 'estimate' | 'actual' | 'difference' =>
  view === 'estimate' ? 'estimate' : view === 'actual' || view === 'revise' ? 'actual' : 'difference';

/** GET /pl/monthly/retrieve's data: a case's plan years, each in every view, as the spec's records. */
export type MonthlyAnswer = AnswerAt<'/pl/monthly/retrieve'>;
export type MonthlyYearAnswer = MonthlyAnswer['monthly_pl'][number];
export type PeriodRecords = ViewRecords;
type SpecRecord = PeriodRecords['yearly'];

export function recordsOf(year: MonthlyYearAnswer, view: ViewName): PeriodRecords {
  if (view === 'difference_rate') return year.difference.rate;
  if (view === 'difference_value') return year.difference.value;
  return year[view];
}

/** Where a view's records sit in a year of the monthly answer, as its `dashes` paths name them. */
export const viewPath = (view: ViewName): string =>
  view === 'difference_rate' ? 'difference.rate' : view === 'difference_value' ? 'difference.value' : view;

/**
 * The API's monthly, quarterly and yearly records as the 17 columns M1 M2 M3 Q1 … M12 Q4 CY, each with the keys its
 * answer shows as a dash (`dashes` of the year, under the view's `path`: `progress.monthly.0.churn_cvr`).
 */
export function columnsOf(
  records: PeriodRecords,
  year: number,
  dashed: { path: string; dashes?: readonly string[] | undefined } = { path: '' },
): GridColumn[] {
  const columns: GridColumn[] = [];
  const dashesAt = (at: string) => {
    const prefix = `${dashed.path}.${at}.`;
    return (dashed.dashes ?? []).filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));
  };
  const toColumn = (r: SpecRecord, column: string, monthType: GridColumn['monthType'], t: number | null) => {
    const values: Record<string, number | null> = {};
    for (const [k, v] of Object.entries(r)) if (typeof v === 'number' || v === null) values[k] = v;
    const at =
      monthType === 'cy'
        ? 'yearly'
        : monthType === 'month'
          ? `monthly.${Number(column.slice(1)) - 1}`
          : `quarterly.${Number(column.slice(1)) - 1}`;
    const dashes = dashesAt(at);
    return {
      ...(dashes.length > 0 ? { dashes } : {}),
      column,
      monthType,
      month: String(r.month ?? column),
      t,
      isQuarter: monthType === 'quarter',
      status: r.status === 'ACT' ? 'ACT' : 'EST',
      comment: typeof r.comment === 'string' ? r.comment : null,
      values,
    } as GridColumn;
  };
  for (let q = 0; q < 4; q += 1) {
    for (let k = 0; k < 3; k += 1) {
      const m = q * 3 + k;
      const r = records.monthly[m];
      if (r) columns.push(toColumn(r, `M${m + 1}`, 'month', planMonthAt(year, m + 1)));
    }
    const r = records.quarterly[q];
    if (r) columns.push(toColumn(r, `Q${q + 1}`, 'quarter', null));
  }
  columns.push(toColumn(records.yearly, 'CY', 'cy', null));
  return columns;
}
