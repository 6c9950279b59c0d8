/**
 * Cases side by side and the revise preview (contract `comparison.ts`): the engine's read models of the plan's
 * cached workbook, with each case's id beside its index. Every number is the engine's.
 */
import { asOfMonth, badRequest } from '@topline/contract';
import { type ComparedSnapshot, caseComparison, EditError, revisionPreview } from '@topline/engine';
import { comparisonSheet } from '@topline/engine/export';
import { xlsxOffThread } from '../spreadsheets/xlsxExport';
import { caseIndexOf, compiledPlan, type ScreenContext } from './screens';

/** Every case's plan-year figures and its difference from the base case. */
export async function compareAnswer(ctx: ScreenContext) {
  const compiled = await compiledPlan(ctx);
  const { cases } = caseComparison(compiled.workbook);
  return { cases: cases.map((c) => ({ ...c, case_id: compiled.caseIds[c.case_index] ?? 0 })) };
}

/** The plan's XLSX with the comparison sheet (and a snapshot's rows), and the case names for its file name. */
export async function compareXlsx(
  ctx: ScreenContext,
  snapshot?: ComparedSnapshot,
): Promise<{ bytes: Uint8Array; caseNames: string[] }> {
  const { workbook } = await compiledPlan(ctx);
  const extraSheets = [comparisonSheet(workbook, snapshot)];
  const bytes = await xlsxOffThread(workbook, { planId: ctx.access.plan.id, extraSheets });
  return { bytes, caseNames: workbook.plan.cases.map((c) => c.case_name) };
}

/**
 * What revising a case's plan year would leave, per pattern: the engine applies each to a copy of the plan's
 * workbook as the save applies it. A year that cannot be revised is a 400 on `year`, as the save answers.
 */
export async function revisePreviewAnswer(ctx: ScreenContext, caseId: number, year: number) {
  const compiled = await compiledPlan(ctx);
  const index = caseIndexOf(compiled, caseId);
  try {
    const preview = revisionPreview(compiled.workbook.plan, index, year, asOfMonth(ctx.today));
    return { ...preview, case_id: caseId };
  } catch (error) {
    if (error instanceof EditError) throw badRequest({ [error.field]: error.reason });
    throw error;
  }
}
