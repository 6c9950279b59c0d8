/**
 * The Dashboard sheet of a case: for every metric, its latest actual value, its 3/6/12-month averages and how much of
 * the fiscal year's plan is achieved; then the runway, the cash-out month and the MRR progress gauge.
 *
 * Averages cover the N months that end at the latest ACT month. Flows and stocks are averaged by month; rates are
 * recomputed from those averages, never averaged themselves (as MODEL.md section 4 asks of periods).
 */

import { yearOf } from '../calendar';
import { a1, monthColumn, yearColumn } from '../layout';
import type { RowDef } from '../rows';
import { burnMultiple, safeRatio } from './formulas';
import { type Cell, emptyGrid, type Grid, type PeriodSheet, refOrBlank, setCell } from './grid';

export const DASHBOARD_COLUMNS = [
  'latest_value',
  'ave_three_monthes',
  'ave_six_monthes',
  'ave_twelve_monthes',
  'fiscal_year_achieved',
] as const;
export type DashboardColumn = (typeof DASHBOARD_COLUMNS)[number];
const WINDOWS: Partial<Record<DashboardColumn, number>> = {
  ave_three_monthes: 3,
  ave_six_monthes: 6,
  ave_twelve_monthes: 12,
};

export const DASHBOARD_SCALARS = [
  'latest_actual_month',
  'runway_from_month',
  'cash_out_month',
  'forecast_monthes',
  'mrr_goal',
  'mrr_as_is',
  'mrr_progress_percent',
] as const;
export type DashboardScalar = (typeof DASHBOARD_SCALARS)[number];

export interface DashboardLayout {
  metricRow: Record<string, number>;
  scalarRow: Record<DashboardScalar, number>;
  column: Record<DashboardColumn, number>;
}

export function compileDashboard(input: {
  rows: RowDef[];
  /** The actual view (or the estimate where the case has no actuals). */
  view: PeriodSheet;
  estimate: PeriodSheet;
  actualToDate: PeriodSheet | undefined;
  latest: number | undefined;
  asOfMonth: number;
}): { grid: Grid; layout: DashboardLayout } {
  const { rows, view, estimate, actualToDate, latest } = input;
  const grid = emptyGrid(rows.length + DASHBOARD_SCALARS.length + 2, DASHBOARD_COLUMNS.length + 1);
  const layout: DashboardLayout = {
    metricRow: {},
    scalarRow: {} as Record<DashboardScalar, number>,
    column: {} as Record<DashboardColumn, number>,
  };
  setCell(grid, 0, 0, 'Dashboard');
  DASHBOARD_COLUMNS.forEach((col, i) => {
    layout.column[col] = i + 1;
    setCell(grid, 0, i + 1, col);
  });
  rows.forEach((r, i) => {
    layout.metricRow[r.key] = i + 1;
    setCell(grid, i + 1, 0, r.label);
  });
  const here = (key: string, column: number) => a1(layout.metricRow[key] ?? 0, column);

  if (latest !== undefined) {
    const y = yearOf(latest);
    for (const row of rows) {
      const r = layout.metricRow[row.key] ?? 0;
      setCell(grid, r, layout.column.latest_value, refOrBlank(view, row.key, latest));
      if (actualToDate) {
        const ytd = actualToDate.ref(row.key, yearColumn(y), true);
        const plan = estimate.ref(row.key, yearColumn(y), true);
        setCell(grid, r, layout.column.fiscal_year_achieved, safeRatio(ytd, plan));
      }
    }
    for (const [name, n] of Object.entries(WINDOWS)) {
      const column = layout.column[name as DashboardColumn];
      const months = Array.from({ length: n ?? 0 }, (_, i) => latest - i).filter((t) => t >= 1);
      for (const row of rows) {
        setCell(
          grid,
          layout.metricRow[row.key] ?? 0,
          column,
          averageCell(row, months, view, (key) => here(key, column)),
        );
      }
    }
  }

  const base = rows.length + 2;
  setCell(grid, base - 1, 0, 'Runway and progress');
  DASHBOARD_SCALARS.forEach((key, i) => {
    layout.scalarRow[key] = base + i;
    setCell(grid, base + i, 0, key);
  });
  const s = (key: DashboardScalar) => a1(layout.scalarRow[key], 1);
  const set = (key: DashboardScalar, value: Cell) => setCell(grid, layout.scalarRow[key], 1, value);
  set('latest_actual_month', latest ?? null);
  // Runway counts from the latest actual month, or from today's month in a plan without actuals (MODEL.md section 3).
  set('runway_from_month', `=IF(${s('latest_actual_month')}="",as_of_month,${s('latest_actual_month')})`);
  set('cash_out_month', `=${view.ref('cash_out_month', yearColumn(6), true)}`);
  set('forecast_monthes', `=IF(${s('cash_out_month')}=0,"",MAX(0,${s('cash_out_month')}-${s('runway_from_month')}))`);
  const goalYear = Math.min(6, Math.max(1, yearOf(latest ?? Math.min(72, Math.max(1, input.asOfMonth)))));
  set('mrr_goal', `=${estimate.ref('mrr', monthColumn(12 * goalYear), true)}`);
  set('mrr_as_is', latest !== undefined ? `=${view.at('mrr', latest, true)}` : null);
  set('mrr_progress_percent', safeRatio(s('mrr_as_is'), s('mrr_goal'), '*100'));
  return { grid, layout };
}

function averageCell(row: RowDef, months: number[], view: PeriodSheet, here: (key: string) => string): Cell {
  const n = months.length;
  const first = Math.min(...months);
  const last = Math.max(...months);
  switch (row.rule) {
    case 'sum':
    case 'last':
    case 'first':
      return `=SUM(${months.map((t) => view.at(row.key, t, true)).join(',')})/${n}`;
    case 'same':
      return row.same ? `=${row.same(here)}` : null;
    default:
      if (row.key !== 'burn_multiple') return null;
      // The window's operating income is its monthly average times its months.
      return burnMultiple({
        arr: view.at('arr', last, true),
        operatingIncome: here('operating_income'),
        first,
        arrAt: (t) => view.at('arr', t, true),
        months: n,
      });
  }
}
