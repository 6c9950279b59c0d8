/** The figure a monthly-grid cell explains (the gesture that opens it is `useCellExplain`'s, in CellExplain.tsx). */

import type { ExplainView } from '@topline/engine';
import { monthWithinYear, yearOf } from '@topline/engine/calendar';
import type { ExplainTarget } from './target';

/** The view explain reads a monthly-grid view in; `variance` says whether the variance view shows rates or values. */
function explainedView(view: string, variance: 'rate' | 'value'): ExplainView | null {
  if (view === 'estimate') return 'estimate';
  if (view === 'actual' || view === 'revise') return 'actual';
  if (view === 'progress') return 'progress';
  if (view === 'variance') return variance === 'rate' ? 'difference_rate' : 'difference_value';
  return null;
}

/**
 * The figure of a monthly-grid cell: a metric of a period column in the estimate or actual view, or its progress or
 * difference over the ACT months (a blank of those, a period without ACT months, has nothing to explain).
 */
export function monthlyTarget(
  key: string | undefined,
  field: string | undefined,
  columns: readonly { monthType: 'month' | 'quarter' | 'cy'; column: string; t: number | null }[],
  view: string,
  caseId: number | undefined,
  variance: 'rate' | 'value' = 'rate',
  value?: unknown,
): ExplainTarget | null {
  // The period columns' fields are c0 .. c16, in the columns' order.
  const column = /^c\d+$/.test(field ?? '') ? columns[Number(field?.slice(1))] : undefined;
  if (!key || !column) return null;
  const explained = explainedView(view, variance);
  const t = columns.find((c) => c.t !== null)?.t;
  if (!explained || !t) return null;
  const compared = explained !== 'estimate' && explained !== 'actual';
  if (compared && (value === null || value === undefined || value === '')) return null;
  const year = yearOf(t);
  const period =
    column.monthType === 'month'
      ? String(monthWithinYear(column.t ?? 1))
      : column.monthType === 'quarter'
        ? column.column.toLowerCase()
        : 'cy';
  return { caseId, year, period, key, view: explained };
}
