/**
 * AG Grid with only the modules the working screens use: client-side rows (and their transactions), text editing,
 * cell and row styles, pinned columns, the cell and column API (the spreadsheet keys of `sheet/`) and cell-change
 * flashing off. Loaded only by the screens that show a grid.
 */
import {
  CellApiModule,
  CellStyleModule,
  ClientSideRowModelApiModule,
  ClientSideRowModelModule,
  type ColDef,
  ColumnApiModule,
  type GridApi,
  type GridOptions,
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

export function DataGrid<Row>({
  rows,
  columns,
  getRowId,
  options,
  height = 'auto',
  testId,
  onReady,
}: DataGridProps<Row>) {
  const wrapper = useRef<HTMLDivElement>(null);
  const width = useWidth(wrapper);
  const fitted = useFittedHeight(height === 'fit');
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
  const style = auto ? undefined : { height: height === 'fit' ? fitted.height : height };
  return (
    <div className="data-grid" data-test={testId} style={style} ref={wrapper}>
      <AgGridReact<Row>
        theme={theme}
        rowData={rows}
        columnDefs={sized}
        defaultColDef={defaultColDef}
        domLayout={auto ? 'autoHeight' : 'normal'}
        {...(height === 'fit'
          ? {
              suppressRowVirtualisation: true,
              onModelUpdated: (e: { api: GridApi<Row> }) => fitted.measure(e.api),
            }
          : {})}
        suppressCellFocus={false}
        singleClickEdit
        stopEditingWhenCellsLoseFocus
        {...(getRowId ? { getRowId: stableRowId } : {})}
        onGridReady={onGridReady}
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

/** Room a fitted grid leaves in the window: the shell's header and the screen's toolbar above it. */
const FIT_MARGIN = 160;
const FIT_MIN = 320;

/** A fitted grid's height: its header and rows (and a scroll bar's room), at most the window's height less a margin. */
function useFittedHeight(on: boolean) {
  const [content, setContent] = useState(400);
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
      // Header (two lines at most), borders and a horizontal scroll bar.
      setContent(rows + 48 + 20);
    },
    [on],
  );
  return { height: Math.min(content, Math.max(FIT_MIN, room - FIT_MARGIN)), measure };
}

export type { ColDef, GridApi };
