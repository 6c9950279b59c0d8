/**
 * Reading period columns of a case's sheets as plain records keyed by the spec's field names.
 */
import { z } from 'zod';
import { calendarOf, planMonthOf, yearOf } from '../calendar';
import type { CaseLayout } from '../compile';
import { monthColumn, type Period, periodColumn, periodsOfYear, yearColumn } from '../layout';
import { PLAN_MONTHS } from '../schema';
import type { WorkbookFigures } from './source';

/** A figure of the workbook on the wire: a number, or null where its cell is blank. */
export const figureSchema = z.number().nullable();

export const numberRecordSchema = z.record(z.string(), figureSchema);
export type NumberRecord = z.infer<typeof numberRecordSchema>;

/**
 * What an answer could not show as stored or computed, on the object that holds it (a year, a grid column, the
 * dashboard); absent when nothing is wrong.
 */
export const brokenSchema = z.strictObject({
  /**
   * Figures of the object left blank (null) because they could not be computed (a number overflowed), by their path
   * within it: `revenue`, `monthly.3.mrr`, `values.arr`, `metrics.mrr.estimate.12`.
   */
  figures: z.array(z.string()),
  /**
   * Stored inputs the plan's bounds refuse, left out so that their defaults apply, by their path in the plan file:
   * `cases.0.years.1.arr`, `cases.0.cash.7.equity_raised`. The plan's target ARR and ARPA (`arr`, `arpa`) are kept.
   */
  inputs: z.array(z.string()),
});
export type Broken = z.infer<typeof brokenSchema>;

/** A value of the spec's records: a figure, or a label such as month and status. */
export const specValueSchema = z.union([z.number(), z.string(), z.null()]);
/** A record of the spec's answers: numbers beside labels such as month and status. */
export const specRowSchema = z.record(z.string(), specValueSchema);
export type SpecRow = z.infer<typeof specRowSchema>;

/**
 * A record holding exactly the fields of one of `keySets` (one set per template where the answer differs by template).
 * Typed as a plain string-keyed record, so a screen can read it by a metric key; a field outside every set, or a set
 * left incomplete, fails to parse.
 */
export function recordOf<V extends z.ZodType>(keySets: readonly (readonly string[])[], value: V) {
  const known = new Set(keySets.flat());
  const sets = keySets.map((keys) => new Set(keys));
  const complete = (record: Record<string, unknown>) =>
    sets.some((keys) => keys.size === Object.keys(record).length && [...keys].every((key) => key in record));
  return z
    .record(
      z.string().refine((key) => known.has(key), { error: 'not a field of this record' }),
      value,
    )
    .refine(complete, { error: 'the fields of no template' });
}

export type ViewName = 'estimate' | 'actual' | 'forecast' | 'progress' | 'difference_value' | 'difference_rate';
export const VIEWS: ViewName[] = ['estimate', 'actual', 'forecast', 'progress', 'difference_value', 'difference_rate'];

/**
 * Finishes an object of a read model: every figure that could not be computed (NaN, as `WorkbookFigures.figure` reads
 * it) becomes null, and the object's `broken` flag names those figures and the refused `inputs`.
 */
export function flagBroken<T extends object>(object: T, inputs: string[]): T & { broken?: Broken } {
  const figures: string[] = [];
  const blanks: [Record<string, unknown>, string][] = [];
  // The keys from the object down to the one walked: a figure's path is joined only when it is broken, since an
  // answer holds thousands of figures and is read afresh at every version of the plan.
  const keys: string[] = [];
  const walk = (value: Record<string, unknown>) => {
    for (const key in value) {
      const v = value[key];
      if (typeof v === 'number') {
        if (Number.isFinite(v)) continue;
        figures.push([...keys, key].join('.'));
        blanks.push([value, key]);
      } else if (typeof v === 'object' && v !== null) {
        keys.push(key);
        walk(v as Record<string, unknown>);
        keys.pop();
      }
    }
  };
  walk(object as Record<string, unknown>);
  // Blanked once every path is known, so that an array two parts of the object share is named under both.
  for (const [parent, key] of blanks) parent[key] = null;
  if (figures.length === 0 && inputs.length === 0) return object;
  return Object.assign(object, { broken: { figures, inputs } });
}

/**
 * The plan-file paths of the refused inputs that concern a case (and, given a year, that plan year): the plan's own,
 * the case's without a year (case rate, growth model, cost items), and those of a year or of a month within it.
 */
export function refusedInputs(wb: WorkbookFigures, caseIndex: number, year?: number): string[] {
  const out: string[] = [];
  for (const { path } of wb.refused) {
    const [top, index, field, key] = path.split('.');
    if (top === 'cases' && Number(index) !== caseIndex) continue;
    const of = top === 'cases' ? inputYear(wb, field, key) : undefined;
    if (year === undefined || of === undefined || of === year) out.push(path);
  }
  return out;
}

/** The plan year an input of a case belongs to, if it belongs to one. */
function inputYear(wb: WorkbookFigures, field: string | undefined, key: string | undefined): number | undefined {
  const month = (t: number) => (Number.isInteger(t) && t >= 1 && t <= PLAN_MONTHS ? yearOf(t) : undefined);
  switch (field) {
    case 'years':
    case 'revisions':
      return month(12 * Number(key));
    case 'cash':
    case 'actuals':
      return month(Number(key));
    case 'daily': {
      const [y, m] = (key ?? '').split('-').map(Number);
      return month(planMonthOf(wb.plan.start_year, wb.plan.start_month, y ?? 0, m ?? 0));
    }
    default:
      return undefined;
  }
}

/** The blocks of a Variance sheet, in its order. */
const VARIANCE_BLOCKS: readonly ViewName[] = ['progress', 'difference_value', 'difference_rate'];

export class CaseReader {
  readonly layout: CaseLayout;
  /** The Variance sheet's rows by key, once read. */
  private varianceIndex: Map<string, number> | undefined;
  constructor(
    readonly wb: WorkbookFigures,
    readonly caseIndex: number,
  ) {
    this.layout = wb.caseLayout(caseIndex);
  }

  get hasActuals(): boolean {
    return this.layout.sheets.actual !== undefined;
  }

  /** The sheet showing the actual view: the Actual sheet, or the estimate while the case has no ACT month. */
  get viewSheet(): string {
    return this.layout.sheets.actual ?? this.layout.sheets.estimate;
  }

  cell(sheet: string, key: string, column: number): number | null {
    const row = this.layout.rowOf[key];
    if (row === undefined) return null;
    return this.wb.figure(sheet, row, column);
  }

  record(sheet: string, keys: readonly string[], column: number): NumberRecord {
    const out: NumberRecord = {};
    for (const key of keys) out[key] = this.cell(sheet, key, column);
    return out;
  }

  estimateAt(key: string, t: number): number | null {
    return this.cell(this.layout.sheets.estimate, key, monthColumn(t));
  }

  viewAt(key: string, t: number): number | null {
    return this.cell(this.viewSheet, key, monthColumn(t));
  }

  estimateYear(key: string, year: number): number | null {
    return this.cell(this.layout.sheets.estimate, key, yearColumn(year));
  }

  isAct(t: number): boolean {
    return this.layout.act.includes(t);
  }

  /** Values of a view for one period column, or nulls where the view has nothing (progress before any ACT month). */
  viewRecord(view: ViewName, keys: readonly string[], p: Period): NumberRecord {
    const column = periodColumn(p);
    const s = this.layout.sheets;
    switch (view) {
      case 'estimate':
        return this.record(s.estimate, keys, column);
      case 'actual':
      case 'forecast':
        return this.record(this.viewSheet, keys, column);
      default: {
        const out: NumberRecord = {};
        const variance = s.variance;
        for (const key of keys) {
          const row = variance ? this.varianceRow(view, key) : undefined;
          out[key] = variance && row !== undefined ? this.wb.figure(variance, row, column) : null;
        }
        return out;
      }
    }
  }

  private varianceRow(block: ViewName, key: string): number | undefined {
    const rows = this.layout.varianceRows;
    // The first row of a key, as a search from the top finds it.
    this.varianceIndex ??= new Map(rows.map((r, i) => [r.key, i] as const).reverse());
    const i = this.varianceIndex.get(key);
    if (i === undefined) return undefined;
    const b = VARIANCE_BLOCKS.indexOf(block);
    return 1 + b * (rows.length + 1) + i + 1;
  }

  /** Status of a period column: ACT when every month in it is ACT (months: the month's own status). */
  status(p: Period): 'ACT' | 'EST' {
    const months = p.kind === 'month' ? [p.t] : p.months;
    return months.every((t) => this.isAct(t)) ? 'ACT' : 'EST';
  }
}

export function monthLabel(start: { year: number; month: number }, t: number): string {
  const c = calendarOf(start.year, start.month, t);
  return `${c.year}-${String(c.month).padStart(2, '0')}`;
}

export { periodsOfYear };
