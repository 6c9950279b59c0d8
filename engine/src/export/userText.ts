/**
 * User text in the spreadsheet exports. The compiled grid holds formulas and text alike as strings, a formula being
 * a string that starts with '='; so a cost item named `=HYPERLINK("http://x","y")` would be taken for a formula and
 * written as one, live in Excel and Google Sheets. The exports instead take user text from the plan, at the cells the
 * layout puts it in, and always write it as text.
 */
import type { CompiledWorkbook } from '../compile/index';
import type { PlanFile } from '../schema';

/** The user text of a cell (0-based row and column), or undefined for a cell that holds none. */
export type UserTextOf = (row: number, column: number) => string | undefined;

/** Builds the user-text lookup of one sheet: the name of every cost item, in the label column of its row. */
export function userText(layout: CompiledWorkbook, plan: PlanFile, sheet: string): UserTextOf {
  const c = layout.cases.find((c) => c.sheets.costs === sheet);
  if (!c) return () => undefined;
  const names = new Map<number, string>();
  (plan.cases[c.index]?.cost_items ?? []).forEach((item, n) => {
    const row = c.costs.itemRows[n];
    if (row !== undefined) names.set(row, item.item_name);
  });
  return (row, column) => (column === 0 ? names.get(row) : undefined);
}
