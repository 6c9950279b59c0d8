import type { CompiledWorkbook } from './compile';
import type { PlanEdit } from './edits';

/** When edits rebuild HyperFormula from the compiled sheets rather than patch it cell by cell. */

/**
 * Above this share of the workbook's cells differing, edits rebuild HyperFormula rather than patch it: writing a cell
 * into a built workbook costs several times what a fresh build spends on it (bench/import.ts).
 */
export const REBUILD_SHARE = 0.1;

/** The cases whose sheets a compile changed (every case when the Plan sheet or the names changed). */
export function rebuiltCases(before: CompiledWorkbook, after: CompiledWorkbook): number[] {
  const planChanged =
    before.sheets.Plan !== after.sheets.Plan || JSON.stringify(before.names) !== JSON.stringify(after.names);
  return after.cases
    .filter((c) => {
      if (planChanged) return true;
      const was = before.cases[c.index];
      const names = new Set([...Object.values(c.sheets), ...Object.values(was?.sheets ?? {})]);
      return [...names].some((n) => n !== undefined && before.sheets[n] !== after.sheets[n]);
    })
    .map((c) => c.index);
}

/** Months turning ACT at once from which edits rebuild without comparing the compiles (a month of actuals each). */
export const REBUILD_MONTHS = 6;

/** How many (case, month) pairs the edits save actuals for that are not ACT yet. */
export function monthsTurningAct(before: CompiledWorkbook, edits: PlanEdit[]): number {
  const turning = new Set<string>();
  for (const e of edits) {
    if (e.type === 'actual' && !before.cases[e.caseIndex]?.act.includes(e.month))
      turning.add(`${e.caseIndex}/${e.month}`);
  }
  return turning.size;
}

/** How many (case, month) pairs are ACT in `after` and were not in `before` (cases by index). */
export function actMonthsAdded(before: CompiledWorkbook, after: CompiledWorkbook): number {
  let n = 0;
  for (const layout of after.cases) {
    const was = new Set(before.cases[layout.index]?.act ?? []);
    n += layout.act.filter((month) => !was.has(month)).length;
  }
  return n;
}

export function totalCells(compiled: CompiledWorkbook): number {
  let n = 0;
  for (const grid of Object.values(compiled.sheets)) for (const row of grid) n += row.length;
  return n;
}

/**
 * How many cells of the sheets both compiles hold differ: the cells a patch writes one by one. A sheet added is set
 * whole, at about the cost a build spends on it, and does not count.
 */
export function differingCells(before: CompiledWorkbook, after: CompiledWorkbook): number {
  let n = 0;
  for (const [name, grid] of Object.entries(after.sheets)) {
    const old = before.sheets[name];
    if (!old || old === grid) continue;
    const rows = Math.max(old.length, grid.length);
    for (let r = 0; r < rows; r++) {
      const a = old[r] ?? [];
      const b = grid[r] ?? [];
      if (a === b) continue;
      const columns = Math.max(a.length, b.length);
      for (let c = 0; c < columns; c++) if ((a[c] ?? null) !== (b[c] ?? null)) n++;
    }
  }
  return n;
}
