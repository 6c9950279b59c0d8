/**
 * The monthly P&L: the 17-column grid of a plan year in each view, and the spec's monthly_pl answer
 * (working-screens.md section 3, "Monthly P&L response").
 */
import { z } from 'zod';
import { monthsOfYear } from '../calendar';
import { periodsOfYear } from '../layout';
import { recordKeys } from '../rows';
import { PLAN_YEARS, TEMPLATES } from '../schema';
import {
  brokenSchema,
  CaseReader,
  figureSchema as figure,
  flagBroken,
  monthLabel,
  recordOf,
  refusedInputs,
  type SpecRow,
  specValueSchema,
  VIEWS,
  type ViewName,
} from './cells';
import { footCounts, footDifferences } from './footing';
import { applyResidueRule, dashesSchema, figureKind, shownMoney, type ViewSheets } from './residue';
import type { WorkbookFigures } from './source';

export const monthTypeSchema = z.enum(['month', 'quarter', 'cy']);
export type MonthType = z.infer<typeof monthTypeSchema>;

/** A period's figures in the monthly grid: every record key of the plan's template. */
const gridValuesSchema = recordOf(TEMPLATES.map(recordKeys), figure);

export const gridColumnSchema = z.strictObject({
  /** M1..M12, Q1..Q4 or CY. */
  column: z.string(),
  monthType: monthTypeSchema,
  /** Calendar month "YYYY-MM" of a month column; "Q1".."Q4" or "CY" otherwise. */
  month: z.string(),
  /** Plan month index of a month column. */
  t: z.int().nullable(),
  isQuarter: z.boolean(),
  status: z.enum(['ACT', 'EST']),
  comment: z.string().nullable(),
  values: gridValuesSchema,
  /** Keys of `values` blank because their base is zero up to residue: the screens show a dash (`read/residue.ts`). */
  dashes: dashesSchema.optional(),
  broken: brokenSchema.optional(),
});
export type GridColumn = z.infer<typeof gridColumnSchema>;

/** A grid column's name (`column`): M1..M12, Q1..Q4 or CY. */
export function columnName(
  p: { kind: 'month'; month: number } | { kind: 'quarter'; quarter: number } | { kind: 'year' },
): string {
  if (p.kind === 'month') return `M${p.month}`;
  return p.kind === 'quarter' ? `Q${p.quarter}` : 'CY';
}

/** The 17 columns of a plan year in one view. Progress and difference are blank outside ACT months. */
export function monthlyGrid(wb: WorkbookFigures, caseIndex: number, year: number, view: ViewName): GridColumn[] {
  const inputs = refusedInputs(wb, caseIndex, year);
  return gridColumns(wb, caseIndex, year, view).map((column) => flagBroken(column, inputs));
}

/**
 * The columns of `monthlyGrid` with NaN where a figure could not be computed, for the answers built on them. Count
 * flows are whole numbers whose quarters and year foot (`footing.ts`) in the views that sum them.
 * @param views the year's views read already, by the caller that reads several (the difference foots on the actual
 *   and the estimate): read once, kept unchanged
 */
function gridColumns(
  wb: WorkbookFigures,
  caseIndex: number,
  year: number,
  view: ViewName,
  views = new Map<ViewName, GridColumn[]>(),
): GridColumn[] {
  const read = views.get(view);
  if (read) return read;
  // The forecast is the actual view as a sheet holds it (ACT months entered, the estimate elsewhere): read once.
  if (view === 'forecast') {
    const actual = gridColumns(wb, caseIndex, year, 'actual', views);
    views.set(view, actual);
    return actual;
  }
  const columns = workbookColumns(wb, caseIndex, year, view);
  const { months, quarters, cy } = periodValues(columns);
  if (view === 'estimate' || view === 'actual') footCounts(months, quarters, cy);
  else if (view === 'difference_value') {
    const actual = periodValues(gridColumns(wb, caseIndex, year, 'actual', views)).months;
    const estimate = periodValues(gridColumns(wb, caseIndex, year, 'estimate', views)).months;
    footDifferences(months, quarters, cy, actual, estimate);
  }
  views.set(view, columns);
  return columns;
}

/** The values of a year's columns by kind: its 12 months, 4 quarters and the year. */
function periodValues(columns: GridColumn[]) {
  const of = (kind: MonthType) => columns.filter((c) => c.monthType === kind).map((c) => c.values);
  return { months: of('month'), quarters: of('quarter'), cy: of('cy')[0] };
}

/** The 17 columns as the workbook holds them. */
function workbookColumns(wb: WorkbookFigures, caseIndex: number, year: number, view: ViewName): GridColumn[] {
  const r = new CaseReader(wb, caseIndex);
  const keys = recordKeys(wb.plan.template);
  const start = { year: wb.plan.start_year, month: wb.plan.start_month };
  const comments = wb.plan.cases[caseIndex]?.comments ?? [];
  const section = view === 'estimate' ? 'estimate' : view === 'actual' || view === 'forecast' ? 'actual' : 'difference';
  const sheets = residueSheets(r, view);
  const ratio = view === 'progress' || view === 'difference_rate';
  return periodsOfYear(year).map((p) => {
    const comment =
      p.kind === 'month'
        ? (comments.find((c) => c.year === year && c.column_name === p.month && c.section === section)?.content ?? null)
        : null;
    const values = r.viewRecord(view, keys, p);
    const dashes = applyResidueRule(r, sheets, p, values, ratio);
    return {
      column: columnName(p),
      monthType: p.kind === 'year' ? 'cy' : p.kind,
      month: p.kind === 'month' ? monthLabel(start, p.t) : columnName(p),
      t: p.kind === 'month' ? p.t : null,
      isQuarter: p.kind === 'quarter',
      status: view === 'estimate' ? 'EST' : r.status(p),
      comment,
      values,
      ...(dashes.length > 0 ? { dashes } : {}),
    };
  });
}

/** The sheets the residue rule reads a view's bases from. */
function residueSheets(r: CaseReader, view: ViewName): ViewSheets {
  const s = r.layout.sheets;
  if (view === 'estimate') return { own: s.estimate };
  if (view === 'actual' || view === 'forecast') return { own: r.viewSheet };
  if (!s.actualToDate || !s.estimateToDate) return {};
  return {
    compared: {
      actual: s.actualToDate,
      estimate: s.estimateToDate,
      actualSource: r.viewSheet,
      estimateSource: s.estimate,
    },
  };
}

/** The spec's record shape: the values with month, status and comment beside them. */
const specRecordSchema = recordOf(
  TEMPLATES.map((template) => [...recordKeys(template), 'month', 'status', 'comment']),
  specValueSchema,
);
type SpecRecord = SpecRow;

/** A year of one view as the spec's records: its months, its quarters and the year. */
export const viewRecordsSchema = z.strictObject({
  monthly: z.array(specRecordSchema),
  quarterly: z.array(specRecordSchema),
  yearly: specRecordSchema,
});
export type ViewRecords = z.infer<typeof viewRecordsSchema>;

function toRecords(columns: GridColumn[]): ViewRecords {
  const record = (c: GridColumn): SpecRecord => ({ ...c.values, month: c.month, status: c.status, comment: c.comment });
  return {
    monthly: columns.filter((c) => c.monthType === 'month').map(record),
    quarterly: columns.filter((c) => c.monthType === 'quarter').map(record),
    yearly: record(columns.find((c) => c.monthType === 'cy') ?? (columns[0] as GridColumn)),
  };
}

/** Graph series -> workbook row. */
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

/** A graph series of a year: the actual of its ACT months (null elsewhere) and the estimate, per month. */
const graphSeriesSchema = z.strictObject({ actual: z.array(figure), estimate: z.array(figure) });
type GraphSeries = z.infer<typeof graphSeriesSchema>;

export const monthlyPlYearSchema = z.strictObject({
  year: z.int(),
  estimate: viewRecordsSchema,
  actual: viewRecordsSchema,
  forecast: viewRecordsSchema,
  progress: viewRecordsSchema,
  difference: z.strictObject({ rate: viewRecordsSchema, value: viewRecordsSchema }),
  graph: z.strictObject({
    arpa: graphSeriesSchema,
    arr: graphSeriesSchema,
    churn: graphSeriesSchema,
    cumulative_customers: graphSeriesSchema,
    cumulative_revenue: graphSeriesSchema,
    ending_cash_balance: graphSeriesSchema,
    /** saas only. */
    meeting: graphSeriesSchema.optional(),
    mrr: graphSeriesSchema,
    order: graphSeriesSchema,
    revenue: graphSeriesSchema,
    session: graphSeriesSchema,
    /** saas only. */
    lead: graphSeriesSchema.optional(),
    /** selfserve only. */
    registration: graphSeriesSchema.optional(),
    /** Months of runway (the dashboard's). */
    forecast_monthes: figure,
  }),
  /**
   * Paths of the figures blank because their base is zero up to residue (`progress.monthly.2.order`,
   * `difference.rate.yearly.cogs_rate`): the screens show a dash (`read/residue.ts`).
   */
  dashes: dashesSchema.optional(),
  broken: brokenSchema.optional(),
});
export type MonthlyPlYear = z.infer<typeof monthlyPlYearSchema>;

export function monthlyPl(
  wb: WorkbookFigures,
  caseIndex: number,
  forecastMonths: number | null,
  years: number[] = Array.from({ length: PLAN_YEARS }, (_, i) => i + 1),
): MonthlyPlYear[] {
  const r = new CaseReader(wb, caseIndex);
  const template = wb.plan.template;
  return years.map((year) => {
    const read = new Map<ViewName, GridColumn[]>();
    const views = Object.fromEntries(
      VIEWS.map((v) => [v, toRecords(gridColumns(wb, caseIndex, year, v, read))]),
    ) as Record<ViewName, ViewRecords>;
    const dashes = VIEWS.flatMap((v) => dashPaths(VIEW_PATHS[v], read.get(v) ?? []));
    const series: Record<string, GraphSeries> = {};
    for (const [name, key] of Object.entries(GRAPH_SERIES)) {
      if ((key === 'lead' || key === 'meeting') && template !== 'saas') continue;
      if (key === 'registration' && template !== 'selfserve') continue;
      // Charts plot money as shown: residue is 0, so an axis is never scaled on it.
      const shown = figureKind(key) === 'money' ? shownMoney : (v: number | null) => v;
      series[name] = {
        actual: monthsOfYear(year).map((t) => (r.isAct(t) ? shown(r.viewAt(key, t)) : null)),
        estimate: monthsOfYear(year).map((t) => shown(r.estimateAt(key, t))),
      };
    }
    const graph = { ...series, forecast_monthes: forecastMonths } as MonthlyPlYear['graph'];
    const monthlyPlYear: MonthlyPlYear = {
      year,
      estimate: views.estimate,
      actual: views.actual,
      forecast: views.forecast,
      progress: views.progress,
      difference: { rate: views.difference_rate, value: views.difference_value },
      graph,
      ...(dashes.length > 0 ? { dashes } : {}),
    };
    return flagBroken(monthlyPlYear, refusedInputs(wb, caseIndex, year));
  });
}

/** Where each view's records sit in the monthly P&L answer. */
const VIEW_PATHS: Record<ViewName, string> = {
  estimate: 'estimate',
  actual: 'actual',
  forecast: 'forecast',
  progress: 'progress',
  difference_rate: 'difference.rate',
  difference_value: 'difference.value',
};

/** The paths in the answer of a view's dashed figures, as `toRecords` places its columns. */
export function dashPaths(view: string, columns: GridColumn[]): string[] {
  const out: string[] = [];
  const place = { month: 0, quarter: 0 };
  for (const c of columns) {
    const at =
      c.monthType === 'cy'
        ? 'yearly'
        : c.monthType === 'month'
          ? `monthly.${place.month++}`
          : `quarterly.${place.quarter++}`;
    for (const key of c.dashes ?? []) out.push(`${view}.${at}.${key}`);
  }
  return out;
}

/** The 72 monthly estimate records of a case, as the CLI prints them. */
export function estimateMonths(wb: WorkbookFigures, caseIndex: number): SpecRecord[] {
  return Array.from(
    { length: PLAN_YEARS },
    (_, i) => toRecords(monthlyGrid(wb, caseIndex, i + 1, 'estimate')).monthly,
  ).flat();
}
