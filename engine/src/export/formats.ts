/**
 * Number formats of the spreadsheet exports (XLSX and Google Sheets), decided per cell from the workbook's layout:
 * money in the plan's currency, rates as percentages, counts with one decimal (customers are real numbers in the
 * engine), and plain integers for months and years.
 */
import { ASSUMPTION_ROWS, PLAN_NAMES, type PlanName } from '../compile/assumptions';
import { VARIANCE_BLOCKS, varianceRow } from '../compile/compare';
import { DASHBOARD_COLUMNS, DASHBOARD_SCALARS, type DashboardScalar } from '../compile/dashboard';
import type { CaseLayout, CompiledWorkbook } from '../compile/index';
import { RATE_KEYS, ROWS } from '../rows';
import type { Currency } from '../schema';
import type { UserTextOf } from './userText';

/**
 * - `money`: the currency's decimals; `rate`: a fraction shown as a percentage; `count`: customers, sessions;
 * - `whole`: head count and daily entries; `integer`: months, years, indexes (no thousands separator);
 * - `multiple`: growth multiples, case rates, LTV/CAC, burn multiple; `points`: a percentage already times 100.
 */
export type FormatKind = 'money' | 'rate' | 'count' | 'whole' | 'integer' | 'multiple' | 'points';

export function formatPattern(kind: FormatKind, currency: Currency): string {
  switch (kind) {
    case 'money':
      return currency === 'JPY' ? '#,##0' : '#,##0.00';
    case 'rate':
      return '0.0%';
    case 'count':
      return '#,##0.0';
    case 'whole':
      return '#,##0';
    case 'integer':
      return '0';
    case 'multiple':
      return '0.00';
    case 'points':
      return '0.0';
  }
}

/** Format of a metric row of a period sheet (estimate, actual and their masked copies), by its key. */
export function metricFormat(key: string): FormatKind {
  if (RATE_KEYS.has(key)) return 'rate';
  if (ROWS.some((r) => r.key === key && r.money)) return 'money';
  switch (key) {
    case 't':
    case 'month_of_year':
    case 'segment':
    case 'cash_out_month':
      return 'integer';
    case 'employees':
      return 'whole';
    case 'ltv_cac':
    case 'burn_multiple':
      return 'multiple';
    default:
      return 'count';
  }
}

const PLAN_FORMATS: Partial<Record<PlanName, FormatKind>> = {
  target_arr: 'money',
  plan_arpa: 'money',
  arr_per_head: 'money',
  churn_band_low: 'money',
  churn_band_high: 'money',
  period: 'integer',
  start_year: 'integer',
  start_month: 'integer',
  as_of_month: 'integer',
};

function assumptionFormat(key: string): FormatKind {
  switch (key) {
    case 'case_rate':
    case 'growth_multiple':
      return 'multiple';
    case 'arr':
    case 'mrr_target':
    case 'arpa':
      return 'money';
    case 'upselling_month':
      return 'integer';
    case 'employees':
      return 'whole';
    default:
      return key.endsWith('_rate') ? 'rate' : 'count';
  }
}

const SCALAR_FORMATS: Record<DashboardScalar, FormatKind> = {
  latest_actual_month: 'integer',
  runway_from_month: 'integer',
  cash_out_month: 'integer',
  forecast_monthes: 'integer',
  mrr_goal: 'money',
  mrr_as_is: 'money',
  mrr_progress_percent: 'points',
};

const COST_META_FORMATS: Record<string, FormatKind> = {
  price: 'money',
  start_year: 'integer',
  start_month: 'integer',
  end_year: 'integer',
  end_month: 'integer',
  start_t: 'integer',
  end_t: 'integer',
};

/** The format of a cell (0-based row and column), or undefined for labels, headers and text. */
export type CellFormatOf = (row: number, column: number) => FormatKind | undefined;

const none: CellFormatOf = () => undefined;

/** Builds the cell-format lookup of one sheet of a compiled workbook. */
export function sheetFormats(layout: CompiledWorkbook, sheet: string): CellFormatOf {
  if (sheet === 'Plan') {
    return (row, column) => (column === 1 && row > 0 ? PLAN_FORMATS[PLAN_NAMES[row - 1] as PlanName] : undefined);
  }
  for (const c of layout.cases) {
    const s = c.sheets;
    if (sheet === s.assumptions) {
      return (row, column) => {
        const key = ASSUMPTION_ROWS[row - 1]?.key;
        return column > 0 && key ? assumptionFormat(key) : undefined;
      };
    }
    if ([s.estimate, s.actual, s.actualToDate, s.estimateToDate].includes(sheet)) return periodSheetFormats(c);
    if (sheet === s.variance) return varianceFormats(c);
    if (sheet === s.costs) return costFormats(c, layout.sheets[sheet]?.[0] ?? []);
    if (sheet === s.dashboard) return dashboardFormats(c);
    if (sheet === s.daily) return (row, column) => (row > 0 && column > 1 ? 'whole' : undefined);
  }
  return none;
}

function invert(rowOf: Record<string, number>): Map<number, string> {
  return new Map(Object.entries(rowOf).map(([key, row]) => [row, key]));
}

function periodSheetFormats(c: CaseLayout): CellFormatOf {
  const formatOfRow = new Map([...invert(c.rowOf)].map(([row, key]) => [row, metricFormat(key)]));
  return (row, column) => (column > 0 ? formatOfRow.get(row) : undefined);
}

function varianceFormats(c: CaseLayout): CellFormatOf {
  const byRow = new Map<number, FormatKind>();
  for (const block of VARIANCE_BLOCKS) {
    for (const r of c.varianceRows) {
      byRow.set(varianceRow(c.varianceRows, block, r.key), block === 'difference_value' ? metricFormat(r.key) : 'rate');
    }
  }
  return (row, column) => (column > 0 ? byRow.get(row) : undefined);
}

function costFormats(c: CaseLayout, header: readonly (string | number | null)[]): CellFormatOf {
  const pointsRows = new Set(Object.values(c.costs.summaryRow).map((r) => r.budgetary_averages));
  return (row, column) => {
    if (row === 0 || column === 0) return undefined;
    const label = header[column];
    if (typeof label === 'string' && label in COST_META_FORMATS) return COST_META_FORMATS[label];
    if (label === 'item_title') return undefined;
    return pointsRows.has(row) ? 'points' : 'money';
  };
}

function dashboardFormats(c: CaseLayout): CellFormatOf {
  const d = c.dashboard;
  const keyOf = invert(d.metricRow);
  const scalarOf = new Map(DASHBOARD_SCALARS.map((k) => [d.scalarRow[k], k]));
  const achieved = d.column.fiscal_year_achieved;
  const valueColumns = new Set(DASHBOARD_COLUMNS.map((k) => d.column[k]));
  return (row, column) => {
    const scalar = scalarOf.get(row);
    if (scalar) return column === 1 ? SCALAR_FORMATS[scalar] : undefined;
    const key = keyOf.get(row);
    if (!key || !valueColumns.has(column)) return undefined;
    return column === achieved ? 'rate' : metricFormat(key);
  };
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/**
 * At least the length of `grouped.format(v)`: a minus, the integer digits (one more where rounding carries), their
 * thousands separators, the point and two decimals.
 */
function widestText(v: number): number {
  if (!Number.isFinite(v) || Math.abs(v) >= 1e15) return Number.POSITIVE_INFINITY;
  const digits = String(Math.trunc(Math.abs(v)) + 1).length;
  return (v < 0 ? 1 : 0) + digits + Math.floor((digits - 1) / 3) + 3;
}

/**
 * Column widths in characters, wide enough for each column's header and its largest formatted figure: the label
 * column fits its labels (capped), figure columns fit their numbers. User text counts as written, even when it looks
 * like a formula; a formula counts by its value.
 */
export function columnWidths(
  grid: readonly (readonly (string | number | null)[])[],
  values: readonly (readonly (string | number | null)[])[],
  textOf: UserTextOf = () => undefined,
): number[] {
  const columns = Math.max(0, ...grid.map((r) => r.length));
  const chars = new Array<number>(columns).fill(0);
  grid.forEach((row, r) => {
    const rowValues = values[r];
    for (let c = 0; c < row.length; c++) {
      const content = row[c] ?? null;
      if (content === null) continue;
      const userText = textOf(r, c);
      const v = userText ?? rowValues?.[c] ?? content;
      const widest = chars[c] ?? 0;
      if (typeof v === 'number') {
        // Formatting is the costly part: only a number whose widest possible text is wider than the widest so far.
        if (widestText(v) > widest) chars[c] = Math.max(widest, grouped.format(v).length);
        continue;
      }
      const isFormula = userText === undefined && typeof content === 'string' && content.startsWith('=');
      if (v !== null && !isFormula && v.length > widest) chars[c] = v.length;
    }
  });
  return chars.map((n, c) => (c === 0 ? Math.min(48, Math.max(12, n + 2)) : Math.min(24, Math.max(10, n + 3))));
}
