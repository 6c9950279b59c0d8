/**
 * The plan's XLSX against a snapshot (issue 40, point 3): per case, a `VsSnapshot` sheet with the snapshot's estimate
 * (the frozen plan of record, as constants: the engine's figures of the snapshot's stored inputs) and the progress and
 * difference of the case's actual view against it, in every month, quarter and year of the plan, as formulas over the
 * case's own sheet and those constants; so an actual typed into the workbook moves the comparison. The formulas are
 * the Variance sheet's (progress = actual / budget, difference = actual - budget as a value, actual / budget - 1 as a
 * rate, blank where a side is); like every sheet of the exports they keep the workbook's figures as computed, where
 * the screens show counts footed and a rate over a zero base as a dash (`read/snapshotVariance.ts`).
 */
import { safeRatio } from '../compile/formulas';
import type { Grid } from '../compile/index';
import { ALL_PERIODS, a1, monthColumn, periodColumn } from '../layout';
import { CaseReader } from '../read/cells';
import { type PlanOfRecord, snapshotCaseIndex } from '../read/snapshotVariance';
import type { PlanWorkbook, Value } from '../workbook';
import { type FormatKind, metricFormat } from './formats';
import { quoteSheet } from './references';
import type { ExportSheet } from './sheetValues';

const BLOCKS = ['snapshot_estimate', 'progress', 'difference_value', 'difference_rate'] as const;
type Block = (typeof BLOCKS)[number];

/** The sheet's workbook name for a case: renamed after the case in the file, as the case's other sheets. */
export const snapshotSheetName = (caseIndex: number) => `C${caseIndex + 1}_VsSnapshot`;

function compared(block: Block, a: number | null, b: number | null): Value {
  if (a === null || b === null || !Number.isFinite(a) || !Number.isFinite(b)) return null;
  if (block === 'difference_value') return a - b;
  if (b === 0) return null;
  return block === 'progress' ? a / b : a / b - 1;
}

/** A case's `VsSnapshot` sheet: the snapshot's estimate and the case's actual view compared with it. */
export function snapshotSheet(wb: PlanWorkbook, caseIndex: number, record: PlanOfRecord, name: string): ExportSheet {
  const live = new CaseReader(wb, caseIndex);
  const budget = new CaseReader(record.workbook, record.caseIndex);
  const rows = live.layout.varianceRows;
  const header = wb.layout.sheets[live.layout.sheets.estimate]?.[0] ?? [];
  const columns = ALL_PERIODS.map((p) => (p.kind === 'month' ? monthColumn(p.t) : periodColumn(p)));
  const width = Math.max(header.length, ...columns.map((c) => c + 1));
  const grid: Grid = [];
  const values: Value[][] = [];
  const formats: (FormatKind | undefined)[] = [];
  const line = (first: string, cells: { formula: string | number | null; value: Value }[] = []) => {
    const g: Grid[number] = Array.from({ length: width }, () => null);
    const v: Value[] = Array.from({ length: width }, () => null);
    g[0] = first;
    v[0] = first;
    columns.forEach((c, i) => {
      const cell = cells[i];
      if (!cell) return;
      g[c] = cell.formula;
      v[c] = cell.value;
    });
    grid.push(g);
    values.push(v);
  };
  line(`Snapshot: ${name}`);
  header.forEach((label, c) => {
    if (c > 0) {
      (grid[0] as Grid[number])[c] = label;
      (values[0] as Value[])[c] = label as Value;
    }
  });
  formats.push(undefined);
  // The sheet row of each key's snapshot estimate, which the comparisons read.
  const budgetRow = new Map<string, number>();
  const liveSheet = quoteSheet(live.viewSheet);
  for (const block of BLOCKS) {
    line(block);
    formats.push(undefined);
    for (const row of rows) {
      const sheetRow = live.layout.rowOf[row.key];
      const kind = metricFormat(row.key);
      if (block === 'snapshot_estimate') {
        budgetRow.set(row.key, grid.length);
        line(
          row.label,
          columns.map((c) => {
            const b = budget.cell(budget.layout.sheets.estimate, row.key, c);
            const value = b !== null && Number.isFinite(b) ? b : null;
            return { formula: value, value };
          }),
        );
        formats.push(kind);
        continue;
      }
      const at = budgetRow.get(row.key) ?? 0;
      line(
        row.label,
        columns.map((c) => {
          if (sheetRow === undefined) return { formula: null, value: null };
          const a = a1(sheetRow, c, liveSheet);
          const b = a1(at, c);
          const formula =
            block === 'difference_value'
              ? `=IF(OR(${a}="",${b}=""),"",${a}-${b})`
              : safeRatio(a, b, block === 'difference_rate' ? '-1' : '');
          const value = compared(
            block,
            live.cell(live.viewSheet, row.key, c),
            budget.cell(budget.layout.sheets.estimate, row.key, c),
          );
          return { formula, value };
        }),
      );
      formats.push(block === 'difference_value' ? (kind === 'rate' ? 'points' : kind) : 'rate');
    }
  }
  return {
    name: snapshotSheetName(caseIndex),
    grid,
    values,
    formatOf: (r, c) => (c > 0 ? formats[r] : undefined),
    // The snapshot's name is user text: always written as text.
    textOf: (r, c) => (r === 0 && c === 0 ? `Snapshot: ${name}` : undefined),
    frozenColumns: 1,
  };
}

/** Every case's `VsSnapshot` sheet, each against the snapshot's case that is its budget. */
export function snapshotSheets(wb: PlanWorkbook, snapshot: PlanWorkbook, name: string): ExportSheet[] {
  return wb.plan.cases.map((_, i) =>
    snapshotSheet(wb, i, { workbook: snapshot, caseIndex: snapshotCaseIndex(wb, i, snapshot) }, name),
  );
}
