/** A range of cells by their displayed row and column indexes, and where a paste or a fill puts its values. */

export interface CellPos {
  row: number;
  col: number;
}

/** The cell where the range started (mouse down, or the cell focused before Shift+arrows) and the one it reaches. */
export interface CellRange {
  anchor: CellPos;
  end: CellPos;
}

export interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export const single = (pos: CellPos): CellRange => ({ anchor: pos, end: pos });

export function boxOf(range: CellRange): Box {
  return {
    top: Math.min(range.anchor.row, range.end.row),
    bottom: Math.max(range.anchor.row, range.end.row),
    left: Math.min(range.anchor.col, range.end.col),
    right: Math.max(range.anchor.col, range.end.col),
  };
}

export const boxSize = (box: Box): number => (box.bottom - box.top + 1) * (box.right - box.left + 1);

/** The range's end moved by one cell, kept within `rows` x `cols` (Shift+arrows). */
export function extend(range: CellRange, dRow: number, dCol: number, rows: number, cols: number): CellRange {
  const clamp = (n: number, size: number) => Math.max(0, Math.min(size - 1, n));
  return {
    anchor: range.anchor,
    end: { row: clamp(range.end.row + dRow, rows), col: clamp(range.end.col + dCol, cols) },
  };
}

/** One value going to one cell: `from` indexes the block (paste) or names the cell copied (fill). */
export interface Placement {
  to: CellPos;
  from: CellPos;
}

/**
 * Where a pasted block goes: from the range's top-left cell, clipped to the grid; a block of one cell pasted over a
 * larger range fills all of it (as Excel and Google Sheets do).
 */
export function pastePlacements(box: Box, blockRows: number, blockCols: number, rows: number, cols: number) {
  const out: Placement[] = [];
  const oneCell = blockRows === 1 && blockCols === 1;
  const height = oneCell ? box.bottom - box.top + 1 : blockRows;
  const width = oneCell ? box.right - box.left + 1 : blockCols;
  for (let r = 0; r < height && box.top + r < rows; r++) {
    for (let c = 0; c < width && box.left + c < cols; c++) {
      out.push({
        to: { row: box.top + r, col: box.left + c },
        from: oneCell ? { row: 0, col: 0 } : { row: r, col: c },
      });
    }
  }
  return out;
}

/** Ctrl+D copies each column's top cell down the range; Ctrl+R each row's leftmost cell to its right. */
export function fillPlacements(box: Box, direction: 'down' | 'right'): Placement[] {
  const out: Placement[] = [];
  for (let r = box.top; r <= box.bottom; r++) {
    for (let c = box.left; c <= box.right; c++) {
      const from = direction === 'down' ? { row: box.top, col: c } : { row: r, col: box.left };
      if (from.row !== r || from.col !== c) out.push({ to: { row: r, col: c }, from });
    }
  }
  return out;
}
