/**
 * The period rules of MODEL.md section 4: how a quarter or year column is carried from its months. Flows are summed
 * (a quarter its three months, a year its four quarters), stocks take the period's last month and the beginning cash
 * balance its first, rates are the month formula over the period's own figures, and a few rows (revenue growth,
 * burn multiple, ARR progress, required cash) have rules of their own.
 */
import { ALL_PERIODS, type Period, periodColumn, previousPeriod, quarterColumn } from '../layout';
import type { RowDef } from '../rows';
import { burnMultiple } from './formulas';
import type { Cell, PeriodSheet } from './grid';

/**
 * How a period column is aggregated: over which months, from which monthly cells, and (for a sheet that masks another
 * to its ACT months) where the full sheet's period cells are.
 */
export interface PeriodScope {
  months: number[];
  /** Reference to the monthly figure that is aggregated (in this sheet, or in the sheet it masks). */
  monthRef: (key: string, t: number) => string;
  /** Reference to the full sheet's month figure, for what lies before the period (the ARR before it). */
  baseMonthRef: (key: string, t: number) => string;
  /** Set for a masked sheet: the full sheet's cell of this period, used where the whole period is covered. */
  basePeriodRef?: (key: string) => string;
}

/** Fills a period column by the rules of MODEL.md section 4. */
export function aggregatePeriod(sheet: PeriodSheet, p: Exclude<Period, { kind: 'month' }>, scope: PeriodScope): void {
  const column = periodColumn(p);
  const bounds = { first: Math.min(...scope.months), last: Math.max(...scope.months) };
  for (const row of sheet.rows) sheet.set(row.key, column, cellOf(sheet, row, p, scope, bounds));
}

/** The cell of one row in a period column, by the rules of MODEL.md section 4 (`aggregatePeriod`). */
export function periodCell(sheet: PeriodSheet, row: RowDef, p: Exclude<Period, { kind: 'month' }>, scope: PeriodScope) {
  return cellOf(sheet, row, p, scope, { first: Math.min(...scope.months), last: Math.max(...scope.months) });
}

function cellOf(
  sheet: PeriodSheet,
  row: RowDef,
  p: Exclude<Period, { kind: 'month' }>,
  scope: PeriodScope,
  { first, last }: { first: number; last: number },
): Cell {
  switch (row.rule) {
    case 'sum':
      return `=${periodSum(sheet, row.key, p)}`;
    case 'last':
      return `=${scope.monthRef(row.key, last)}`;
    case 'first':
      return `=${scope.monthRef(row.key, first)}`;
    case 'same': {
      const column = periodColumn(p);
      // churn_cvr of a period = sum of churn / sum of the months' starting customers (MODEL.md section 4).
      if (row.key === 'churn_cvr')
        return `=IFERROR(${sheet.ref('churn', column)}/${monthSum(sheet, 'cumulative_prev', p)},"")`;
      return row.same ? `=${row.same((key) => sheet.ref(key, column))}` : null;
    }
    case 'special':
      return specialPeriodCell(sheet, row.key, p, scope, first, last);
  }
  return null;
}

/** Quarter and CY columns of a full period sheet. */
export function aggregateAllPeriods(sheet: PeriodSheet): void {
  for (const p of ALL_PERIODS) {
    if (p.kind === 'month') continue;
    aggregatePeriod(sheet, p, {
      months: p.months,
      monthRef: (key, t) => sheet.at(key, t),
      baseMonthRef: (key, t) => sheet.at(key, t),
    });
  }
}

/**
 * A flow over a period: a quarter sums its three month cells, a year its four quarter cells. Months outside the
 * scope (not ACT, in a masked sheet) are blank, so the same formula sums the ACT months only.
 */
export function periodSum(sheet: PeriodSheet, key: string, p: Exclude<Period, { kind: 'month' }>): string {
  if (p.kind === 'quarter') return `SUM(${sheet.at(key, p.months[0] ?? 1)}:${sheet.at(key, p.months[2] ?? 1)})`;
  return `SUM(${[1, 2, 3, 4].map((q) => sheet.ref(key, quarterColumn(p.year, q))).join(',')})`;
}

/**
 * The sum of a row over the month cells of a period, whatever the row's own period rule: a quarter's three months,
 * a year's twelve (four ranges, as quarter columns sit between them). Months outside a masked sheet's scope are blank.
 */
export function monthSum(sheet: PeriodSheet, key: string, p: Exclude<Period, { kind: 'month' }>): string {
  const quarters = p.kind === 'quarter' ? [p.months] : [0, 1, 2, 3].map((q) => p.months.slice(3 * q, 3 * q + 3));
  return `SUM(${quarters.map((m) => `${sheet.at(key, m[0] ?? 1)}:${sheet.at(key, m[2] ?? 1)}`).join(',')})`;
}

function specialPeriodCell(
  sheet: PeriodSheet,
  key: string,
  p: Exclude<Period, { kind: 'month' }>,
  scope: PeriodScope,
  first: number,
  last: number,
): Cell {
  const column = periodColumn(p);
  if (key === 'burn_multiple') {
    return burnMultiple({
      arr: sheet.ref('arr', column),
      operatingIncome: sheet.ref('operating_income', column),
      first,
      arrAt: (t) => scope.baseMonthRef('arr', t),
    });
  }
  if (key === 'arr_progress') {
    if (scope.basePeriodRef)
      return p.months.every((t) => scope.months.includes(t)) ? `=${scope.basePeriodRef(key)}` : null;
    return sheet.yearTarget ? `=IFERROR(${sheet.ref('arr', column)}/${sheet.yearTarget(p.year)},"")` : null;
  }
  if (key !== 'revenue_rate' && key !== 'required_cash') return null;
  // Required cash is read by year (the annual P&L).
  if (key === 'required_cash' && p.kind === 'quarter') return null;
  if (scope.basePeriodRef) {
    // Part of a period has no growth rate or required cash of its own; the whole period takes the full sheet's.
    const whole = p.months.every((t) => scope.months.includes(t));
    return whole ? `=${scope.basePeriodRef(key)}` : null;
  }
  if (key === 'revenue_rate') {
    // Growth against the previous period of the same kind (MODEL.md section 4).
    const prev = previousPeriod(p);
    return prev ? `=IFERROR(${sheet.ref('revenue', column)}/${sheet.ref('revenue', periodColumn(prev))}-1,"")` : null;
  }
  // MODEL.md section 3: the deepest cumulative operating loss up to the period's end. Quarter and CY cells of the
  // running-sum row hold their last month, so they leave the minimum unchanged.
  return `=MAX(0,-MIN(${sheet.at('cumulative_operating_income', 1)}:${sheet.at('cumulative_operating_income', last)}))`;
}
