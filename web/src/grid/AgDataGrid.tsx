/**
 * AG Grid with only the modules the working screens use: client-side rows (and their transactions), text editing,
 * cell and row styles, pinned columns, the cell and column API (the spreadsheet keys of `sheet/`) and cell-change
 * flashing off. A chunk of its own, loaded by `loadGrid.ts`.
 */
import {
  CellApiModule,
  CellStyleModule,
  ClientSideRowModelApiModule,
  ClientSideRowModelModule,
  type ColDef,
  ColumnApiModule,
  type GridApi,
  ModuleRegistry,
  RenderApiModule,
  RowApiModule,
  RowStyleModule,
  ScrollApiModule,
  TextEditorModule,
  themeQuartz,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type DataGridProps, FIT_CHROME, fittedContent, fittedHeight } from './gridLayout';

ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  ClientSideRowModelApiModule,
  TextEditorModule,
  CellStyleModule,
  RowStyleModule,
  RenderApiModule,
  RowApiModule,
  CellApiModule,
  ColumnApiModule,
  ScrollApiModule,
]);

const theme = themeQuartz.withParams({
  fontSize: 13,
  headerFontSize: 12,
  spacing: 5,
  accentColor: 'var(--brand, #5b3fd1)',
  headerBackgroundColor: '#f3f1fa',
});

/** The grid itself; `DataGrid` paints a page's first grid as a plain table until this one has drawn its rows. */
export default function AgDataGrid<Row>({
  rows,
  columns,
  getRowId,
  options,
  height = 'auto',
  testId,
  onReady,
  onShown,
}: DataGridProps<Row> & { onShown?: () => void }) {
  const wrapper = useRef<HTMLDivElement>(null);
  const width = useWidth(wrapper);
  const fitted = useFittedHeight(height === 'fit', () => fittedContent(rows, options?.getRowHeight));
  // A pinned label column takes at most a third of the grid's width (a phone's 375 px leaves the figures the rest).
  // The same columns where none is capped: new definitions make the grid build its columns again.
  const sized = useMemo(() => {
    const capped = (c: ColDef<Row>) => width !== null && c.pinned === 'left' && !!c.width && c.width > width / 3;
    if (width === null || !columns.some(capped)) return columns;
    return columns.map((c) => (capped(c) ? { ...c, width: Math.floor(width / 3) } : c));
  }, [columns, width]);
  const defaultColDef = useMemo<ColDef<Row>>(() => ({ sortable: false, resizable: true, suppressMovable: true }), []);
  const auto = height === 'auto';
  // Stable callbacks: a new function on every render would make the grid redraw its rows.
  const rowIdOf = useRef(getRowId);
  rowIdOf.current = getRowId;
  const stableRowId = useCallback((p: { data: Row }) => (rowIdOf.current ? rowIdOf.current(p.data) : ''), []);
  const readyRef = useRef(onReady);
  readyRef.current = onReady;
  const onGridReady = useCallback(
    (event: { api: GridApi<Row> }) => {
      fitted.measure(event.api);
      readyRef.current?.(event.api);
    },
    [fitted.measure],
  );
  const shownRef = useRef(onShown);
  shownRef.current = onShown;
  const onModelUpdated = useCallback(
    (event: { api: GridApi<Row> }) => {
      fitted.measure(event.api);
      // No row to draw: the grid has drawn what it shows (`firstDataRendered` waits for a row).
      if (event.api.getDisplayedRowCount() === 0) shownRef.current?.();
    },
    [fitted.measure],
  );
  const style = auto ? undefined : { height: height === 'fit' ? fitted.height : height };
  return (
    <div className="data-grid" data-test={testId} style={style} ref={wrapper}>
      <AgGridReact<Row>
        theme={theme}
        rowData={rows}
        columnDefs={sized}
        defaultColDef={defaultColDef}
        domLayout={auto ? 'autoHeight' : 'normal'}
        {...(height === 'fit' ? { suppressRowVirtualisation: true } : {})}
        onModelUpdated={onModelUpdated}
        suppressCellFocus={false}
        singleClickEdit
        stopEditingWhenCellsLoseFocus
        {...(getRowId ? { getRowId: stableRowId } : {})}
        onGridReady={onGridReady}
        onFirstDataRendered={() => shownRef.current?.()}
        {...options}
      />
    </div>
  );
}

/** The width of an element, followed as it changes (null before it is laid out). */
function useWidth(element: React.RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const node = element.current;
    if (!node) return;
    const observer = new ResizeObserver(() => setWidth(node.clientWidth || null));
    observer.observe(node);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/**
 * A fitted grid's height: its header and rows (and a scroll bar's room), at most the window's height less a margin;
 * before the grid has measured its rows, as `estimate` gives it.
 */
function useFittedHeight(on: boolean, estimate: () => number) {
  const [content, setContent] = useState(estimate);
  const [room, setRoom] = useState(() => window.innerHeight);
  useEffect(() => {
    if (!on) return;
    const resized = () => setRoom(window.innerHeight);
    window.addEventListener('resize', resized);
    return () => window.removeEventListener('resize', resized);
  }, [on]);
  const measure = useCallback(
    (api: GridApi) => {
      if (!on) return;
      let rows = 0;
      api.forEachNode((node) => {
        if (node.displayed) rows += node.rowHeight ?? 0;
      });
      setContent(rows + FIT_CHROME);
    },
    [on],
  );
  return { height: fittedHeight(content, room), measure };
}
