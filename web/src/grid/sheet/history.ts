/**
 * Undo and redo of a grid's entered values: each edit (a typed value, a paste, a fill, a clear) is one step holding
 * every cell's value before and after it. Undoing enters the values before as a new edit, so a step undone after
 * its column was saved is saved again like any other edit.
 */

export interface CellChange {
  rowId: string;
  colId: string;
  before: number | null;
  after: number | null;
}

/** A value to enter at a cell. */
export interface CellValue {
  rowId: string;
  colId: string;
  value: number | null;
}

const LIMIT = 200;

export class EditHistory {
  private done: CellChange[][] = [];
  private undone: CellChange[][] = [];

  /** Records an edit; a new edit drops what was undone. Cells whose value did not change are left out. */
  record(changes: readonly CellChange[]): void {
    const real = changes.filter((c) => c.before !== c.after);
    if (real.length === 0) return;
    this.done.push(real);
    if (this.done.length > LIMIT) this.done.shift();
    this.undone = [];
  }

  /** The values that undo the latest edit, or null when there is none. */
  undo(): CellValue[] | null {
    const step = this.done.pop();
    if (!step) return null;
    this.undone.push(step);
    return step.map(({ rowId, colId, before }) => ({ rowId, colId, value: before }));
  }

  /** The values that redo the latest undone edit, or null when there is none. */
  redo(): CellValue[] | null {
    const step = this.undone.pop();
    if (!step) return null;
    this.done.push(step);
    return step.map(({ rowId, colId, after }) => ({ rowId, colId, value: after }));
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }
}
