import type { CellClassParams, ColDef, ValueFormatterParams, ValueParserParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { percentInput, sanitizeNumber } from '../format/input';
import { formatNumber, formatPercent, isNegative } from '../format/numbers';
import { DataGrid } from './DataGrid';

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

/** Parses what a user typed into a cell of this format: percentages as fractions, the rest as plain numbers. */
export function parseCell(text: string, format: CellFormat, editKey: string): number | null {
  if (format === 'percent') return percentInput(text, editKey);
  const clean = sanitizeNumber(text, { decimal: format === 'decimal', digits: 2 });
  return clean === '' || clean === '-' ? null : Number(clean);
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
}: {
  rows: TableRow<K>[];
  headers: string[];
  editable: boolean;
  onEdit?: (row: TableRow<K>, index: number, value: number | null) => void;
  testId?: string;
  firstColumn?: number;
}) {
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
        valueParser: (p: ValueParserParams<GridRow<K>>) =>
          p.data ? parseCell(String(p.newValue ?? ''), p.data.row.format, p.data.row.editKey ?? '') : null,
        valueSetter: (p) => {
          if (p.data && onEdit) onEdit(p.data.row, i, p.newValue as number | null);
          return false;
        },
        cellClass: (p: CellClassParams<GridRow<K>>) => {
          const row = p.data?.row;
          const value = p.value as number | null;
          const shown = row?.invert && value !== null ? -value : value;
          const classes = ['ws-num'];
          if (isNegative(shown)) classes.push('ws-negative');
          if (editable && row?.editKey) classes.push('ws-editable');
          return classes.join(' ');
        },
      })),
    ],
    [headers, editable, onEdit, firstColumn],
  );
  return <DataGrid rows={gridRows} columns={columns} getRowId={(r) => r.id} testId={testId} />;
}
