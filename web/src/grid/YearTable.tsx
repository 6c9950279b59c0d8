import type { CellClassParams, ColDef, ValueFormatterParams, ValueParserParams } from 'ag-grid-community';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCellExplain } from '../explain/CellExplain';
import type { ExplainTarget } from '../explain/target';
import { cellRefusalMessage, readCellInput } from '../format/input';
import { formatNumber, formatPercent, isNegativeText } from '../format/numbers';
import { readTyped, ruleOf, type TypedResult } from '../format/typed';
import { useNotice } from '../notices';
import { useCellMessages, WithCellMessages } from './CellMessages';
import { useCurrencySymbol } from './currency';
import { DataGrid, type GridApi } from './DataGrid';
import type { SheetCells } from './sheet/sheetCells';
import { useSheetKeys } from './sheet/useSheetKeys';

export type CellFormat = 'money' | 'percent' | 'count' | 'decimal';

/** A row of the table; `K` names the keys an edit of a row saves (the contract's per-year assumption keys). */
export interface TableRow<K extends string = string> {
  key: string;
  label: string;
  format: CellFormat;
  values: (number | null)[];
  /** The per-year key an edit of this row saves, when the row is editable. */
  editKey?: K;
  /** Shown with the sign inverted (costs). */
  invert?: boolean;
  /** Decimal digits shown (percentages: 1, churn: 2). */
  digits?: number;
  level?: number;
}

export function formatCell(value: number | null | undefined, format: CellFormat, digits?: number): string {
  if (format === 'percent') return formatPercent(value, digits ?? 1);
  if (format === 'decimal') return formatNumber(value, digits ?? 2);
  return formatNumber(value, 0);
}

/** Reads what a user typed into a cell of a row: the one typed-number rule of the row's edit key. */
export function parseCell(text: string, editKey: string): TypedResult {
  return readTyped(text, ruleOf(editKey));
}

interface GridRow<K extends string> {
  id: string;
  row: TableRow<K>;
  [column: string]: unknown;
}

/** Rows of metrics against columns (years or periods), with editable cells where a row has an edit key. */
export function YearTable<K extends string = string>({
  rows,
  headers,
  editable,
  onEdit,
  testId,
  firstColumn = 180,
  explain,
}: {
  rows: TableRow<K>[];
  headers: string[];
  editable: boolean;
  onEdit?: (row: TableRow<K>, index: number, value: number | null) => void;
  testId?: string;
  firstColumn?: number;
  /** The figure a cell explains (its info control, or `?` on it: web/src/explain/CellExplain.tsx), or null. */
  explain?: (row: TableRow<K>, index: number) => ExplainTarget | null;
}) {
  const { t } = useTranslation();
  const cellMessages = useCellMessages();
  const { show, clear, messageAt } = cellMessages;
  const gridApi = useRef<GridApi<GridRow<K>> | null>(null);
  const messagesOf = useRef({ show, clear, messageAt, t });
  messagesOf.current = { show, clear, messageAt, t };
  // A message added or removed marks or unmarks its cell.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the messages are the trigger
  useEffect(() => {
    gridApi.current?.refreshCells({ force: true });
  }, [cellMessages.messages]);
  const gridRows = useMemo<GridRow<K>[]>(
    () =>
      rows.map((row) => {
        const record: GridRow<K> = { id: row.key, row };
        row.values.forEach((v, i) => {
          record[`c${i}`] = v;
        });
        return record;
      }),
    [rows],
  );
  // Spreadsheet keys (web/src/grid/sheet): typed, pasted, filled and cleared values go to `onEdit`, one cell at a time.
  const notice = useNotice();
  const editing = useRef({ editable, onEdit, notice });
  editing.current = { editable, onEdit, notice };
  const sheetCells = useMemo<SheetCells<GridRow<K>>>(() => {
    const indexOf = (colId: string) => (/^c\d+$/.test(colId) ? Number(colId.slice(1)) : -1);
    return {
      canEnter: (row, colId) =>
        editing.current.editable && !!row.row.editKey && !!editing.current.onEdit && indexOf(colId) >= 0,
      enteredAt: (row, colId) => row.row.values[indexOf(colId)] ?? null,
      read: (row, _colId, text) => {
        const key = row.row.editKey ?? '';
        const reading = readCellInput(text.trim(), key);
        return reading.ok ? reading : { ok: false, message: cellRefusalMessage(reading, key, messagesOf.current.t) };
      },
      enter: (values) => {
        for (const { row, colId, value } of values) editing.current.onEdit?.(row.row, indexOf(colId), value);
      },
      showMessage: (rowId, colId, message) => messagesOf.current.show(rowId, colId, message),
      clearMessage: (rowId, colId) => messagesOf.current.clear(rowId, colId),
      notify: (message) =>
        editing.current.notice({ kind: 'error', title: messagesOf.current.t('common.edit'), message }),
    };
  }, []);
  const sheet = useSheetKeys<GridRow<K>>(sheetCells, t);
  const explainOf = useRef(explain);
  explainOf.current = explain;
  const cellExplain = useCellExplain<GridRow<K>>((e) => {
    const field = e.colDef.field ?? '';
    return e.data && /^c\d+$/.test(field) ? (explainOf.current?.(e.data.row, Number(field.slice(1))) ?? null) : null;
  }, explain !== undefined);
  // An open explanation loads its figure again once the figures change (an edit saved).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the rows are the trigger
  useEffect(() => cellExplain.refresh(), [rows]);
  const options = useMemo(() => ({ ...sheet.options, ...cellExplain.options }), [sheet, cellExplain.options]);
  const currency = useCurrencySymbol();
  // The columns are built again only when what they show changes: the headers' text (not a new array of the same
  // text, which a screen makes on every render) and whether the table takes edits (not a new `onEdit`, read through
  // `editing`). New definitions make the grid rebuild its columns and redraw every cell.
  const headerText = headers.join('\u0000');
  const takesEdits = onEdit !== undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `headerText` stands for `headers`
  const columns = useMemo<ColDef<GridRow<K>>[]>(
    () =>
      sheet.withKeys([
        {
          // The label column names its rows (row headers) and, in its header, the unit of the figures.
          headerName: t('ws.table.unit', { currency }),
          field: 'row',
          pinned: 'left',
          width: firstColumn,
          cellAriaRole: 'rowheader',
          valueFormatter: (p: ValueFormatterParams<GridRow<K>>) => p.data?.row.label ?? '',
          cellClass: (p: CellClassParams<GridRow<K>>) => `ws-row-label level-${p.data?.row.level ?? 1}`,
        },
        ...headers.map<ColDef<GridRow<K>>>((header, i) => ({
          headerName: header,
          colId: `c${i}`,
          field: `c${i}`,
          minWidth: 110,
          flex: 1,
          type: 'rightAligned',
          editable: (p) => editable && !!p.data?.row.editKey && takesEdits,
          cellEditorParams: { useFormatter: true },
          valueFormatter: (p: ValueFormatterParams<GridRow<K>>) => {
            const row = p.data?.row;
            if (!row) return '';
            const value = p.value as number | null;
            return formatCell(row.invert && value !== null ? -value : value, row.format, row.digits);
          },
          // The typed text goes to the setter as typed: it is read there, and refused with a message at the cell.
          valueParser: (p: ValueParserParams<GridRow<K>>) => String(p.newValue ?? ''),
          valueSetter: (p) => {
            const row = p.data?.row;
            if (!row?.editKey || !takesEdits) return false;
            const colId = `c${i}`;
            const typed = String(p.newValue ?? '');
            const old = p.oldValue as number | null;
            // The text the editor opened with, unchanged: nothing was edited.
            if (typed.trim() === formatCell(old, row.format, row.digits)) return false;
            const reading = readCellInput(typed.trim(), row.editKey);
            if (reading.ok && reading.value === old) {
              messagesOf.current.clear(row.key, colId);
              return false;
            }
            if (p.data) sheet.typed(p.data, row.key, colId, typed);
            return false;
          },
          cellClass: (p: CellClassParams<GridRow<K>>) => {
            const row = p.data?.row;
            const value = p.value as number | null;
            const shown = row?.invert && value !== null ? -value : value;
            const classes = ['ws-num'];
            if (row && isNegativeText(formatCell(shown, row.format, row.digits))) classes.push('ws-negative');
            if (editable && row?.editKey) classes.push('ws-editable');
            if (messagesOf.current.messageAt(row?.key, `c${i}`)) classes.push('ws-refused');
            return classes.join(' ');
          },
        })),
      ]),
    [headerText, editable, takesEdits, firstColumn, sheet, t, currency],
  );
  return (
    <div className="cell-explain-frame" ref={cellExplain.frame}>
      <sheet.Frame>
        <WithCellMessages messages={cellMessages.messages} onDismiss={clear}>
          <DataGrid
            rows={gridRows}
            columns={columns}
            getRowId={(r) => r.id}
            testId={testId}
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
