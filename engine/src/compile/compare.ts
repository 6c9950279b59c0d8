/**
 * Progress and difference (MODEL.md section 5): for ACT months and for the periods that contain them, over their ACT
 * months only. Two masked sheets hold the actual and the estimate restricted to the ACT months, aggregated by the same
 * period rules; the Variance sheet compares them cell by cell.
 */
import { ALL_PERIODS, type Period, periodColumn } from '../layout';
import type { RowDef } from '../rows';
import { safeRatio } from './formulas';
import { emptyGrid, type Grid, PeriodSheet, refOrBlank, setCell } from './grid';
import { aggregatePeriod } from './periodRules';

/** The label column's header of the ActualToDate and EstimateToDate sheets. */
export const ACTUAL_TO_DATE_TITLE = 'Actual, ACT months only';
export const ESTIMATE_TO_DATE_TITLE = 'Estimate, ACT months only';

export const VARIANCE_BLOCKS = ['progress', 'difference_value', 'difference_rate'] as const;
export type VarianceBlock = (typeof VARIANCE_BLOCKS)[number];

/** Periods (months, quarters, years) that contain at least one ACT month, with those months. */
export function comparedPeriods(act: number[]): { period: Period; months: number[] }[] {
  const actSet = new Set(act);
  const out: { period: Period; months: number[] }[] = [];
  for (const p of ALL_PERIODS) {
    const months = p.kind === 'month' ? [p.t] : p.months;
    const covered = months.filter((t) => actSet.has(t));
    if (covered.length > 0) out.push({ period: p, months: covered });
  }
  return out;
}

export function compileMasked(
  name: string,
  title: string,
  source: PeriodSheet,
  rows: RowDef[],
  act: number[],
  start: { year: number; month: number },
): PeriodSheet {
  const sheet = new PeriodSheet(name, rows, title, start.year, start.month);
  const compared = comparedPeriods(act);
  for (const { period } of compared) {
    if (period.kind !== 'month') continue;
    for (const row of rows) sheet.setMonth(row.key, period.t, refOrBlank(source, row.key, period.t));
  }
  for (const { period, months } of compared) {
    if (period.kind === 'month') continue;
    aggregatePeriod(sheet, period, {
      months,
      monthRef: (key, t) => sheet.at(key, t),
      baseMonthRef: (key, t) => source.at(key, t, true),
      basePeriodRef: (key) => source.ref(key, periodColumn(period), true),
    });
  }
  return sheet;
}

/** Row of a metric within a block of the Variance sheet. */
export function varianceRow(rows: RowDef[], block: VarianceBlock, key: string): number {
  const b = VARIANCE_BLOCKS.indexOf(block);
  return 1 + b * (rows.length + 1) + rows.findIndex((r) => r.key === key) + 1;
}

/**
 * The Variance sheet: each block compares, for every row, the ActualToDate cell with the EstimateToDate cell of each
 * compared period. A row's comparisons are one formula filled right (`varianceComparisons.test.ts`); given `filled`,
 * each one after a row's first holds it in place of its own text (the spreadsheet exports, which write such a row as
 * one shared formula).
 */
export function compileVariance(
  rows: RowDef[],
  actualToDate: PeriodSheet,
  estimateToDate: PeriodSheet,
  act: number[],
  columns: number,
  filled?: string,
): Grid {
  const grid = emptyGrid(1 + VARIANCE_BLOCKS.length * (rows.length + 1), columns);
  setCell(grid, 0, 0, 'Variance');
  const labels = actualToDate.grid[0] ?? [];
  labels.forEach((label, column) => {
    if (column > 0) setCell(grid, 0, column, label);
  });
  const formulas: Record<VarianceBlock, (a: string, e: string) => string> = {
    progress: (a, e) => safeRatio(a, e),
    difference_value: (a, e) => `=IF(OR(${a}="",${e}=""),"",${a}-${e})`,
    difference_rate: (a, e) => safeRatio(a, e, '-1'),
  };
  const compared = comparedPeriods(act).map(({ period }) => periodColumn(period));
  for (const block of VARIANCE_BLOCKS) {
    const header = varianceRow(rows, block, rows[0]?.key ?? '') - 1;
    setCell(grid, header, 0, block);
    for (const row of rows) {
      const r = varianceRow(rows, block, row.key);
      setCell(grid, r, 0, row.label);
      compared.forEach((column, i) => {
        if (filled !== undefined && i > 0 && compared[i - 1] === column - 1) {
          setCell(grid, r, column, filled);
          return;
        }
        const a = actualToDate.ref(row.key, column, true);
        const e = estimateToDate.ref(row.key, column, true);
        setCell(grid, r, column, formulas[block](a, e));
      });
    }
  }
  return grid;
}
