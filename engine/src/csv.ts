/**
 * CSV exports of MODEL.md section 8, read from the workbook: the annual P&L of a case and the KPI of a case and year.
 * Money is rounded to the currency's decimals, counts to whole numbers, rates shown as percentages with one decimal;
 * UTF-8 with a byte-order mark so that Excel opens Japanese text. The KPI's count flows come from the monthly grid,
 * where they are whole and foot (read/footing.ts): each quarter and year is the sum of its months as written.
 */
import { periodsOfYear } from './layout';
import { monthLabel } from './read/cells';
import { MONEY_KEYS, RATE_KEYS, ROWS } from './rows';
import type { Currency } from './schema';
import type { PlanWorkbook } from './workbook';

const BOM = '\uFEFF';

const PL_ROWS: { field: string; key: string }[] = [
  { field: 'arr', key: 'arr' },
  { field: 'revenue', key: 'revenue' },
  { field: 'cogs', key: 'cogs' },
  { field: 'cogs_rate', key: 'cogs_rate' },
  { field: 'gross_profit', key: 'gross_profit' },
  { field: 'gross_profit_rate', key: 'gross_profit_rate' },
  { field: 'operating_cost', key: 'operating_expense' },
  { field: 'operating_cost_rate', key: 'operating_expense_rate' },
  { field: 'sm', key: 'sm' },
  { field: 'sm_rate', key: 'sm_rate' },
  { field: 'rd', key: 'rd' },
  { field: 'rd_rate', key: 'rd_rate' },
  { field: 'ga', key: 'ga' },
  { field: 'ga_rate', key: 'ga_rate' },
  { field: 'operating_pl', key: 'operating_income' },
  { field: 'operating_pl_rate', key: 'operating_income_rate' },
  { field: 'employees', key: 'employees' },
  { field: 'arr_per_headcount', key: 'arr_per_headcount' },
  { field: 'revenue_per_headcount', key: 'revenue_per_headcount' },
  { field: 'required_cash', key: 'required_cash' },
];

const KPI_KEYS: Record<'saas' | 'selfserve', string[]> = {
  saas: [
    'session',
    'lead',
    'meeting',
    'order',
    'churn',
    'cumulative',
    'lead_cvr',
    'meeting_cvr',
    'order_cvr',
    'churn_cvr',
    'mrr',
    'arr',
    'arpa',
  ],
  selfserve: [
    'session',
    'registration',
    'order',
    'churn',
    'cumulative',
    'registration_cvr',
    'order_cvr',
    'churn_cvr',
    'mrr',
    'arr',
    'arpa',
  ],
};

/** Two decimals for ratios that are neither money, counts nor percentages. */
const MULTIPLES = new Set(['ltv_cac', 'burn_multiple']);

/** A workbook number as the CSV writes it (MODEL.md section 8). */
export function formatCsvNumber(key: string, value: number | null, currency: Currency): string {
  if (value === null || !Number.isFinite(value)) return '';
  if (RATE_KEYS.has(key) || key.endsWith('_rate')) return `${round(value * 100, 1).toFixed(1)}%`;
  if (MONEY_KEYS.has(key)) {
    const decimals = currency === 'USD' ? 2 : 0;
    return round(value, decimals).toFixed(decimals);
  }
  if (MULTIPLES.has(key)) return round(value, 2).toFixed(2);
  return round(value, 0).toFixed(0);
}

/** Half away from zero, on the decimal value rather than its binary approximation. */
function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  const r = Math.round(Math.abs(value) * f + 1e-9) / f;
  return value < 0 && r !== 0 ? -r : r;
}

/** A figure as `formatCsvNumber` writes it, kept apart from text so that a negative number stays a number. */
export interface CsvFigure {
  readonly figure: string;
}

/** A CSV cell: text (labels, names) or a figure. */
export type CsvCell = string | CsvFigure;

export const csvFigure = (figure: string): CsvFigure => ({ figure });

/** Text that a spreadsheet would read as a formula: it starts with =, +, -, @, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as the CSV writes it, quoted when it holds a quote, comma or line break. Text that a spreadsheet would read
 * as a formula is neutralised as OWASP recommends for CSV injection: a leading single quote, and always quoted.
 * Figures are written as they are.
 */
function field(cell: CsvCell): string {
  if (typeof cell !== 'string') return cell.figure;
  const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
  if (FORMULA_START.test(cell)) return quote(`'${cell}`);
  return /[",\r\n]/.test(cell) ? quote(cell) : cell;
}

/** The rows as a CSV file's text: a byte-order mark, CRLF line ends. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return `${BOM}${rows.map((r) => r.map(field).join(',')).join('\r\n')}\r\n`;
}

function label(key: string): string {
  return ROWS.find((r) => r.key === key)?.label ?? key;
}

/** The annual P&L of a case: one row per P&L item, one column per plan year. */
export function plCsv(wb: PlanWorkbook, caseIndex: number): string {
  const years = wb.annualPl(caseIndex);
  const header = ['item', 'label', ...years.map((y) => `Y${y.year}`)];
  const body = PL_ROWS.map(({ field: f, key }) => [
    f,
    label(key),
    ...years.map((y) =>
      csvFigure(formatCsvNumber(key, (y as unknown as Record<string, number | null>)[f] ?? null, wb.plan.currency)),
    ),
  ]);
  return toCsv([header, ...body]);
}

/** The KPI of a case and plan year: one row per metric, the 17 columns of the year. */
export function kpiCsv(wb: PlanWorkbook, caseIndex: number, year: number): string {
  const start = { year: wb.plan.start_year, month: wb.plan.start_month };
  const periods = periodsOfYear(year);
  const columns = wb.monthlyGrid(caseIndex, year, 'estimate');
  const header = [
    'item',
    'label',
    ...periods.map((p) =>
      p.kind === 'month' ? monthLabel(start, p.t) : p.kind === 'quarter' ? `Q${p.quarter}` : 'CY',
    ),
  ];
  const body = KPI_KEYS[wb.plan.template].map((key) => [
    key,
    label(key),
    ...columns.map((c) => csvFigure(formatCsvNumber(key, c.values[key] ?? null, wb.plan.currency))),
  ]);
  return toCsv([header, ...body]);
}

/**
 * The revenue of a case: a row per plan month (recurring, professional services, total and cumulative revenue) and
 * after each year a row with the year's figures and its recurring revenue rate.
 */
export function revenueCsv(wb: PlanWorkbook, caseIndex: number): string {
  const currency = wb.plan.currency;
  const n = (key: string, value: number | null) => csvFigure(formatCsvNumber(key, value, currency));
  const rows: CsvCell[][] = [
    ['period', 'month', 'mrr', 'professional_service', 'revenue', 'cumulative_revenue', 'recurring_revenue_rate'],
  ];
  for (const year of wb.revenue(caseIndex)) {
    for (const m of year.monthly) {
      rows.push([
        `M${m.t}`,
        m.month,
        n('mrr', m.mrr),
        n('professional_service', m.professional_service),
        n('revenue', m.revenue),
        n('cumulative_revenue', m.cumulative_revenue),
        '',
      ]);
    }
    rows.push([
      `Y${year.year}`,
      '',
      n('mrr', year.mrr),
      n('professional_service', year.professional_service),
      n('revenue', year.revenue),
      '',
      n('recurring_revenue_rate', year.recurring_revenue_rate),
    ]);
  }
  return toCsv(rows);
}

/** plan_case_area_yyyyMMdd.csv, with characters that file systems refuse replaced. */
export function csvFileName(planName: string, caseName: string, area: string, date: Date): string {
  const safe = (s: string) => s.replace(/[\\/:*?"<>|\s]+/g, '_');
  const d = `${date.getFullYear()}${String(date.getMonth() + 1).padStart(2, '0')}${String(date.getDate()).padStart(2, '0')}`;
  return `${safe(planName)}_${safe(caseName)}_${area}_${d}.csv`;
}
