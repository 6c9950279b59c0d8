/**
 * The grids' way into explain, on a deliberate gesture only: the info control (a ? at its corner) at the selected cell, or `?` on it
 * (Alt+click or Alt+Enter on a cell being edited). A click or a key that only selects a cell opens nothing; once open,
 * the panel follows the selected cell, and loads its figure again when the grid's figures change (an edit).
 */

import type {
  CellClickedEvent,
  CellFocusedEvent,
  CellKeyDownEvent,
  FullWidthCellKeyDownEvent,
  GridApi,
} from 'ag-grid-community';
import { createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { closeExplain, explainOpen, followExplain, openExplain } from './ExplainContext';
import type { ExplainTarget } from './target';

/** What a target function is given: the cell's row data, column and value. */
export interface CellOf<Row> {
  data: Row | undefined;
  colDef: { field?: string | undefined };
  value: unknown;
}

type Target<Row> = (cell: CellOf<Row>) => ExplainTarget | null;

/** The snapshot a screen reads its comparison views against (the monthly P&L's budget): its cells explain against it. */
export const ExplainSnapshot = createContext<number | undefined>(undefined);

interface Spot {
  left: number;
  top: number;
}

/** The selected cell of a grid as a `CellOf`, or null. */
function focusedCell<Row>(api: GridApi<Row>): { cell: CellOf<Row>; rowIndex: number; colId: string } | null {
  const focused = api.getFocusedCell();
  if (!focused || focused.rowPinned) return null;
  const node = api.getDisplayedRowAtIndex(focused.rowIndex);
  const column = focused.column;
  if (!node) return null;
  const cell = {
    data: node.data,
    colDef: column.getColDef(),
    value: api.getCellValue({ rowNode: node, colKey: column }),
  };
  return { cell, rowIndex: focused.rowIndex, colId: column.getColId() };
}

/**
 * Grid options and the info control for a grid whose cells explain `target`. `Info` goes inside the grid's frame
 * (put beside the grid in an element given `frame`), at the selected cell's corner; `refresh()` loads an open explanation again.
 */
export function useCellExplain<Row>(target: Target<Row>, enabled = true) {
  const { t } = useTranslation();
  const targetOf = useRef(target);
  const snapshotId = useContext(ExplainSnapshot);
  targetOf.current =
    snapshotId === undefined ? target : (cell) => ((figure) => figure && { ...figure, snapshotId })(target(cell));
  const apiRef = useRef<GridApi<Row> | null>(null);
  const [spot, setSpot] = useState<Spot | null>(null);

  const frame = useRef<HTMLDivElement>(null);

  /** Where the info control of the selected cell goes, relative to the grid's frame (null: no figure there). */
  const place = useCallback((api: GridApi<Row>) => {
    const focused = focusedCell(api);
    const figure = focused ? targetOf.current(focused.cell) : null;
    const own = frame.current;
    if (!focused || !figure || !own) return setSpot(null);
    const element = own.querySelector<HTMLElement>(
      `.ag-row[row-index="${focused.rowIndex}"] .ag-cell[col-id="${CSS.escape(focused.colId)}"]`,
    );
    if (!element) return setSpot(null);
    const box = element.getBoundingClientRect();
    const outer = own.getBoundingClientRect();
    // The control sits in the cell's top right corner.
    setSpot({ left: box.right - outer.left, top: box.top - outer.top });
  }, []);

  const explainFocused = useCallback((open: (figure: ExplainTarget) => void) => {
    const api = apiRef.current;
    const focused = api ? focusedCell(api) : null;
    const figure = focused ? targetOf.current(focused.cell) : null;
    if (figure) open(figure);
  }, []);

  const options = useMemo(
    () =>
      enabled
        ? {
            onCellFocused: (e: CellFocusedEvent<Row>) => {
              apiRef.current = e.api;
              place(e.api);
              // An open explanation follows the selected cell.
              if (explainOpen()) explainFocused(followExplain);
            },
            onBodyScroll: (e: { api: GridApi<Row> }) => place(e.api),
            // A cell being edited explains with Alt (Option) held, and its edit is cancelled.
            onCellClicked: (e: CellClickedEvent<Row>) => {
              if ((e.event as MouseEvent | null)?.altKey) altExplain(e, targetOf.current);
            },
            onCellKeyDown: (e: CellKeyDownEvent<Row> | FullWidthCellKeyDownEvent<Row>) => {
              if (!('column' in e)) return;
              apiRef.current = e.api;
              const key = e.event as KeyboardEvent | null;
              if (key?.key === 'Enter' && key.altKey) return altExplain(e, targetOf.current);
              if (e.api.getEditingCells().length > 0) return;
              if (key?.key === '?') {
                key.preventDefault();
                explainFocused(openExplain);
              } else if (key?.key === 'Escape' && explainOpen()) closeExplain();
            },
          }
        : {},
    [enabled, place, explainFocused],
  );

  /** Loads the open explanation of the selected cell again (its figures changed). */
  const refresh = useCallback(() => {
    if (explainOpen()) explainFocused(followExplain);
  }, [explainFocused]);

  const info =
    enabled && spot ? (
      <button
        type="button"
        className="cell-explain"
        data-test="cell-explain"
        tabIndex={-1}
        title={t('explain.cellControl')}
        aria-label={t('explain.cellControl')}
        style={{ left: spot.left, top: spot.top }}
        // The cell keeps the focus (and the panel gives it back to the cell when it closes).
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => explainFocused(openExplain)}
      >
        ?
      </button>
    ) : null;

  return { options, info, refresh, frame };
}

/** Explains a cell being edited (Alt held): opens its figure and cancels the edit that started. */
function altExplain<Row>(e: CellClickedEvent<Row> | CellKeyDownEvent<Row>, target: Target<Row>) {
  const figure = target({ data: e.data, colDef: e.colDef, value: e.value });
  if (!figure) return;
  openExplain(figure);
  if (e.node && e.column.isCellEditable(e.node)) setTimeout(() => e.api.stopEditing(true));
}
