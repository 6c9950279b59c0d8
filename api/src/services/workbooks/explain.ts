import { type ExplainAnswer, type ExplainQuery, explainArea, inputError } from '@topline/contract';
import { ExplainError, explain, explainAgainstSnapshot } from '@topline/engine';
import { type PlanAccess, requireScope } from '../access/access';
import { planOfRecord } from './planOfRecord';
import { caseIndexOf, compiledPlan, type ScreenContext } from './screens';
import type { CompiledPlan } from './workbooks';

/**
 * The explanation of one figure, read from the plan's cached workbook. An input is offered for explaining only where
 * the caller may ask for it: its area open to them.
 */
export async function explainAnswer(ctx: ScreenContext, input: ExplainQuery): Promise<ExplainAnswer> {
  const compiled = await compiledPlan(ctx);
  const caseIndex = caseIndexOf(compiled, input.case_id);
  const view = input.view ?? 'estimate';
  if (input.snapshot_id !== undefined && (view === 'progress' || view.startsWith('difference_'))) {
    return againstSnapshot(ctx, compiled, caseIndex, input, input.snapshot_id);
  }
  let answer: ExplainAnswer;
  try {
    answer = explain(compiled.workbook, {
      caseIndex,
      year: input.year,
      period: input.period,
      key: input.key,
      view: input.view ?? 'estimate',
      language: input.lang ?? 'en',
    });
  } catch (error) {
    // A key of the other template (registrations of a saas plan).
    if (error instanceof ExplainError) throw inputError('key', 'this plan has no such figure');
    throw error;
  }
  return {
    ...answer,
    inputs: answer.inputs.map((i) => ({ ...i, explainable: i.explainable && mayAsk(ctx.access, i.key) })),
  };
}

function mayAsk(access: PlanAccess, key: string): boolean {
  try {
    requireScope(access, explainArea(key), 'read');
    return true;
  } catch {
    return false;
  }
}

/** A figure of a comparison view read against a snapshot: its estimate the budget (`explainAgainstSnapshot`). */
async function againstSnapshot(
  ctx: ScreenContext,
  compiled: CompiledPlan,
  caseIndex: number,
  input: ExplainQuery,
  snapshotId: number,
): Promise<ExplainAnswer> {
  const record = await planOfRecord(ctx.db, ctx.access, compiled, caseIndex, snapshotId, ctx.today);
  const language = input.lang ?? 'en';
  const request = { caseIndex, year: input.year, period: input.period, key: input.key, language };
  let rowLabel: string;
  try {
    rowLabel = explain(compiled.workbook, { ...request, view: 'estimate' }).label;
  } catch (error) {
    if (error instanceof ExplainError) throw inputError('key', 'this plan has no such figure');
    throw error;
  }
  const view = input.view as 'progress' | 'difference_value' | 'difference_rate';
  const answer = explainAgainstSnapshot(compiled.workbook, caseIndex, record, {
    ...request,
    view,
    rowLabel,
    name: record.name,
  });
  return {
    ...answer,
    inputs: answer.inputs.map((i) => ({ ...i, explainable: i.explainable && mayAsk(ctx.access, i.key) })),
  };
}
