/**
 * A figure outside a grid (the dashboard's latest values, averages, fiscal-year achievement and MRR progress) as a
 * control that opens its explanation by click, Enter or Space.
 */

import { monthWithinYear, yearOf } from '@topline/engine/calendar';
import type { DashboardColumn, DashboardScalar } from '@topline/engine/shapes';
import { DASHBOARD_METRICS, dashboardKey } from '@topline/engine/shapes';
import type { KeyboardEvent } from 'react';
import { openExplain } from './ExplainContext';
import type { ExplainTarget } from './target';

/**
 * Props that make an element open the explanation of `target` (none when there is nothing to explain); `className` is
 * the element's class with the figure's.
 */
export function explainFigure(target: ExplainTarget | null, className = 'ws-big') {
  if (!target) return {};
  return {
    role: 'button',
    tabIndex: 0,
    className: `${className} explain-figure`.trim(),
    'data-explain': target.key,
    onClick: () => openExplain(target),
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      openExplain(target);
    },
  } as const;
}

/** The dashboard's latest value of a metric: its row in the actual view at the latest ACT month. */
export function dashboardTarget(name: string, latest: number | null, caseId: number | undefined): ExplainTarget | null {
  const key = DASHBOARD_METRICS[name];
  if (!key || latest === null || latest < 1) return null;
  return { caseId, year: yearOf(latest), period: String(monthWithinYear(latest)), key, view: 'actual' };
}

/**
 * A dashboard figure of a metric other than its latest value (an average, the fiscal year achieved): the cell of the
 * case's dashboard, which reads the months up to the latest ACT month.
 */
export function dashboardFigureTarget(
  name: string,
  column: DashboardColumn,
  latest: number | null,
  caseId: number | undefined,
): ExplainTarget | null {
  const row = DASHBOARD_METRICS[name];
  if (!row || latest === null || latest < 1) return null;
  return { caseId, year: yearOf(latest), period: 'cy', key: dashboardKey(column, row) };
}

/** A figure of the dashboard as a whole (the MRR progress gauge: as is, goal, percent) in plan year `year`. */
export function dashboardScalarTarget(
  scalar: DashboardScalar,
  year: number,
  caseId: number | undefined,
): ExplainTarget {
  return { caseId, year: Math.min(6, Math.max(1, year)), period: 'cy', key: dashboardKey(scalar) };
}
