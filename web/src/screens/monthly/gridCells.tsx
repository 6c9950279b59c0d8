/**
 * The monthly grid's own cells: the control row (status, edit, save, cancel, reverse, memo per column) and the
 * section toggles. Both act through the grid's context, the screen's stable `GridActions`.
 */
import type { GridColumn } from '@topline/engine';
import type { ICellRendererParams } from 'ag-grid-community';
import { useTranslation } from 'react-i18next';
import type { MetricRow, Section } from './model';

export interface ControlCell {
  column: GridColumn;
  index: number;
  editing: boolean;
  /** This column may enter edit mode in this view. */
  allowed: boolean;
}

/** A row of the grid: the control row (the columns' edit controls), a section's title row, or a metric. */
export interface GridRow {
  id: string;
  kind: 'control' | 'section' | 'metric';
  section?: Section;
  metric?: MetricRow;
  [cell: string]: unknown;
}

export interface GridActions {
  startEdit: (index: number) => void;
  save: (index: number) => void;
  cancel: (index: number) => void;
  reverse: (index: number) => void;
  comment: (index: number) => void;
  toggleSection: (section: Section) => void;
  /** Enters values into month columns, as one edit; a column not in edit mode opens. */
  enter: (values: { index: number; key: string; value: number | null }[]) => void;
  /** The value entered at a month column's input now (typed, or saved), or null where none is. */
  enteredValue: (index: number, key: string) => number | null;
}

export function ControlRenderer(p: ICellRendererParams<GridRow>) {
  const { t } = useTranslation();
  const cell = p.value as ControlCell | undefined;
  const actions = p.context as GridActions;
  if (!cell) return null;
  const { column, index, editing, allowed } = cell;
  return (
    <span className="ws-control" data-test={`control-${column.column}`}>
      {column.monthType === 'month' && (
        <span className={column.status === 'ACT' ? 'ws-status act' : 'ws-status'}>{column.status}</span>
      )}
      {allowed && !editing && (
        <button
          type="button"
          className="link-button"
          data-test={`edit-${column.column}`}
          onClick={() => actions.startEdit(index)}
        >
          {t('ws.common.edit')}
        </button>
      )}
      {editing && (
        <>
          <button
            type="button"
            className="link-button"
            data-test={`save-${column.column}`}
            onClick={() => actions.save(index)}
          >
            {t('ws.common.save')}
          </button>
          <button
            type="button"
            className="link-button"
            data-test={`cancel-${column.column}`}
            onClick={() => actions.cancel(index)}
          >
            {t('common.cancel')}
          </button>
          {column.status === 'ACT' && (
            <button
              type="button"
              className="link-button"
              data-test={`reverse-${column.column}`}
              onClick={() => actions.reverse(index)}
            >
              {t('ws.monthly.reverse')}
            </button>
          )}
        </>
      )}
      {column.monthType === 'month' && (
        <button
          type="button"
          className={column.comment ? 'link-button ws-memo has' : 'link-button ws-memo'}
          title={column.comment ?? t('ws.monthly.memo')}
          aria-label={t('ws.monthly.memo')}
          data-test={`memo-${column.column}`}
          onClick={() => actions.comment(index)}
        >
          ✎
        </button>
      )}
    </span>
  );
}

/** The control row in a first paint (`grid/FirstPaint.tsx`): each month's status, its controls once the grid is there. */
ControlRenderer.firstPaint = function ControlFirstPaint(p: ICellRendererParams<GridRow>) {
  const cell = p.value as ControlCell | undefined;
  if (cell?.column.monthType !== 'month') return null;
  return (
    <span className="ws-control">
      <span className={cell.column.status === 'ACT' ? 'ws-status act' : 'ws-status'}>{cell.column.status}</span>
    </span>
  );
};

export function SectionRenderer(p: ICellRendererParams<GridRow>) {
  const { t } = useTranslation();
  const actions = p.context as GridActions;
  const section = p.data?.section;
  if (!section) return null;
  const collapsed = p.value === 'collapsed';
  return (
    <button
      type="button"
      className="ws-section-toggle"
      aria-expanded={!collapsed}
      data-test={`section-${section}`}
      onClick={() => actions.toggleSection(section)}
    >
      {collapsed ? '▸' : '▾'} {t(`ws.monthly.sections.${section}`)}
    </button>
  );
}

/** A section's title in a first paint: the toggle's text, without the button. */
SectionRenderer.firstPaint = function SectionFirstPaint(p: ICellRendererParams<GridRow>) {
  const { t } = useTranslation();
  const section = p.data?.section;
  if (!section) return null;
  return (
    <span className="ws-section-toggle">
      {p.value === 'collapsed' ? '▸' : '▾'} {t(`ws.monthly.sections.${section}`)}
    </span>
  );
};

/** A figure the screen shows as a dash: a rate whose base is zero up to residue, titled with why. */
export function DashCell() {
  const { t } = useTranslation();
  return (
    <span className="ws-dash" title={t('residue.zeroBase')} data-dash="zero_base">
      -
    </span>
  );
}

/** The dash in a first paint: the same text and title. */
DashCell.firstPaint = function DashFirstPaint() {
  const { t } = useTranslation();
  return (
    <span className="ws-dash" title={t('residue.zeroBase')}>
      -
    </span>
  );
};
