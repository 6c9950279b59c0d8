import { type ExplainAnswer, type ExplainQuery, explainArea, inputError } from '@topline/contract';
import { ExplainError, explain } from '@topline/engine';
import { type PlanAccess, requireScope } from './access';
import { caseIndexOf, compiledPlan, type ScreenContext } from './screens';

/**
 * The explanation of one figure, read from the plan's cached workbook. An input is offered for explaining only where
 * the caller may ask for it: its area open to them.
 */
export async function explainAnswer(ctx: ScreenContext, input: ExplainQuery): Promise<ExplainAnswer> {
  const compiled = await compiledPlan(ctx);
  const caseIndex = caseIndexOf(compiled, input.case_id);
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
