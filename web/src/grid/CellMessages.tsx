/**
 * Messages at grid cells: a value a cell refused (what the field takes) or the server's message for a field, shown
 * under that cell until the cell is edited again. The grid's cells are found by their row and column ids.
 */
import { type ReactNode, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import './cellMessages.css';

export interface CellMessage {
  rowId: string;
  colId: string;
  message: string;
}

const keyOf = (rowId: string, colId: string) => `${rowId}\u0000${colId}`;

/** The messages of a grid's cells, by row and column. */
export function useCellMessages() {
  const [messages, setMessages] = useState<ReadonlyMap<string, CellMessage>>(new Map());
  const latest = useRef(messages);
  latest.current = messages;
  const show = useCallback((rowId: string, colId: string, message: string) => {
    setMessages((prev) => new Map(prev).set(keyOf(rowId, colId), { rowId, colId, message }));
  }, []);
  const clear = useCallback((rowId: string, colId: string) => {
    if (!latest.current.has(keyOf(rowId, colId))) return;
    setMessages((prev) => {
      const next = new Map(prev);
      next.delete(keyOf(rowId, colId));
      return next;
    });
  }, []);
  const clearColumn = useCallback((colId: string) => {
    if (![...latest.current.values()].some((m) => m.colId === colId)) return;
    setMessages((prev) => new Map([...prev].filter(([, m]) => m.colId !== colId)));
  }, []);
  const clearAll = useCallback(() => {
    if (latest.current.size > 0) setMessages(new Map());
  }, []);
  /** The message of a cell, read by the grid's cell classes (through a ref, so column definitions stay). */
  const messageAt = useCallback((rowId: string | undefined, colId: string) => {
    return rowId === undefined ? undefined : latest.current.get(keyOf(rowId, colId))?.message;
  }, []);
  return useMemo(
    () => ({ messages, show, clear, clearColumn, clearAll, messageAt }),
    [messages, show, clear, clearColumn, clearAll, messageAt],
  );
}

interface Placed extends CellMessage {
  top: number;
  left: number;
}

/** The grid and its cells' messages, each placed under its cell. */
export function WithCellMessages({
  messages,
  children,
  onDismiss,
}: {
  messages: ReadonlyMap<string, CellMessage>;
  children: ReactNode;
  onDismiss: (rowId: string, colId: string) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [placed, setPlaced] = useState<Placed[]>([]);
  const place = useCallback(() => {
    const root = box.current;
    if (!root) return;
    const origin = root.getBoundingClientRect();
    const next: Placed[] = [];
    for (const m of messages.values()) {
      const cell = root.querySelector<HTMLElement>(
        `.ag-row[row-id="${CSS.escape(m.rowId)}"] .ag-cell[col-id="${CSS.escape(m.colId)}"]`,
      );
      if (!cell) continue;
      const rect = cell.getBoundingClientRect();
      next.push({ ...m, top: rect.bottom - origin.top, left: Math.max(0, rect.left - origin.left) });
    }
    setPlaced(next);
  }, [messages]);
  useLayoutEffect(() => {
    place();
    if (messages.size === 0) return;
    // The grid draws its rows after React renders it, and scrolls sideways: place the messages again then.
    const timer = window.setTimeout(place, 50);
    const root = box.current;
    root?.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.clearTimeout(timer);
      root?.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [messages, place]);
  return (
    <div className="ws-cell-messages" ref={box}>
      {children}
      {placed.map((m) => (
        <div
          key={keyOf(m.rowId, m.colId)}
          className="ws-cell-message"
          role="alert"
          data-test="cell-message"
          data-row={m.rowId}
          data-col={m.colId}
          style={{ top: m.top, left: m.left }}
        >
          <span>{m.message}</span>
          <button type="button" className="link-button" aria-label="×" onClick={() => onDismiss(m.rowId, m.colId)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
