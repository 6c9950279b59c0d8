/**
 * A sheet as the spreadsheet exports write it, and the values of the sheets the engine's workbook does not hold,
 * computed by HyperFormula over the values of the sheets it does.
 */
import { HyperFormula, type RawCellContent } from 'hyperformula';
import type { Grid } from '../compile/index';
import { HYPERFORMULA_CONFIG, type PlanWorkbook, type Value } from '../workbook';
import type { CellFormatOf } from './formats';
import type { UserTextOf } from './userText';

export interface ExportSheet {
  name: string;
  /** Cell contents: numbers, text, formulas starting with '='. */
  grid: Grid;
  /**
   * The value of each cell (a constant's own value): the engine's, or for a sheet the engine's workbook does not hold
   * (the Actual sheet of a case without ACT months and the sheets after it, the side sheets) what its formulas compute
   * over the engine's values. Every sheet `exportSheets` returns has them.
   */
  values?: Value[][];
  formatOf: CellFormatOf;
  textOf: UserTextOf;
  frozenColumns: number;
  hidden?: boolean;
}

/**
 * The values of the sheets the engine's workbook does not hold, for the plan as exported (their formulas' cached
 * results, so that a reader that does not recalculate shows them too): the side sheets, and the Actual, ActualToDate,
 * EstimateToDate and Variance sheets of a case without ACT months. HyperFormula computes them over the other sheets'
 * values, as the engine computes its own.
 */
export function computeValues(wb: PlanWorkbook, sheets: ExportSheet[], targets: ExportSheet[]): void {
  if (targets.length === 0) return;
  const data: Record<string, RawCellContent[][]> = {};
  // Only the sheets the targets read, directly or through a sheet the engine holds no values of.
  const byName = new Map(sheets.map((s) => [s.name, s]));
  const pending = [...targets, ...wb.layout.names.map((n) => ({ grid: [[n.expression]] }))];
  const needed = new Set<string>();
  while (pending.length > 0) {
    const next = pending.pop();
    for (const row of next?.grid ?? []) {
      for (const content of row) {
        if (typeof content !== 'string' || !content.startsWith('=')) continue;
        for (const m of content.matchAll(/('(?:[^']|'')+'|[A-Za-z_][\w.]*)!/g)) {
          const name = (m[1] ?? '').replace(/^'|'$/g, '').replace(/''/g, "'");
          const s = byName.get(name);
          if (!s || needed.has(name)) continue;
          needed.add(name);
          if (!s.values) pending.push(s);
        }
      }
    }
  }
  // A text value that looks like a formula (a cost item's name) is not one here.
  const text = (v: Value) => (typeof v === 'string' && v.startsWith('=') ? null : v);
  for (const name of needed) {
    const s = byName.get(name);
    if (s) data[name] = s.values ? s.values.map((row) => row.map(text)) : s.grid;
  }
  for (const s of targets) data[s.name] = s.grid;
  const hf = HyperFormula.buildFromSheets(
    data,
    { ...HYPERFORMULA_CONFIG },
    wb.layout.names.map((n) => ({ name: n.name, expression: n.expression })),
  );
  try {
    for (const s of targets) {
      const id = hf.getSheetId(s.name) ?? -1;
      s.values = s.grid.map((row, r) =>
        row.map((content, col) => {
          if (typeof content !== 'string' || !content.startsWith('=')) return content;
          const v = hf.getCellValue({ sheet: id, row: r, col });
          return v === null || typeof v !== 'object' ? (v as Value) : null;
        }),
      );
    }
  } finally {
    hf.destroy();
  }
}
