/**
 * Reading period columns of a case's sheets as plain records keyed by the spec's field names.
 */
import type { CaseLayout } from '../compile';
import { calendarOf, monthColumn, type Period, periodColumn, periodsOfYear, yearColumn } from '../layout';
import type { PlanWorkbook, Value } from '../workbook';

export type NumberRecord = Record<string, number | null>;
/** A record of the spec's answers: numbers beside labels such as month and status. */
export type SpecRow = Record<string, number | string | null>;

export type ViewName = 'estimate' | 'actual' | 'forecast' | 'progress' | 'difference_value' | 'difference_rate';
export const VIEWS: ViewName[] = ['estimate', 'actual', 'forecast', 'progress', 'difference_value', 'difference_rate'];

export function num(v: Value): number | null {
  return typeof v === 'number' ? v : null;
}

export class CaseReader {
  readonly layout: CaseLayout;
  constructor(
    readonly wb: PlanWorkbook,
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
    return num(this.wb.value(sheet, row, column));
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
          out[key] = variance && row !== undefined ? num(this.wb.value(variance, row, column)) : null;
        }
        return out;
      }
    }
  }

  private varianceRow(block: ViewName, key: string): number | undefined {
    const rows = this.layout.varianceRows;
    const i = rows.findIndex((r) => r.key === key);
    if (i < 0) return undefined;
    const b = ['progress', 'difference_value', 'difference_rate'].indexOf(block);
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
