/**
 * The effective assumptions of a case's plan year (MODEL.md section 2): stored values and the defaults' results alike,
 * read from the case's Assumptions sheet.
 */
import { z } from 'zod';
import { assumptionRow } from '../compile/assumptions';
import { figureSchema as figure } from './cells';
import type { WorkbookFigures } from './source';

export const assumptionValuesSchema = z.strictObject({
  arpa: figure,
  upselling_month: figure,
  upselling_rate: figure,
  churn_rate: figure,
  lead_rate: figure,
  meeting_rate: figure,
  order_rate: figure,
  registration_rate: figure,
  billing_rate: figure,
  recurring_revenue_rate: figure,
  cogs_rate: figure,
  sm_rate: figure,
  rd_rate: figure,
  ga_rate: figure,
  employees: figure,
  /** The year's ARR target. */
  arr: figure,
  mrr_target: figure,
  growth_multiple: figure,
  case_rate: figure,
});
export type AssumptionValues = z.infer<typeof assumptionValuesSchema>;
export const ASSUMPTION_VALUE_KEYS = Object.keys(assumptionValuesSchema.shape) as (keyof AssumptionValues)[];

/** Effective assumptions of a year: stored values and the defaults' results alike; blank where not computed. */
export function assumptions(wb: WorkbookFigures, caseIndex: number, year: number): AssumptionValues {
  const out = assumptionFigures(wb, caseIndex, year);
  for (const key of ASSUMPTION_VALUE_KEYS) if (Number.isNaN(out[key])) out[key] = null;
  return out;
}

/** The assumptions of a year as the read models take them: NaN where a figure could not be computed. */
export function assumptionFigures(wb: WorkbookFigures, caseIndex: number, year: number): AssumptionValues {
  const sheet = wb.caseLayout(caseIndex).sheets.assumptions;
  const out = {} as AssumptionValues;
  for (const key of ASSUMPTION_VALUE_KEYS) {
    out[key] = wb.figure(sheet, assumptionRow(key), key === 'case_rate' ? 1 : year);
  }
  return out;
}
