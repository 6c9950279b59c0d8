import type { GridColumn } from '@topline/engine';
import type {
  CellClassParams,
  CellEditingStoppedEvent,
  ColDef,
  ICellRendererParams,
  ValueFormatterParams,
  ValueParserParams,
} from 'ag-grid-community';
import { type Ref, useEffect, useImperativeHandle, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCellExplain } from '../../explain/CellExplain';
import { monthlyTarget } from '../../explain/gridExplain';
import { formatNumber, formatPercent, isNegativeText } from '../../format/numbers';
import { type useCellMessages, WithCellMessages } from '../../grid/CellMessages';
import { useCurrencySymbol } from '../../grid/currency';
import { DataGrid, type GridApi } from '../../grid/DataGrid';
import { useSheetKeys } from '../../grid/sheet/useSheetKeys';
import { useNotice } from '../../notices';
import {
  type ControlCell,
  ControlRenderer,
  DashCell,
  type GridActions,
  type GridRow as Row,
  SectionRenderer,
} from './gridCells';
import { editableKeys, isRateRow, METRIC_ROWS, type MetricRow, type ScreenView, type Section } from './model';
import { monthlySheetCells } from './monthlySheet';

/** Shows recomputed columns at once: the changed rows go straight to the grid, before React renders the screen. */
export interface MonthlyGridHandle {
  show(columns: GridColumn[]): void;
}

export interface Display {
  months: boolean;
  quarters: boolean;
  cy: boolean;
}

/** A column's field in the rows: c0 ... c16. */
const FIELDS = Array.from({ length: 17 }, (_, i) => `c${i}`);
const field = (i: number): string => FIELDS[i] ?? `c${i}`;

/** A metric's row over the columns. An unchanged row keeps its previous object, so the grid leaves its cells alone. */
function metricRow(metric: MetricRow, columns: GridColumn[], previous: Row | undefined): Row {
  const key = metric.key;
  if (previous !== undefined && previous.metric === metric && previous[field(columns.length)] === undefined) {
    let same = true;
    for (let i = 0; same && i < columns.length; i++) same = previous[field(i)] === (columns[i]?.values[key] ?? null);
    if (same) return previous;
  }
  const row: Row = { id: key, kind: 'metric', metric };
  for (let i = 0; i < columns.length; i++) row[field(i)] = columns[i]?.values[key] ?? null;
  return row;
}

/** Formats a cell: rate rows (levels 2 and 4) and progress or rate variance as percentages, costs inverted. */
export function formatMonthly(value: number | null, metric: MetricRow, view: ScreenView, variance: 'rate' | 'value') {
  const ratio = view === 'progress' || (view === 'variance' && variance === 'rate');
  if (ratio || isRateRow(metric)) return formatPercent(value, 1);
  const shown = metric.invert && value !== null ? -value : value;
  return formatNumber(shown, metric.key === 'ltv_cac' || metric.key === 'burn_multiple' ? 2 : 0);
}

type Source = 'entered' | 'daily' | 'forecast';

/**
 * Where an actual value of a month column comes from, in the actual view: entered by the user, the sum of the daily
 * entries, or the month's forecast (engine/DECISIONS.md). Only ACT months and columns being edited are marked; an EST
 * month is the forecast as a whole, marked EST.
 */
function actualSource(
  key: string,
  index: number,
  column: GridColumn,
  view: ScreenView,
  editing: ReadonlySet<number>,
  enteredAt: ((index: number) => { entered: ReadonlySet<string>; daily: ReadonlySet<string> } | null) | undefined,
): Source | null {
  if (view !== 'actual' || column.monthType !== 'month' || !enteredAt) return null;
  if (column.status !== 'ACT' && !editing.has(index)) return null;
  if (!editableKeys('actual').has(key)) return null;
  const known = enteredAt(index);
  if (!known) return null;
  if (known.entered.has(key)) return 'entered';
  return known.daily.has(key) ? 'daily' : 'forecast';
}

/** An actual value with where it comes from, as its title (the cell's style marks it too). */
function SourceCell(p: ICellRendererParams<Row> & { sourceOf: () => Source | null }) {
  const { t } = useTranslation();
  const text = p.valueFormatted ?? '';
  const source = p.sourceOf();
  if (!source || text === '') return <>{text}</>;
  const label = t(`ws.entered.${source}`);
  return (
    <span title={label} data-source={source}>
      {text}
    </span>
  );
}

/** The monthly P&L grid: 17 period columns, collapsible KPI / P&L / Cash Flow sections, per-column edit mode. */
export function MonthlyGrid({
  columns,
  template,
  view,
  variance,
  display,
  editing,
  allowedEdit,
  collapsed,
  actions,
  handle,
  messages,
  enteredAt,
  caseId,
}: {
  columns: GridColumn[];
  template: string;
  view: ScreenView;
  variance: 'rate' | 'value';
  display: Display;
  editing: ReadonlySet<number>;
  allowedEdit: boolean;
  collapsed: ReadonlySet<Section>;
  actions: GridActions;
  handle?: Ref<MonthlyGridHandle>;
  /** Messages at cells: a typed value refused, or the server's message for a field. */
  messages: ReturnType<typeof useCellMessages>;
  /** Which actual values of a month column were entered, and which the daily entries give (null: not known). */
  enteredAt?: (index: number) => { entered: ReadonlySet<string>; daily: ReadonlySet<string> } | null;
  /** The case shown: a figure's explanation is of this case. */
  caseId?: number | undefined;
}) {
  const { t } = useTranslation();
  const metrics = useMemo(() => METRIC_ROWS.filter((r) => !r.template || r.template === template), [template]);
  const enterable = useMemo(() => editableKeys(view), [view]);
  // Column definitions follow the columns' shape, not their values, so an edit only refreshes the changed cells.
  const latest = useRef(columns);
  latest.current = columns;
  const shape = columns.map((c) => `${c.column}:${c.month}:${c.status}`).join('|');

  // Control cells keep their identity while their status, comment and edit flag stay, so their renderers are reused.
  const controlCache = useRef(new Map<string, ControlCell>());
  // The row objects the grid holds, by row id; both the render and `show` build on them.
  const shown = useRef(new Map<string, Row>());
  const shownRows = useRef<Row[]>([]);
  const rows = useMemo<Row[]>(() => {
    const before = shown.current;
    const control: Row = { id: 'control', kind: 'control' };
    const cache = controlCache.current;
    columns.forEach((column, i) => {
      const allowed = allowedEdit && column.monthType === 'month' && enterable.size > 0;
      const key = `${i}|${column.column}|${column.month}|${column.status}|${column.comment ?? ''}|${editing.has(i)}|${allowed}`;
      let cell = cache.get(key);
      if (!cell) {
        cell = { column, index: i, editing: editing.has(i), allowed };
        cache.set(key, cell);
      }
      control[field(i)] = cell;
    });
    if (cache.size > 500) cache.clear();
    // So does the control row while every control cell is the same.
    const previousControl = before.get('control');
    const sameControl =
      previousControl !== undefined &&
      columns.every((_, i) => previousControl[field(i)] === control[field(i)]) &&
      previousControl[field(columns.length)] === undefined;
    const out: Row[] = [sameControl ? previousControl : control];
    for (const section of ['kpi', 'pl', 'cash'] as const) {
      const label = collapsed.has(section) ? 'collapsed' : 'open';
      const previousSection = before.get(`section-${section}`);
      out.push(
        previousSection?.label === label
          ? previousSection
          : { id: `section-${section}`, kind: 'section', section, label },
      );
      if (collapsed.has(section)) continue;
      for (const metric of metrics.filter((m) => m.section === section)) {
        out.push(metricRow(metric, columns, before.get(metric.key)));
      }
    }
    // Rows the grid already holds (after `show`) keep the same array, so the grid has nothing to compare.
    const previous = shownRows.current;
    if (previous.length === out.length && out.every((row, i) => previous[i] === row)) return previous;
    shown.current = new Map(out.map((row) => [row.id, row]));
    shownRows.current = out;
    return out;
  }, [columns, editing, allowedEdit, enterable, collapsed, metrics]);

  const gridApi = useRef<GridApi<Row> | null>(null);
  // The columns in edit mode: the screen's, and those typing or pasting opened a moment ago (read by `editable`).
  const editingNow = useRef(new Set<number>());
  const editingSeen = useRef<ReadonlySet<number> | null>(null);
  if (editingSeen.current !== editing) {
    editingSeen.current = editing;
    editingNow.current = new Set(editing);
  }
  const notice = useNotice();
  const sheetState = useRef({ enterable, allowedEdit, notice });
  sheetState.current = { enterable, allowedEdit, notice };
  const sheet = useSheetKeys<Row>(
    useMemo(
      () =>
        monthlySheetCells(() => ({
          columns: latest.current,
          enterable: sheetState.current.enterable,
          allowedEdit: sheetState.current.allowedEdit,
          editing: editingNow.current,
          actions: cellState.current.actions,
          messages: cellState.current.messages,
          t: cellState.current.t,
          notify: (message) => sheetState.current.notice({ kind: 'error', title: t('ws.areas.monthly_pl'), message }),
        })),
      [t],
    ),
    t,
  );
  // The cells read messages and entered values through a ref, so the column definitions stay while they change.
  const cellState = useRef({ messages, enteredAt, t, actions });
  cellState.current = { messages, enteredAt, t, actions };
  // Another year, case or view puts other figures under the same cell ids: its undo history starts afresh.
  const months = columns.map((c) => c.month).join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: these are the triggers
  useEffect(() => sheet.forget(), [months, caseId, view, sheet]);
  // A message added or removed, a column saved or a view changed marks the cells again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: these are the triggers
  useEffect(() => {
    gridApi.current?.refreshCells({ force: true });
  }, [messages.messages, editing, enteredAt === undefined, view]);
  useImperativeHandle(
    handle,
    () => ({
      show(next: GridColumn[]) {
        const api = gridApi.current;
        if (!api || next.length !== latest.current.length) return;
        const update: Row[] = [];
        for (const [id, previous] of shown.current) {
          if (previous.kind !== 'metric' || !previous.metric) continue;
          const row = metricRow(previous.metric, next, previous);
          if (row === previous) continue;
          shown.current.set(id, row);
          update.push(row);
        }
        if (update.length === 0) return;
        shownRows.current = shownRows.current.map((row) => shown.current.get(row.id) ?? row);
        api.applyTransaction({ update });
      },
    }),
    [],
  );

  const explained = useRef({ view, caseId, variance });
  explained.current = { view, caseId, variance };
  const cellExplain = useCellExplain<Row>((e) => {
    const { view, caseId, variance } = explained.current;
    return monthlyTarget(e.data?.metric?.key, e.colDef.field, latest.current, view, caseId, variance, e.value);
  });
  // An open explanation follows the figures shown: another view, case or variance, or an edit recomputed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: these are the triggers
  useEffect(() => cellExplain.refresh(), [rows, columns, view, caseId, variance]);
  const currency = useCurrencySymbol();

  // biome-ignore lint/correctness/useExhaustiveDependencies: `shape` stands for the columns' ids, months and statuses
  const colDefs = useMemo<ColDef<Row>[]>(() => {
    const columns = latest.current;
    const visible = (c: GridColumn) =>
      c.monthType === 'month' ? display.months : c.monthType === 'quarter' ? display.quarters : display.cy;
    return sheet.withKeys([
      {
        headerName: t('ws.table.unit', { currency }), // the unit of the figures; its cells are row headers
        colId: 'label',
        field: 'label',
        pinned: 'left',
        width: 210,
        cellAriaRole: 'rowheader',
        cellRendererSelector: (p) => (p.data?.kind === 'section' ? { component: SectionRenderer } : undefined),
        valueFormatter: (p: ValueFormatterParams<Row>) =>
          p.data?.kind === 'metric' && p.data.metric ? t(`ws.rows.${p.data.metric.key}`) : '',
        cellClass: (p: CellClassParams<Row>) =>
          p.data?.kind === 'section' ? 'ws-section-cell' : `ws-row-label level-${p.data?.metric?.level ?? 1}`,
      },
      ...columns
        .map((column, i) => ({ column, i }))
        .filter(({ column }) => visible(column))
        .map<ColDef<Row>>(({ column, i }) => ({
          headerName:
            column.monthType === 'month'
              ? column.month.replace('-', '/')
              : column.monthType === 'cy'
                ? 'CY'
                : column.column,
          colId: column.column,
          field: `c${i}`,
          width: column.monthType === 'month' ? 118 : 124,
          type: 'rightAligned',
          headerClass: column.monthType === 'month' ? undefined : 'ws-total-header',
          cellRendererSelector: (p) => {
            if (p.data?.kind === 'control') return { component: ControlRenderer };
            const key = p.data?.metric?.key;
            // A rate over a base that is zero up to residue: a dash that says why (engine `read/residue.ts`).
            if (key !== undefined && latest.current[i]?.dashes?.includes(key)) return { component: DashCell };
            if (key === undefined || view !== 'actual' || column.monthType !== 'month') return undefined;
            if (!editableKeys('actual').has(key)) return undefined;
            const sourceOf = () => actualSource(key, i, column, view, editingNow.current, cellState.current.enteredAt);
            return { component: SourceCell, params: { sourceOf } };
          },
          editable: (p) =>
            p.data?.kind === 'metric' &&
            editingNow.current.has(i) &&
            !!p.data.metric &&
            enterable.has(p.data.metric.key),
          // The edit box opens with the number as the cell shows it (a cost as ▲3,000), read back by the same rule.
          cellEditorParams: { useFormatter: true },
          valueFormatter: (p: ValueFormatterParams<Row>) =>
            p.data?.kind === 'metric' && p.data.metric
              ? formatMonthly(p.value as number | null, p.data.metric, view, variance)
              : '',
          // The typed text goes to the setter as typed: it is read there, and refused with a message at the cell.
          valueParser: (p: ValueParserParams<Row>) => String(p.newValue ?? ''),
          valueSetter: (p) => {
            const metric = p.data?.metric;
            if (!metric) return false;
            // An editor opened and left without typing edits nothing (a click opens an editor on every cell it crosses).
            if (!p.data || !sheet.takeTyped(metric.key, column.column)) return false;
            sheet.typed(p.data, metric.key, column.column, String(p.newValue ?? ''));
            return false;
          },
          cellClass: (p: CellClassParams<Row>) => {
            if (p.data?.kind !== 'metric' || !p.data.metric)
              return p.data?.kind === 'section' ? 'ws-section-cell' : 'ws-control-cell';
            const classes = ['ws-num'];
            if (column.monthType !== 'month') classes.push('ws-total');
            // Red is a negative figure as shown (progress is a ratio, never red).
            const text = formatMonthly(p.value as number | null, p.data.metric, view, variance);
            if (view !== 'progress' && isNegativeText(text)) classes.push('ws-negative');
            if (editingNow.current.has(i) && enterable.has(p.data.metric.key)) classes.push('ws-editable');
            if (column.status === 'ACT' && column.monthType === 'month') classes.push('ws-act');
            const { messages, enteredAt } = cellState.current;
            if (messages.messageAt(p.data.metric.key, column.column)) classes.push('ws-refused');
            const source = actualSource(p.data.metric.key, i, column, view, editingNow.current, enteredAt);
            if (source === 'entered') classes.push('ws-entered');
            else if (source) classes.push('ws-from-forecast');
            return classes.join(' ');
          },
        })),
    ] as ColDef<Row>[]);
  }, [shape, display, enterable, view, variance, t, sheet, currency]);

  const options = useMemo(
    () => ({
      // Every row and column is rendered, so an edit repaints only the cells whose values changed.
      suppressColumnVirtualisation: true,
      context: actions,
      getRowClass: (p: { data?: Row }) =>
        p.data?.kind === 'section' ? 'ws-section-row' : p.data?.kind === 'control' ? 'ws-control-row' : undefined,
      getRowHeight: (p: { data?: Row }) => (p.data?.kind === 'control' ? 60 : undefined),
      ...sheet.options,
      // Typed text the grid found equal to the value shown (0 over a forecast of 0) does not reach the setter; it is
      // still what the user entered, so it is entered (an actual of 0 stays 0 when the forecast moves).
      onCellEditingStopped: (e: CellEditingStoppedEvent<Row>) => {
        const key = e.data?.metric?.key;
        const colId = e.column.getColId();
        const index = latest.current.findIndex((c) => c.column === colId);
        if (e.valueChanged || key === undefined || index < 0 || !sheet.takeTyped(key, colId)) return;
        if (!editableKeys(view).has(key) || !e.data) return;
        sheet.typed(e.data, key, colId, String(e.newValue ?? ''));
      },
      // A number opens its explanation by its info control or `?` (web/src/explain/CellExplain.tsx).
      ...cellExplain.options,
    }),
    [actions, view, sheet, cellExplain.options],
  );

  return (
    <div className="cell-explain-frame" ref={cellExplain.frame}>
      <sheet.Frame>
        <WithCellMessages messages={messages.messages} onDismiss={messages.clear}>
          <DataGrid<Row>
            rows={rows}
            columns={colDefs}
            getRowId={(r) => r.id}
            testId="monthly-grid"
            options={options}
            height="fit"
            onReady={(api) => {
              gridApi.current = api;
              sheet.onReady(api);
            }}
          />
        </WithCellMessages>
      </sheet.Frame>
      {cellExplain.info}
    </div>
  );
}
