/**
 * Spreadsheet keys and clipboard for an AG Grid Community grid, on its public API only: a range of cells (mouse drag,
 * Shift+click, Shift+arrows), copy as TSV and HTML, paste of a block, Ctrl+D / Ctrl+R fill, Delete or Backspace to
 * clear, Ctrl+Z / Ctrl+Y (Cmd+Shift+Z) undo and redo, and typing or F2 on a cell whose column opens for editing only
 * then. What a cell takes and how a value is entered is the screen's, through `SheetCells` (`sheetCells.ts`).
 */
import type { CellFocusedEvent, ColDef, GridApi, IRowNode, SuppressKeyboardEventParams } from 'ag-grid-community';
import { type ClipboardEvent as ReactClipboardEvent, type ReactNode, useMemo, useRef } from 'react';
import { type Block, blockHtml, blockTsv, plainFigure, readClipboard } from './clipboard';
import { type CellChange, type CellValue, EditHistory } from './history';
import { boxOf, boxSize, type CellPos, type CellRange, extend, fillPlacements, pastePlacements, single } from './range';
import { ARROWS, cellIdsOf, cellKey, type SheetCells, type Translate } from './sheetCells';
import './sheet.css';

export function useSheetKeys<Row>(cellsOf: SheetCells<Row>, t: Translate) {
  const cells = useRef(cellsOf);
  cells.current = cellsOf;
  const tr = useRef(t);
  tr.current = t;
  const api = useRef<GridApi<Row> | null>(null);
  const range = useRef<CellRange | null>(null);
  const dragging = useRef(false);
  // The cell whose editor the user typed into (or opened by typing a character), until its text is entered. The grid
  // tells of an editor's start and stop only after the fact (its `on…` callbacks run on a timer, behind keys and input
  // a busy browser delivers first), so what was typed is known from the editor's own input events instead.
  const typedCell = useRef<string | null>(null);
  const history = useRef(new EditHistory());
  const sink = useRef<HTMLTextAreaElement>(null);

  return useMemo(() => {
    const columns = () => api.current?.getAllDisplayedColumns() ?? [];
    const rowCount = () => api.current?.getDisplayedRowCount() ?? 0;
    const nodeAt = (row: number): IRowNode<Row> | undefined => api.current?.getDisplayedRowAtIndex(row);
    const colAt = (col: number) => columns()[col];
    const posOf = (rowIndex: number | null, colId: string): CellPos | null => {
      const col = columns().findIndex((c) => c.getColId() === colId);
      return rowIndex === null || rowIndex < 0 || col < 0 ? null : { row: rowIndex, col };
    };
    /** The range whose active cell is `pos` (the cell a key or a clipboard event reached), else that cell alone. */
    const rangeAt = (pos: CellPos | null): CellRange | null => {
      const r = range.current;
      if (!pos) return r;
      if (r && r.end.row === pos.row && r.end.col === pos.col) return r;
      markRange(single(pos));
      return range.current;
    };
    /** The cell of a DOM event's target, by its row's index and its column id. */
    const posOfElement = (target: EventTarget | null): CellPos | null => {
      const el = target instanceof HTMLElement ? target.closest('.ag-cell') : null;
      const rowIndex = el?.closest('.ag-row')?.getAttribute('row-index');
      const colId = el?.getAttribute('col-id');
      return rowIndex && colId ? posOf(Number(rowIndex), colId) : null;
    };
    const inRange = new Set<string>();
    const markRange = (next: CellRange | null) => {
      range.current = next;
      inRange.clear();
      if (next) {
        const box = boxOf(next);
        if (boxSize(box) > 1) {
          for (let r = box.top; r <= box.bottom; r++) {
            for (let c = box.left; c <= box.right; c++)
              inRange.add(cellKey(`${nodeAt(r)?.id}`, `${colAt(c)?.getColId()}`));
          }
        }
      }
      api.current?.refreshCells();
    };

    /** A cell that takes values, with its row's data. */
    const target = (pos: CellPos) => {
      const node = nodeAt(pos.row);
      const colId = colAt(pos.col)?.getColId();
      if (!node?.data || node.id === undefined || colId === undefined) return null;
      if (!cells.current.canEnter(node.data, colId)) return null;
      return { row: node.data, rowId: node.id, colId };
    };

    /** Enters values and records them as one step of the history; messages of those cells go. */
    const enterAll = (values: { row: Row; rowId: string; colId: string; value: number | null }[], record = true) => {
      if (values.length === 0) return;
      const changes: CellChange[] = values.map((v) => ({
        rowId: v.rowId,
        colId: v.colId,
        before: cells.current.enteredAt(v.row, v.colId),
        after: v.value,
      }));
      for (const v of values) cells.current.clearMessage(v.rowId, v.colId);
      cells.current.enter(values.map(({ row, colId, value }) => ({ row, colId, value })));
      if (record) history.current.record(changes);
    };

    /** Reads texts for cells: all entered as one edit, or none and a message at each cell that refuses its text. */
    const enterTexts = (texts: { pos: CellPos; text: string }[]) => {
      const values: { row: Row; rowId: string; colId: string; value: number | null }[] = [];
      const refused: { rowId: string; colId: string; message: string }[] = [];
      for (const { pos, text } of texts) {
        const cell = target(pos);
        if (!cell) continue;
        const reading = cells.current.read(cell.row, cell.colId, text);
        if (reading.ok) values.push({ ...cell, value: reading.value });
        else refused.push({ rowId: cell.rowId, colId: cell.colId, message: reading.message });
      }
      if (refused.length > 0) {
        for (const r of refused) cells.current.showMessage(r.rowId, r.colId, r.message);
        if (texts.length > 1) cells.current.notify(tr.current('ws.sheet.pasteRefused', { count: refused.length }));
        return;
      }
      if (values.length === 0 && texts.length > 0) {
        cells.current.notify(tr.current('ws.sheet.notEditable'));
        return;
      }
      enterAll(values);
    };

    const applyHistory = (values: CellValue[] | null) => {
      if (!values) return;
      const out: { row: Row; rowId: string; colId: string; value: number | null }[] = [];
      for (const v of values) {
        const node = api.current?.getRowNode(v.rowId);
        if (node?.data) out.push({ row: node.data, rowId: v.rowId, colId: v.colId, value: v.value });
      }
      enterAll(out, false);
    };

    const blockOf = (r: CellRange): Block => {
      const box = boxOf(r);
      const out: Block = [];
      for (let row = box.top; row <= box.bottom; row++) {
        const node = nodeAt(row);
        const line: string[] = [];
        for (let col = box.left; col <= box.right; col++) {
          const column = colAt(col);
          const shown =
            node && column ? api.current?.getCellValue({ rowNode: node, colKey: column, useFormatter: true }) : '';
          line.push(plainFigure(typeof shown === 'string' ? shown : ''));
        }
        out.push(line);
      }
      return out;
    };

    const clearRange = (r: CellRange) => {
      const box = boxOf(r);
      const values: { row: Row; rowId: string; colId: string; value: number | null }[] = [];
      for (let row = box.top; row <= box.bottom; row++) {
        for (let col = box.left; col <= box.right; col++) {
          const cell = target({ row, col });
          if (cell) values.push({ ...cell, value: null });
        }
      }
      enterAll(values);
    };

    const fill = (r: CellRange, direction: 'down' | 'right') => {
      const texts = fillPlacements(boxOf(r), direction).map(({ to, from }) => {
        const node = nodeAt(from.row);
        const column = colAt(from.col);
        const text =
          node && column ? api.current?.getCellValue({ rowNode: node, colKey: column, useFormatter: true }) : '';
        return { pos: to, text: typeof text === 'string' ? text : '' };
      });
      enterTexts(texts);
    };

    const refocus = () => {
      const r = range.current;
      const column = r ? colAt(r.end.col) : undefined;
      if (r && column) {
        api.current?.setFocusedCell(r.end.row, column);
      }
    };

    /** Focuses the hidden text box for a moment so that the browser's own copy or paste fires on it. */
    const throughSink = (text: string) => {
      const box = sink.current;
      if (!box) return;
      box.value = text;
      box.focus();
      box.select();
      setTimeout(refocus, 0);
    };

    const onKey = (p: SuppressKeyboardEventParams<Row>): boolean => {
      const e = p.event;
      if (e.type !== 'keydown') return false;
      if (p.editing) {
        if (e.key === 'Escape') typedCell.current = null;
        // Tab commits and moves one cell right (Shift: left), as in a spreadsheet, not into the next editor.
        if (e.key !== 'Tab') return false;
        e.preventDefault();
        const node = p.node;
        const col = columns().findIndex((c) => c.getColId() === p.column.getColId());
        const next = colAt(col + (e.shiftKey ? -1 : 1));
        p.api.stopEditing();
        if (next && node.rowIndex !== null) p.api.setFocusedCell(node.rowIndex, next);
        return true;
      }
      // A cell's own buttons (edit, save, memo, a section's toggle) take Tab, Enter and Space as buttons do, and Tab
      // on such a cell goes into its buttons: the browser moves the focus, not the grid.
      const inCell = e.target instanceof HTMLElement ? e.target : null;
      if (inCell instanceof HTMLButtonElement) return e.key === 'Tab' || e.key === 'Enter' || e.key === ' ';
      if (e.key === 'Tab' && !e.shiftKey && inCell?.querySelector('button')) return true;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      const r = rangeAt(p.node.rowIndex === null ? null : posOf(p.node.rowIndex, p.column.getColId()));
      if (mod && !e.altKey) {
        if (key === 'z' || key === 'y') {
          e.preventDefault();
          applyHistory(key === 'y' || e.shiftKey ? history.current.redo() : history.current.undo());
          return true;
        }
        if (key === 'd' || key === 'r') {
          e.preventDefault();
          if (r) fill(r, key === 'd' ? 'down' : 'right');
          return true;
        }
        if (key === 'c' && r) {
          throughSink(blockTsv(blockOf(r)));
          return true;
        }
        if (key === 'v') {
          throughSink('');
          return true;
        }
        return false;
      }
      const arrow = ARROWS[e.key];
      if (arrow && e.shiftKey && r) {
        e.preventDefault();
        const next = extend(r, arrow[0], arrow[1], rowCount(), columns().length);
        markRange(next);
        const column = colAt(next.end.col);
        if (column) {
          api.current?.ensureIndexVisible(next.end.row);
          api.current?.setFocusedCell(next.end.row, column);
        }
        return true;
      }
      if ((e.key === 'Delete' || e.key === 'Backspace') && r) {
        e.preventDefault();
        clearRange(r);
        return true;
      }
      // `?` explains the cell (web/src/explain/CellExplain.tsx) and Space does nothing; any other character typed edits.
      if (e.key === '?') return true;
      const typing = e.key.length === 1 && e.key !== ' ' && !e.altKey;
      if ((typing || e.key === 'F2') && p.node.data) {
        const colId = p.column.getColId();
        if (cells.current.canEnter(p.node.data, colId)) {
          cells.current.open?.(p.node.data, colId);
          if (typing && p.node.id !== undefined) typedCell.current = cellKey(p.node.id, colId);
        }
      }
      return false;
    };

    const onCopy = (e: ReactClipboardEvent) => {
      const inEditor = e.target instanceof HTMLInputElement;
      const r = rangeAt(posOfElement(e.target));
      if (inEditor || !r) return;
      const block = blockOf(r);
      e.clipboardData.setData('text/plain', blockTsv(block));
      e.clipboardData.setData('text/html', blockHtml(block));
      e.preventDefault();
    };

    const onPaste = (e: ReactClipboardEvent) => {
      if (e.target instanceof HTMLInputElement) return;
      const r = rangeAt(posOfElement(e.target));
      if (!r) return;
      e.preventDefault();
      const block = readClipboard(e.clipboardData.getData('text/plain'), e.clipboardData.getData('text/html'));
      const width = Math.max(0, ...block.map((row) => row.length));
      if (block.length === 0 || width === 0) return;
      const placed = pastePlacements(boxOf(r), block.length, width, rowCount(), columns().length);
      enterTexts(placed.map(({ to, from }) => ({ pos: to, text: block[from.row]?.[from.col] ?? '' })));
      setTimeout(refocus, 0);
    };

    /** Adds the range's mark and the keys to a grid's columns. */
    const withKeys = (defs: ColDef<Row>[]): ColDef<Row>[] =>
      defs.map((def) => ({
        ...def,
        suppressKeyboardEvent: onKey,
        cellClassRules: {
          ...(def.cellClassRules ?? {}),
          'ws-in-range': (p) => inRange.has(cellKey(`${p.node.id}`, p.column.getColId())),
        },
      }));

    const options = {
      enterNavigatesVertically: true,
      enterNavigatesVerticallyAfterEdit: true,
      // The grid tells of a focus change after the fact, on a timer: a cell the range ends at (Shift+arrows,
      // Shift+click, the focus given back after a paste) keeps the range, and so does a focus the grid has since moved
      // on from (keys pressed meanwhile already moved the range); any other cell starts a new one.
      onCellFocused: (e: CellFocusedEvent<Row>) => {
        if (dragging.current) return;
        const colId = typeof e.column === 'string' ? e.column : e.column?.getColId();
        const now = api.current?.getFocusedCell();
        if (now && (now.rowIndex !== e.rowIndex || now.column.getColId() !== colId)) return;
        const pos = colId ? posOf(e.rowIndex, colId) : null;
        const end = range.current?.end;
        if (pos && end && end.row === pos.row && end.col === pos.col) return;
        markRange(pos ? single(pos) : null);
      },
    };

    // The mouse is followed through the DOM's own events, as they happen (the grid's cell-mouse callbacks come later,
    // on a timer, and could see the button come up before they see it go down).
    const onMouseDown = (e: MouseEvent) => {
      if (e.button !== 0) return;
      const pos = posOfElement(e.target);
      if (!pos) return;
      dragging.current = true;
      const up = () => {
        dragging.current = false;
        document.removeEventListener('mouseup', up, true);
      };
      document.addEventListener('mouseup', up, true);
      markRange(e.shiftKey && range.current ? { anchor: range.current.anchor, end: pos } : single(pos));
    };
    const onMouseOver = (e: MouseEvent) => {
      const pos = posOfElement(e.target);
      if (!dragging.current || !pos || !range.current) return;
      const end = range.current.end;
      if (end.row !== pos.row || end.col !== pos.col) markRange({ anchor: range.current.anchor, end: pos });
    };
    /** Text typed into a cell's editor: that cell's text is entered when the editor closes. */
    const onInput = (e: Event) => {
      const ids = cellIdsOf(e.target);
      if (ids) typedCell.current = cellKey(ids.rowId, ids.colId);
    };
    /** The frame's listeners of the mouse and of typing (the cells inside take the keys, the frame only follows). */
    const followMouseAndInput = (frame: HTMLDivElement | null) => {
      if (!frame) return;
      frame.addEventListener('mousedown', onMouseDown);
      frame.addEventListener('mouseover', onMouseOver);
      frame.addEventListener('input', onInput);
      return () => {
        frame.removeEventListener('mousedown', onMouseDown);
        frame.removeEventListener('mouseover', onMouseOver);
        frame.removeEventListener('input', onInput);
      };
    };

    /** The grid inside the frame that takes its copy and paste, with the hidden text box they pass through. */
    const Frame = ({ children }: { children: ReactNode }) => (
      <div className="ws-sheet" onCopy={onCopy} onPaste={onPaste} ref={followMouseAndInput}>
        {children}
        <textarea ref={sink} className="ws-sheet-sink" tabIndex={-1} aria-hidden="true" readOnly={false} />
      </div>
    );

    return {
      withKeys,
      options,
      Frame,
      onReady: (grid: GridApi<Row>) => {
        api.current = grid;
      },
      /** Enters a text typed into a cell's editor: read, refused with a message, or entered and recorded. */
      typed: (row: Row, rowId: string, colId: string, text: string) => {
        const reading = cells.current.read(row, colId, text);
        if (!reading.ok) {
          cells.current.showMessage(rowId, colId, reading.message);
          return;
        }
        enterAll([{ row, rowId, colId, value: reading.value }]);
      },
      /** Forgets the range and the history: the grid shows other cells under the same ids (another year, case, view). */
      forget: () => {
        history.current = new EditHistory();
        range.current = null;
      },
      /**
       * Whether the user typed into the cell's editor (or opened it by typing a character), so that its text is to be
       * entered; answered once. An editor opened by a click and left, or left with Esc, was not typed into.
       */
      takeTyped: (rowId: string, colId: string) => {
        if (typedCell.current !== cellKey(rowId, colId)) return false;
        typedCell.current = null;
        return true;
      },
    };
  }, []);
}
