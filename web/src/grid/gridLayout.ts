/**
 * What the grid facade (`DataGrid.tsx`) and the grid itself (`AgDataGrid.tsx`) share without loading AG Grid: the
 * props, and the sizes a first paint lays its rows out by so that the grid, once loaded, takes the same room.
 */
import type { ColDef, GridApi, GridOptions, RowHeightParams } from 'ag-grid-community';

export interface DataGridProps<Row> {
  rows: Row[];
  columns: ColDef<Row>[];
  getRowId?: (row: Row) => string;
  options?: GridOptions<Row>;
  /**
   * `auto`: as tall as its rows, in the page's scroll; a number: that many pixels; `fit`: as tall as its rows up to
   * the window's height less `FIT_MARGIN`, then the grid scrolls in both directions under its own header (one scroll
   * container: the header row stays in view), every row rendered.
   */
  height?: number | 'auto' | 'fit';
  testId?: string;
  onReady?: (api: GridApi<Row>) => void;
}

/** A row's height in the grid's theme (`AgDataGrid.tsx`: 13 px text, spacing 5), and its header's (with border). */
export const ROW_HEIGHT = 32;
export const HEADER_HEIGHT = 37;

/** Room a fitted grid leaves in the window: the shell's header and the screen's toolbar above it. */
export const FIT_MARGIN = 160;
export const FIT_MIN = 320;
/** A fitted grid's height beyond its rows: the header (two lines at most), borders and a horizontal scroll bar. */
export const FIT_CHROME = 48 + 20;

/** The height of a row as the grid gives it: the options' own where they set one, else the theme's. */
export function rowHeightOf<Row>(row: Row, getRowHeight: GridOptions<Row>['getRowHeight']): number {
  return getRowHeight?.({ data: row } as RowHeightParams<Row>) ?? ROW_HEIGHT;
}

/** A fitted grid's content height for `rows`, before the grid has measured them (`FIT_CHROME` included). */
export function fittedContent<Row>(rows: readonly Row[], getRowHeight: GridOptions<Row>['getRowHeight']): number {
  let total = 0;
  for (const row of rows) total += rowHeightOf(row, getRowHeight);
  return total + FIT_CHROME;
}

/** A fitted grid's height: its content, at most the window's height less the margin, never under the minimum. */
export const fittedHeight = (content: number, room: number) => Math.min(content, Math.max(FIT_MIN, room - FIT_MARGIN));
