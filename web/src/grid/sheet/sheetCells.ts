/**
 * What a screen tells the sheet (`useSheetKeys.tsx`) about its cells, and the sheet's small helpers: the arrow keys,
 * a cell's key and the cell a DOM event happened in.
 */

/** A cell's reading of a typed or pasted text: the value to enter, or the message why the cell refuses it. */
export type SheetReading = { ok: true; value: number | null } | { ok: false; message: string };

/** What the screen tells the sheet about its cells, and how it enters values. */
export interface SheetCells<Row> {
  /** The cell takes a value here (its column may still have to open for editing). */
  canEnter(row: Row, colId: string): boolean;
  /** The value entered at the cell now (null: none entered, the cell shows its default or forecast). */
  enteredAt(row: Row, colId: string): number | null;
  read(row: Row, colId: string, text: string): SheetReading;
  /** Enters values, as one edit; opens the columns for editing where they are not. */
  enter(values: { row: Row; colId: string; value: number | null }[]): void;
  /** Opens a cell's column for editing before an editor opens on it (typing or F2 on it). */
  open?(row: Row, colId: string): void;
  showMessage(rowId: string, colId: string, message: string): void;
  clearMessage(rowId: string, colId: string): void;
  /** A message about the whole action (a refused paste). */
  notify(message: string): void;
}

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/** A cell's key: its row's id and its column's id. */
export const cellKey = (rowId: string, colId: string) => `${rowId}\u0000${colId}`;

/** The row id and column id of the cell a DOM event happened in. */
export function cellIdsOf(target: EventTarget | null): { rowId: string; colId: string } | null {
  const el = target instanceof Element ? target.closest('.ag-cell') : null;
  const rowId = el?.closest('.ag-row')?.getAttribute('row-id');
  const colId = el?.getAttribute('col-id');
  return rowId && colId ? { rowId, colId } : null;
}
