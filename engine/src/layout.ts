/**
 * Where things sit in the workbook. Period sheets are laid out as a finance lead lays out a model by hand: column A
 * holds the row labels, then each plan year takes 17 columns, M1 M2 M3 Q1 M4 M5 M6 Q2 M7 M8 M9 Q3 M10 M11 M12 Q4 CY
 * (MODEL.md section 4), six years side by side.
 */
import { monthsOfYear, monthWithinYear, planMonthAt, yearOf } from './calendar';
import { PLAN_YEARS } from './schema';

export const COLUMNS_PER_YEAR = 17;
export const PERIOD_COLUMNS = COLUMNS_PER_YEAR * PLAN_YEARS;
/** Column index (0-based, column A = 0) of the first period column. */
export const FIRST_PERIOD_COLUMN = 1;

export type Period =
  | { kind: 'month'; year: number; month: number; t: number }
  | { kind: 'quarter'; year: number; quarter: number; months: number[] }
  | { kind: 'year'; year: number; months: number[] };

/** Offsets of the 17 columns within a year: 12 months, 4 quarters, then CY. */
const OFFSET_OF_MONTH = [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14];

export function monthsOfQuarter(year: number, quarter: number): number[] {
  return [1, 2, 3].map((i) => planMonthAt(year, 3 * (quarter - 1) + i));
}

export function monthColumn(t: number): number {
  const offset = OFFSET_OF_MONTH[monthWithinYear(t) - 1] ?? 0;
  return FIRST_PERIOD_COLUMN + COLUMNS_PER_YEAR * (yearOf(t) - 1) + offset;
}

export function quarterColumn(year: number, quarter: number): number {
  return FIRST_PERIOD_COLUMN + COLUMNS_PER_YEAR * (year - 1) + 4 * quarter - 1;
}

export function yearColumn(year: number): number {
  return FIRST_PERIOD_COLUMN + COLUMNS_PER_YEAR * (year - 1) + 16;
}

/** The 17 periods of a plan year in column order. */
export function periodsOfYear(year: number): Period[] {
  const periods: Period[] = [];
  for (let quarter = 1; quarter <= 4; quarter++) {
    for (const t of monthsOfQuarter(year, quarter)) {
      periods.push({ kind: 'month', year, month: monthWithinYear(t), t });
    }
    periods.push({ kind: 'quarter', year, quarter, months: monthsOfQuarter(year, quarter) });
  }
  periods.push({ kind: 'year', year, months: monthsOfYear(year) });
  return periods;
}

export const ALL_PERIODS: Period[] = Array.from({ length: PLAN_YEARS }, (_, i) => periodsOfYear(i + 1)).flat();

export function periodColumn(p: Period): number {
  if (p.kind === 'month') return monthColumn(p.t);
  if (p.kind === 'quarter') return quarterColumn(p.year, p.quarter);
  return yearColumn(p.year);
}

/** The period of the same kind just before p, or undefined for the first one. */
export function previousPeriod(p: Period): Period | undefined {
  if (p.kind === 'month') {
    const t = p.t - 1;
    return t < 1 ? undefined : { kind: 'month', year: yearOf(t), month: monthWithinYear(t), t };
  }
  if (p.kind === 'quarter') {
    const index = 4 * (p.year - 1) + p.quarter - 2;
    if (index < 0) return undefined;
    const year = Math.floor(index / 4) + 1;
    const quarter = (index % 4) + 1;
    return { kind: 'quarter', year, quarter, months: monthsOfQuarter(year, quarter) };
  }
  return p.year <= 1 ? undefined : { kind: 'year', year: p.year - 1, months: monthsOfYear(p.year - 1) };
}

/** Column letters for a 0-based index: 0 -> A, 26 -> AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** A1 reference of a 0-based (row, column) pair, optionally on another sheet and absolute. */
export function a1(row: number, column: number, sheet?: string, absolute = false): string {
  const d = absolute ? '$' : '';
  const ref = `${d}${columnLetter(column)}${d}${row + 1}`;
  return sheet ? `${sheet}!${ref}` : ref;
}
