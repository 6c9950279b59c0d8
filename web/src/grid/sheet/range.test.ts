import { describe, expect, it } from 'vitest';
import { EditHistory } from './history';
import { boxOf, extend, fillPlacements, pastePlacements } from './range';

describe('ranges', () => {
  it('extends a range with Shift+arrows within the grid', () => {
    const r = extend({ anchor: { row: 1, col: 1 }, end: { row: 1, col: 1 } }, 1, 0, 3, 3);
    expect(boxOf(r)).toEqual({ top: 1, bottom: 2, left: 1, right: 1 });
    expect(boxOf(extend(r, 5, -5, 3, 3))).toEqual({ top: 1, bottom: 2, left: 0, right: 1 });
  });

  it('pastes a block from the top-left cell, clipped to the grid, and a single cell over the whole range', () => {
    const box = { top: 1, bottom: 1, left: 1, right: 1 };
    expect(pastePlacements(box, 2, 3, 3, 3).map((p) => [p.to.row, p.to.col, p.from.row, p.from.col])).toEqual([
      [1, 1, 0, 0],
      [1, 2, 0, 1],
      [2, 1, 1, 0],
      [2, 2, 1, 1],
    ]);
    expect(pastePlacements({ top: 0, bottom: 1, left: 0, right: 0 }, 1, 1, 5, 5)).toHaveLength(2);
  });

  it('fills down from each column top and right from each row start', () => {
    const box = { top: 0, bottom: 2, left: 0, right: 1 };
    expect(fillPlacements(box, 'down').map((p) => `${p.from.row}${p.from.col}>${p.to.row}${p.to.col}`)).toEqual([
      '00>10',
      '01>11',
      '00>20',
      '01>21',
    ]);
    expect(fillPlacements(box, 'right').map((p) => `${p.from.row}${p.from.col}>${p.to.row}${p.to.col}`)).toEqual([
      '00>01',
      '10>11',
      '20>21',
    ]);
  });
});

describe('edit history', () => {
  it('undoes and redoes whole edits, drops the redo on a new edit and skips unchanged cells', () => {
    const h = new EditHistory();
    h.record([
      { rowId: 'cogs', colId: 'M1', before: null, after: 3000 },
      { rowId: 'sm', colId: 'M1', before: 5, after: 5 },
    ]);
    h.record([{ rowId: 'cogs', colId: 'M1', before: 3000, after: 4000 }]);
    expect(h.undo()).toEqual([{ rowId: 'cogs', colId: 'M1', value: 3000 }]);
    expect(h.undo()).toEqual([{ rowId: 'cogs', colId: 'M1', value: null }]);
    expect(h.undo()).toBeNull();
    expect(h.redo()).toEqual([{ rowId: 'cogs', colId: 'M1', value: 3000 }]);
    h.record([{ rowId: 'rd', colId: 'M2', before: null, after: 1 }]);
    expect(h.canRedo).toBe(false);
    expect(h.redo()).toBeNull();
  });
});
