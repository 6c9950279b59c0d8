/**
 * The monthly grid's cells as the spreadsheet keys see them (web/src/grid/sheet): which cells take values (the
 * view's inputs in a month column the user may edit, in edit mode or not), how a text is read (the one reader and
 * the one sign rule, `readCellInput`) and how values are entered (one edit through the screen's actions).
 */
import type { GridColumn } from '@topline/engine';
import { cellRefusalMessage, readCellInput } from '../../format/input';
import type { SheetCells } from '../../grid/sheet/sheetCells';
import type { GridActions, GridRow } from './gridCells';

type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface MonthlySheetState {
  columns: GridColumn[];
  /** The keys the view lets the user enter. */
  enterable: ReadonlySet<string>;
  /** The user may edit this view's months. */
  allowedEdit: boolean;
  /** The columns in edit mode now, opened by the button or by typing (read by the cells' `editable`). */
  editing: Set<number>;
  actions: GridActions;
  messages: {
    show: (rowId: string, colId: string, message: string) => void;
    clear: (rowId: string, colId: string) => void;
  };
  notify: (message: string) => void;
  t: Translate;
}

const indexOf = (state: MonthlySheetState, colId: string) => state.columns.findIndex((c) => c.column === colId);

export function monthlySheetCells(state: () => MonthlySheetState): SheetCells<GridRow> {
  const keyOf = (row: GridRow) => (row.kind === 'metric' ? row.metric?.key : undefined);
  return {
    canEnter(row, colId) {
      const s = state();
      const key = keyOf(row);
      const column = s.columns[indexOf(s, colId)];
      return s.allowedEdit && key !== undefined && s.enterable.has(key) && column?.monthType === 'month';
    },
    enteredAt(row, colId) {
      const s = state();
      const key = keyOf(row);
      return key === undefined ? null : s.actions.enteredValue(indexOf(s, colId), key);
    },
    read(row, _colId, text) {
      const key = keyOf(row) ?? '';
      const reading = readCellInput(text.trim(), key);
      return reading.ok ? reading : { ok: false, message: cellRefusalMessage(reading, key, state().t) };
    },
    enter(values) {
      const s = state();
      const entered = values.flatMap(({ row, colId, value }) => {
        const key = keyOf(row);
        const index = indexOf(s, colId);
        if (key === undefined || index < 0) return [];
        s.editing.add(index);
        return [{ index, key, value }];
      });
      s.actions.enter(entered);
    },
    open(_row, colId) {
      const s = state();
      const index = indexOf(s, colId);
      if (index < 0 || s.editing.has(index)) return;
      s.editing.add(index);
      s.actions.startEdit(index);
    },
    showMessage: (rowId, colId, message) => state().messages.show(rowId, colId, message),
    clearMessage: (rowId, colId) => state().messages.clear(rowId, colId),
    notify: (message) => state().notify(message),
  };
}
