import type { CellClassParams, ColDef, ValueFormatterParams, ValueParserParams } from 'ag-grid-community';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExplainTarget } from '../explain/ExplainContext';
import { explainOnCells } from '../explain/gridExplain';
import { formatNumber, formatPercent, isNegativeText } from '../format/numbers';
import { readTyped, refusalMessage, ruleOf, type TypedResult } from '../format/typed';
import { useCellMessages, WithCellMessages } from './CellMessages';
import { DataGrid, type GridApi } from './DataGrid';

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
  /** The figure a cell explains (click, Enter or Space on a cell not being edited), or null. */
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
  const explainOf = useRef(explain);
  explainOf.current = explain;
  const explainable = explain !== undefined;
  const options = useMemo(
    () =>
      explainable
        ? explainOnCells<GridRow<K>>((e) => {
            const field = e.colDef.field ?? '';
            return e.data && /^c\d+$/.test(field)
              ? (explainOf.current?.(e.data.row, Number(field.slice(1))) ?? null)
              : null;
          })
        : undefined,
    [explainable],
  );
  const columns = useMemo<ColDef<GridRow<K>>[]>(
    () => [
      {
        headerName: '',
        field: 'row',
        pinned: 'left',
        width: firstColumn,
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
        editable: (p) => editable && !!p.data?.row.editKey && !!onEdit,
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
          if (!row?.editKey || !onEdit) return false;
          const colId = `c${i}`;
          const typed = String(p.newValue ?? '');
          const old = p.oldValue as number | null;
          // The text the editor opened with, unchanged: nothing was edited.
          if (typed.trim() === formatCell(old, row.format, row.digits)) return false;
          const { show, clear, t } = messagesOf.current;
          const result = parseCell(typed, row.editKey);
          if (!result.ok) {
            show(row.key, colId, refusalMessage(result, ruleOf(row.editKey), t));
            return false;
          }
          clear(row.key, colId);
          if (result.value !== old) onEdit(row, i, result.value);
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
    ],
    [headers, editable, onEdit, firstColumn],
  );
  return (
    <WithCellMessages messages={cellMessages.messages} onDismiss={clear}>
      <DataGrid
        rows={gridRows}
        columns={columns}
        getRowId={(r) => r.id}
        testId={testId}
        options={options}
        onReady={(api) => {
          gridApi.current = api;
        }}
      />
    </WithCellMessages>
  );
}
