/**
 * AG Grid with only the modules the working screens use: client-side rows (and their transactions), text editing,
 * cell and row styles, pinned columns and cell-change flashing off. Loaded only by the screens that show a grid.
 */
import {
  CellStyleModule,
  ClientSideRowModelApiModule,
  ClientSideRowModelModule,
  type ColDef,
  type GridApi,
  type GridOptions,
  ModuleRegistry,
  RenderApiModule,
  RowApiModule,
  RowStyleModule,
  TextEditorModule,
  themeQuartz,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useMemo, useRef } from 'react';

ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  ClientSideRowModelApiModule,
  TextEditorModule,
  CellStyleModule,
  RowStyleModule,
  RenderApiModule,
  RowApiModule,
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
  height?: number | 'auto';
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
  const defaultColDef = useMemo<ColDef<Row>>(() => ({ sortable: false, resizable: true, suppressMovable: true }), []);
  const auto = height === 'auto';
  // Stable callbacks: a new function on every render would make the grid redraw its rows.
  const rowIdOf = useRef(getRowId);
  rowIdOf.current = getRowId;
  const stableRowId = useCallback((p: { data: Row }) => (rowIdOf.current ? rowIdOf.current(p.data) : ''), []);
  const readyRef = useRef(onReady);
  readyRef.current = onReady;
  const onGridReady = useCallback((event: { api: GridApi<Row> }) => readyRef.current?.(event.api), []);
  return (
    <div className="data-grid" data-test={testId} style={auto ? undefined : { height }}>
      <AgGridReact<Row>
        theme={theme}
        rowData={rows}
        columnDefs={columns}
        defaultColDef={defaultColDef}
        domLayout={auto ? 'autoHeight' : 'normal'}
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

export type { ColDef, GridApi };
