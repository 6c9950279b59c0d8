/**
 * CSV exports of MODEL.md section 8, read from the workbook: the annual P&L of a case and the KPI of a case and year.
 * Money is rounded to the currency's decimals, counts to whole numbers, rates shown as percentages with one decimal;
 * UTF-8 with a byte-order mark so that Excel opens Japanese text. The KPI's count flows come from the monthly grid,
 * where they are whole and foot (read/footing.ts): each quarter and year is the sum of its months as written.
 * Each file is made as rows (`plCsvRows`…, read from the workbook at once, formatted as they are iterated) that the API
 * streams line by line (`csvLines`); `plCsv`… give the same file as one text.
 */
import { type CsvLanguage, csvLabel, csvWord, periodHeader, revenueHeaders, yearHeader } from './csvLabels';
import { periodsOfYear } from './layout';
import { monthLabel, type ViewName } from './read/cells';
import type { GridColumn } from './read/monthly';
import { MONEY_KEYS, RATE_KEYS } from './rows';
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

/**
 * A CSV file's rows. The functions that make them read every figure from the workbook when called and format the rows
 * as they are iterated, so a file streamed while the plan changes still holds one version of it.
 */
export type CsvRows = Iterable<readonly CsvCell[]>;

/** The rows as a CSV file's lines, each with its CRLF, the first after a byte-order mark. */
export function* csvLines(rows: CsvRows): Generator<string, void, undefined> {
  let first = true;
  for (const row of rows) {
    yield `${first ? BOM : ''}${row.map(field).join(',')}\r\n`;
    first = false;
  }
  if (first) yield `${BOM}\r\n`;
}

/** The rows as a CSV file's text: a byte-order mark, CRLF line ends. */
export function toCsv(rows: CsvRows): string {
  return [...csvLines(rows)].join('');
}

/** `item`, `label` and the 17 columns of a plan year: `YYYY-MM` months, quarters and CY. */
function periodHeaders(wb: PlanWorkbook, year: number, lang: CsvLanguage): string[] {
  const start = { year: wb.plan.start_year, month: wb.plan.start_month };
  return [
    csvWord('item', lang),
    csvWord('label', lang),
    ...periodsOfYear(year).map((p) =>
      p.kind === 'month'
        ? monthLabel(start, p.t)
        : periodHeader(p.kind === 'quarter' ? 'quarter' : 'cy', p.kind === 'quarter' ? p.quarter : 0, lang),
    ),
  ];
}

/** The annual P&L of a case: one row per P&L item, one column per plan year. */
export function plCsvRows(wb: PlanWorkbook, caseIndex: number, lang: CsvLanguage = 'en'): CsvRows {
  const years = wb.annualPl(caseIndex);
  const currency = wb.plan.currency;
  return (function* () {
    yield [csvWord('item', lang), csvWord('label', lang), ...years.map((y) => yearHeader(y.year, lang))];
    for (const { field: f, key } of PL_ROWS) {
      yield [
        f,
        csvLabel(key, lang),
        ...years.map((y) =>
          csvFigure(formatCsvNumber(key, (y as unknown as Record<string, number | null>)[f] ?? null, currency)),
        ),
      ];
    }
  })();
}

/** `plCsvRows` as the file's text. */
export const plCsv = (...args: Parameters<typeof plCsvRows>): string => toCsv(plCsvRows(...args));

/** The KPI of a case and plan year: one row per metric, the 17 columns of the year. */
export function kpiCsvRows(wb: PlanWorkbook, caseIndex: number, year: number, lang: CsvLanguage = 'en'): CsvRows {
  const columns = wb.monthlyGrid(caseIndex, year, 'estimate');
  const header = periodHeaders(wb, year, lang);
  const { currency, template } = wb.plan;
  return (function* () {
    yield header;
    for (const key of KPI_KEYS[template]) {
      yield [
        key,
        csvLabel(key, lang),
        ...columns.map((c) => csvFigure(formatCsvNumber(key, c.values[key] ?? null, currency))),
      ];
    }
  })();
}

/** `kpiCsvRows` as the file's text. */
export const kpiCsv = (...args: Parameters<typeof kpiCsvRows>): string => toCsv(kpiCsvRows(...args));

/**
 * The revenue of a case: a row per plan month (recurring, professional services, total and cumulative revenue) and
 * after each year a row with the year's figures and its recurring revenue rate.
 */
export function revenueCsvRows(wb: PlanWorkbook, caseIndex: number, lang: CsvLanguage = 'en'): CsvRows {
  const currency = wb.plan.currency;
  const years = wb.revenue(caseIndex);
  const n = (key: string, value: number | null) => csvFigure(formatCsvNumber(key, value, currency));
  return (function* () {
    yield revenueHeaders(lang);
    for (const year of years) {
      for (const m of year.monthly) {
        yield [
          `M${m.t}`,
          m.month,
          n('mrr', m.mrr),
          n('professional_service', m.professional_service),
          n('revenue', m.revenue),
          n('cumulative_revenue', m.cumulative_revenue),
          '',
        ];
      }
      yield [
        `Y${year.year}`,
        '',
        n('mrr', year.mrr),
        n('professional_service', year.professional_service),
        n('revenue', year.revenue),
        '',
        n('recurring_revenue_rate', year.recurring_revenue_rate),
      ];
    }
  })();
}

/** `revenueCsvRows` as the file's text. */
export const revenueCsv = (...args: Parameters<typeof revenueCsvRows>): string => toCsv(revenueCsvRows(...args));

/** plan_case_area_yyyyMMdd.csv, with characters that file systems refuse replaced. */
export function csvFileName(planName: string, caseName: string, area: string, date: Date): string {
  const safe = (s: string) => s.replace(/[\\/:*?"<>|\s]+/g, '_');
  const d = `${date.getFullYear()}${String(date.getMonth() + 1).padStart(2, '0')}${String(date.getDate()).padStart(2, '0')}`;
  return `${safe(planName)}_${safe(caseName)}_${area}_${d}.csv`;
}

/** The monthly P&L's rows, as the screen lists them (working-screens.md section 2), for a template. */
const MONTHLY_ROWS: { key: string; template?: 'saas' | 'selfserve' }[] = [
  { key: 'session' },
  { key: 'lead', template: 'saas' },
  { key: 'lead_cvr', template: 'saas' },
  { key: 'meeting', template: 'saas' },
  { key: 'meeting_cvr', template: 'saas' },
  { key: 'registration', template: 'selfserve' },
  { key: 'registration_cvr', template: 'selfserve' },
  { key: 'order' },
  { key: 'order_cvr' },
  { key: 'churn' },
  { key: 'churn_cvr' },
  { key: 'cumulative' },
  { key: 'arpa' },
  { key: 'mrr' },
  { key: 'arr' },
  { key: 'ltv' },
  { key: 'cac' },
  { key: 'ltv_cac' },
  { key: 'employees' },
  { key: 'revenue' },
  { key: 'revenue_rate' },
  { key: 'professional_service' },
  { key: 'cogs' },
  { key: 'cogs_rate' },
  { key: 'gross_profit' },
  { key: 'gross_profit_rate' },
  { key: 'operating_expense' },
  { key: 'operating_expense_rate' },
  { key: 'sm' },
  { key: 'sm_rate' },
  { key: 'rd' },
  { key: 'rd_rate' },
  { key: 'ga' },
  { key: 'ga_rate' },
  { key: 'operating_income' },
  { key: 'operating_income_rate' },
  { key: 'burn_multiple' },
  { key: 'beginning_cash_balance' },
  { key: 'equity_raised' },
  { key: 'debt_raised' },
  { key: 'debt_payment' },
  { key: 'other' },
  { key: 'net_cash_movement' },
  { key: 'ending_cash_balance' },
];

/**
 * The monthly P&L's views in its CSV: the plan, the actual view (ACT months as entered, then the forecast), progress,
 * and the variance as the screen shows it: difference (values) or difference_rate (rates).
 */
export type MonthlyCsvView = 'estimate' | 'actual' | 'progress' | 'difference' | 'difference_rate';

/** The engine's view of each view the monthly CSV names. */
export const MONTHLY_VIEWS: Record<MonthlyCsvView, ViewName> = {
  estimate: 'estimate',
  actual: 'actual',
  progress: 'progress',
  difference: 'difference_value',
  difference_rate: 'difference_rate',
};

/**
 * The monthly P&L of a case and plan year in one view: the screen's rows, the 17 columns of the year. Outside the
 * estimate a first row says which months are ACT and which EST. Progress is a percentage (actual / plan) with one
 * decimal, and so is the difference rate (actual / plan - 1); difference is actual less plan, in each row's own unit
 * (rates in percentage points). A figure the screen shows as a dash (its base is zero up to residue) is empty.
 */
export function monthlyCsvRows(
  wb: PlanWorkbook,
  caseIndex: number,
  year: number,
  view: MonthlyCsvView,
  lang: CsvLanguage = 'en',
  /** The view's columns read against a plan of record (`snapshotGrid`), in place of the live plan's. */
  compared?: GridColumn[],
): CsvRows {
  const columns = compared ?? wb.monthlyGrid(caseIndex, year, MONTHLY_VIEWS[view]);
  const header = periodHeaders(wb, year, lang);
  const { currency, template } = wb.plan;
  const percent = view === 'progress' || view === 'difference_rate';
  return (function* () {
    yield header;
    if (view !== 'estimate') {
      yield ['status', csvWord('statusLabel', lang), ...columns.map((c) => (c.monthType === 'month' ? c.status : ''))];
    }
    for (const { key } of MONTHLY_ROWS.filter((r) => !r.template || r.template === template)) {
      yield [
        key,
        csvLabel(key, lang),
        ...columns.map((c) => {
          const value = c.values[key] ?? null;
          if (!percent) return csvFigure(formatCsvNumber(key, value, currency));
          return csvFigure(value === null || !Number.isFinite(value) ? '' : `${round(value * 100, 1).toFixed(1)}%`);
        }),
      ];
    }
  })();
}

/** `monthlyCsvRows` as the file's text. */
export const monthlyCsv = (...args: Parameters<typeof monthlyCsvRows>): string => toCsv(monthlyCsvRows(...args));
