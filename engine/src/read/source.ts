/**
 * What a read model reads of a built workbook: the plan, where each case's cells sit, and the figures computed there.
 * `PlanWorkbook` is one; the read models name this rather than the class, since the class is built on them (it keeps
 * their answers).
 */
import type { CaseLayout, CompiledWorkbook } from '../compile';
import type { PlanFile, PlanFileIssue } from '../schema';

export interface WorkbookFigures {
  /** The plan's inputs as they stand now. */
  readonly plan: PlanFile;
  /** The stored inputs the plan file's bounds refused, by their path in the stored plan file. */
  readonly refused: readonly PlanFileIssue[];
  readonly layout: CompiledWorkbook;
  caseLayout(caseIndex: number): CaseLayout;
  /** A cell's figure: a number, null where blank or text, NaN where its formula could not be computed. */
  figure(sheet: string, row: number, column: number): number | null;
}
