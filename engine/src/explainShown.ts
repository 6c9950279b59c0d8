/**
 * A figure as the screens show it beside the workbook's value, for explain: a count flow footed, money within half a
 * cent of zero as 0, a rate over a base that is zero up to residue as a dash (`read/residue.ts`). Read from the read
 * models, so explain says what the screen and the CSV show.
 */
import type { DashboardColumn, DashboardScalar } from './compile/dashboard';
import type { PeriodOfYear } from './explainKeys';
import type { ExplainView } from './explainTypes';
import type { ViewName } from './read/cells';
import { DASHBOARD_METRICS } from './read/dashboard';
import { COUNT_FLOW_KEYS } from './read/footing';
import { columnName, type GridColumn } from './read/monthly';
import { figureKind, isResidue, rateBase } from './read/residue';
import type { PlanWorkbook, Value } from './workbook';

/** What explain adds to a figure's value when the screens show it otherwise. */
export interface ShownFigure {
  shown?: number;
  dash?: 'zero_base';
}

/** The grid views a row's figure is shown in, by the view it is explained in. */
const GRID_VIEWS: Partial<Record<ExplainView, ViewName>> = {
  estimate: 'estimate',
  actual: 'actual',
  progress: 'progress',
  difference_value: 'difference_value',
  difference_rate: 'difference_rate',
};

/** The grids explain has read of each workbook, by case, year and view, while the workbook stays at one revision. */
const grids = new WeakMap<PlanWorkbook, { revision: number; byView: Map<string, readonly GridColumn[]> }>();

/**
 * A year's grid in one view, as `monthlyGrid` answers it, read once per revision of the workbook: explaining a year's
 * figures one by one (a panel that follows the selected cell, an export of explanations) reads the same grid each time.
 */
function gridOf(wb: PlanWorkbook, caseIndex: number, year: number, view: ViewName): readonly GridColumn[] {
  let read = grids.get(wb);
  if (read?.revision !== wb.revision) {
    read = { revision: wb.revision, byView: new Map() };
    grids.set(wb, read);
  }
  const key = `${caseIndex}/${year}/${view}`;
  let grid = read.byView.get(key);
  if (!grid) {
    grid = wb.monthlyGrid(caseIndex, year, view);
    read.byView.set(key, grid);
  }
  return grid;
}

/**
 * A row's figure as the monthly grid shows it (`monthlyGrid`), when that differs from the workbook's value: a count
 * flow, which it foots; money within half a cent of zero, shown as 0; a rate over a base that is zero up to residue,
 * shown as a dash (`read/residue.ts`). Empty otherwise.
 */
export function shownFigure(
  wb: PlanWorkbook,
  caseIndex: number,
  period: PeriodOfYear,
  view: ExplainView,
  row: string,
  value: Value,
): ShownFigure {
  const gridView = GRID_VIEWS[view];
  const blank = value === null || value === '';
  if (!gridView || (typeof value !== 'number' && !blank)) return {};
  const ratio = gridView === 'progress' || gridView === 'difference_rate';
  const mayDiffer = blank
    ? // A blank rate may be a dash where its base is exactly 0: a rate row, or a comparison (the grid says which).
      ratio || rateBase(wb.plan.template, row) !== undefined
    : ratio ||
      rateBase(wb.plan.template, row) !== undefined ||
      COUNT_FLOW_KEYS.includes(row) ||
      (figureKind(row) === 'money' && typeof value === 'number' && value !== 0 && isResidue(value, 'money'));
  if (!mayDiffer) return {};
  const name = columnName(period);
  const column = gridOf(wb, caseIndex, period.year, gridView).find((c) => c.column === name);
  if (column?.dashes?.includes(row)) return { dash: 'zero_base' };
  const shown = column?.values[row];
  return typeof shown === 'number' && shown !== value ? { shown } : {};
}

/** The gauge's figures, by the dashboard scalar that holds them. */
const GAUGE: Partial<Record<DashboardScalar, 'progress_percent' | 'as_is' | 'goal'>> = {
  mrr_progress_percent: 'progress_percent',
  mrr_as_is: 'as_is',
  mrr_goal: 'goal',
};

/** A dashboard figure as the dashboard shows it, when that is not the workbook's value. */
export function shownDashboardFigure(
  wb: PlanWorkbook,
  caseIndex: number,
  target:
    | { kind: 'dashboard'; column: DashboardColumn; row: string }
    | { kind: 'dashboardScalar'; scalar: DashboardScalar },
  value: Value,
): ShownFigure {
  // A blank figure (null, or the "" of a guarded ratio) may be a dash too: a rate over a base of exactly 0 (the
  // churn rate of a month no customer starts).
  if (typeof value !== 'number' && value !== null && value !== '') return {};
  if (target.kind === 'dashboardScalar') {
    const field = GAUGE[target.scalar];
    if (!field) return {};
    const answer = wb.dashboard(caseIndex);
    if (answer.dashes?.includes(`mrr_progress.${field}`)) return { dash: 'zero_base' };
    const shown = answer.mrr_progress[field];
    return typeof shown === 'number' && shown !== value ? { shown } : {};
  }
  const { column, row } = target;
  const name = Object.keys(DASHBOARD_METRICS).find((metric) => DASHBOARD_METRICS[metric] === row);
  const mayDiffer =
    column === 'fiscal_year_achieved' ||
    rateBase(wb.plan.template, row) !== undefined ||
    (figureKind(row) === 'money' && typeof value === 'number' && value !== 0 && isResidue(value, 'money'));
  if (name === undefined || !mayDiffer) return {};
  const answer = wb.dashboard(caseIndex);
  if (answer.dashes?.includes(`metrics.${name}.${column}`)) return { dash: 'zero_base' };
  const shown = answer.metrics[name]?.[column];
  return typeof shown === 'number' && shown !== value ? { shown } : {};
}
