/**
 * The grids' way into explain: a click on a number, or Enter or Space on it, opens its explanation; where a click or
 * Enter edits the cell, Alt with it explains instead.
 */

import type { ExplainView } from '@topline/engine';
import { monthWithinYear, yearOf } from '@topline/engine/src/layout';
import type { CellClickedEvent, CellKeyDownEvent, FullWidthCellKeyDownEvent } from 'ag-grid-community';
import { type ExplainTarget, openExplain } from './ExplainContext';

type CellEvent<Row> = CellClickedEvent<Row> | CellKeyDownEvent<Row>;

/**
 * `onCellClicked` and `onCellKeyDown` for a grid's options; `target` names the figure of a cell, or null. A cell being
 * edited explains with Alt (Option) held: Alt+click or Alt+Enter, and the edit that started is cancelled.
 */
export function explainOnCells<Row>(target: (event: CellEvent<Row>) => ExplainTarget | null) {
  const open = (event: CellEvent<Row>, alt: boolean) => {
    const editable = event.node ? event.column.isCellEditable(event.node) : false;
    if (editable && !alt) return;
    const figure = target(event);
    if (!figure) return;
    openExplain(figure);
    if (editable) setTimeout(() => event.api.stopEditing(true));
  };
  return {
    onCellClicked: (event: CellClickedEvent<Row>) => open(event, (event.event as MouseEvent | null)?.altKey === true),
    onCellKeyDown: (event: CellKeyDownEvent<Row> | FullWidthCellKeyDownEvent<Row>) => {
      if (!('column' in event)) return;
      const key = event.event as KeyboardEvent | null;
      if (key?.key === 'Enter' || key?.key === ' ') open(event, key.altKey);
    },
  };
}

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
