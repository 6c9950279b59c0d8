/**
 * Runs the planning engine in the browser for the wizard's summary. This module (and HyperFormula with it) is only
 * loaded through a dynamic import, so it stays out of the first bundle.
 */
import { PlanWorkbook } from '@topline/engine';
import { type EngineInput, summarise, type WizardSummary } from './summary';

export function computeSummary(input: EngineInput): WizardSummary {
  const workbook = PlanWorkbook.build({
    business_plan_name: 'summary',
    template: input.template,
    currency: input.currency,
    arr: input.arr,
    period: input.period,
    arpa: input.arpa,
    start_year: input.start_year,
    start_month: input.start_month,
    cases: [
      { case_name: 'Base case', case_rate: 1, model: { model_name: input.model_name, model_rate: input.model_rate } },
    ],
  });
  const months = workbook
    .monthlyGrid(0, 1, 'estimate')
    .filter((column) => column.monthType === 'month')
    .map((column) => column.values);
  workbook.destroy();
  return summarise(months, input.period);
}
