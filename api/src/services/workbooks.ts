/** Compiled plan workbooks, cached per plan and dropped when the plan's version changes. */
export class WorkbookCache {
  private readonly entries = new Map<number, { version: number; value: unknown }>();

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
