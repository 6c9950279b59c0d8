import type { CompiledWorkbook } from './compile';
import type { PlanFile } from './schema';

/** What applying edits answers, and the workbook state it applies them to. */

/** The read models an edit can change; the API and the web refetch only these. */
export type ReadModelName = 'pl' | 'kpi' | 'revenue' | 'cost' | 'monthly' | 'dashboard' | 'home' | 'plan';

export interface ApplyResult {
  /** Read models whose numbers changed, per case index. */
  changed: { caseIndex: number; models: ReadModelName[] }[];
  /** Number of cells the workbook received. */
  cells: number;
  /**
   * What was compiled again: nothing (input cells written directly), one Assumptions sheet, the edited cases' sheets,
   * or the whole plan.
   */
  recompiled: 'none' | 'assumptions' | 'cases' | 'plan';
  /** The workbook was built afresh from the compiled sheets rather than patched (edits that change much). */
  rebuilt?: boolean;
}

/** A workbook as it stands: what HyperFormula holds was compiled as `compiled` from `plan`. */
export interface WorkbookState {
  compiled: CompiledWorkbook;
  plan: PlanFile;
}
