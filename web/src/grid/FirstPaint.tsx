/**
 * A grid's rows as a plain table, painted for a page's first grid until AG Grid has loaded, been set up and drawn its
 * rows (`DataGrid.tsx`): the same cells' text (the columns' own value getters and formatters), classes and sizes, so
 * that a screen shows its numbers without waiting for the grid's script, and the grid then takes the same room. It takes no input and is hidden from assistive
 * technology: the grid that replaces it, a moment later, is what a keyboard or a screen reader uses.
 *
 * A cell renderer paints here only through its `firstPaint` twin (a component without controls or test ids);
 * without one, its cell shows the formatted value. Class rules (a selected range) are the grid's alone.
 */
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import type { ComponentType, ReactNode } from 'react';
import { type DataGridProps, fittedContent, fittedHeight, HEADER_HEIGHT, rowHeightOf } from './gridLayout';
import './firstPaint.css';

/** A cell renderer with the twin that paints its cell in the first paint. */
export type WithFirstPaint<P> = ComponentType<P> & { firstPaint?: ComponentType<P> };

/** The AG Grid default width of a column that names neither a width nor a flex. */
const DEFAULT_WIDTH = 200;

/** A column's track in the table's CSS grid: its width, or its share of the room left (flex), as the grid sizes it. */
function trackOf<Row>(column: ColDef<Row>): string {
  if (column.flex) return `minmax(${column.minWidth ?? 0}px, ${column.flex}fr)`;
  const width = `${column.width ?? DEFAULT_WIDTH}px`;
  // The grid caps a pinned label column at a third of its width (`AgDataGrid.tsx`).
  return column.pinned === 'left' ? `min(${width}, 33.333%)` : width;
}

const classesOf = (value: unknown, params: unknown): string => {
  const classes = typeof value === 'function' ? (value as (p: unknown) => unknown)(params) : value;
  if (Array.isArray(classes)) return classes.join(' ');
  return typeof classes === 'string' ? classes : '';
};

/** The cell of `row` under `column`: its class and content, as the grid would give them. */
function cellOf<Row>(row: Row, rowIndex: number, rowId: string, column: ColDef<Row>, context: unknown) {
  const colId = column.colId ?? column.field ?? '';
  const base = {
    data: row,
    colDef: column,
    context,
    node: { id: rowId, data: row, rowIndex },
    column: { getColId: () => colId },
  };
  const getter = column.valueGetter;
  const value =
    typeof getter === 'function'
      ? getter(base as never)
      : column.field
        ? (row as Record<string, unknown>)[column.field]
        : undefined;
  const withValue = { ...base, value };
  const formatter = column.valueFormatter;
  const formatted =
    typeof formatter === 'function' ? formatter(withValue as never) : value == null ? '' : String(value);
  const params = { ...withValue, valueFormatted: formatted } as unknown as ICellRendererParams<Row>;
  const selected = column.cellRendererSelector?.(params as never);
  const renderer = (selected?.component ?? column.cellRenderer) as WithFirstPaint<ICellRendererParams<Row>> | undefined;
  const Twin = typeof renderer === 'function' ? renderer.firstPaint : undefined;
  const content: ReactNode = Twin ? <Twin {...params} {...(selected?.params ?? {})} /> : formatted;
  return { className: classesOf(column.cellClass, withValue), content };
}

export function FirstPaint<Row>({
  rows,
  columns,
  getRowId,
  options,
  height = 'auto',
  testId,
  overlaid,
}: DataGridProps<Row> & { overlaid: boolean }) {
  const getRowHeight = options?.getRowHeight;
  const style: React.CSSProperties = {};
  if (height === 'fit') style.height = fittedHeight(fittedContent(rows, getRowHeight), window.innerHeight);
  else if (typeof height === 'number') style.height = height;
  const tracks = columns.map(trackOf).join(' ');
  const right = (column: ColDef<Row>) => (column.type === 'rightAligned' ? ' gfp-right' : '');
  const pinned = (column: ColDef<Row>) => (column.pinned === 'left' ? ' gfp-pinned' : '');
  return (
    <div
      className={`grid-first-paint${height === 'fit' ? ' gfp-fit' : ''}${overlaid ? ' gfp-overlaid' : ''}`}
      style={style}
      data-first-paint={testId}
      aria-hidden="true"
      inert
    >
      <div className="gfp-table" style={{ gridTemplateColumns: tracks }}>
        <div className="gfp-row gfp-header">
          {columns.map((column, c) => (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns' order is their identity here
              key={c}
              className={`gfp-head${right(column)}${pinned(column)} ${classesOf(column.headerClass, {})}`}
              style={{ height: HEADER_HEIGHT }}
            >
              {column.headerName}
            </div>
          ))}
        </div>
        {rows.map((row, r) => {
          const rowId = getRowId ? getRowId(row) : String(r);
          const rowClass = classesOf(options?.getRowClass, { data: row });
          const rowHeight = rowHeightOf(row, getRowHeight);
          return (
            <div key={rowId} className={`gfp-row ${rowClass}`} data-row-id={rowId}>
              {columns.map((column, c) => {
                const cell = cellOf(row, r, rowId, column, options?.context);
                return (
                  <div
                    // biome-ignore lint/suspicious/noArrayIndexKey: the columns' order is their identity here
                    key={c}
                    className={`gfp-cell${right(column)}${pinned(column)} ${cell.className}`}
                    style={{ height: rowHeight }}
                  >
                    {cell.content}
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}
