/**
 * The revenue screen's read model (working-screens.md section 3): recurring and professional-service revenue of the
 * estimate per plan year and month.
 */
import { z } from 'zod';
import { monthsOfYear } from '../calendar';
import { PLAN_YEARS } from '../schema';
import { assumptionFigures } from './assumptions';
import { brokenSchema, CaseReader, figureSchema as figure, flagBroken, monthLabel, refusedInputs } from './cells';
import type { WorkbookFigures } from './source';

export const revenueMonthSchema = z.strictObject({
  /** Calendar month "YYYY-MM". */
  month: z.string(),
  t: z.int(),
  mrr: figure,
  professional_service: figure,
  revenue: figure,
  /** The spec's alias of revenue. */
  sales: figure,
  cumulative_revenue: figure,
});

export const revenueYearSchema = z.strictObject({
  year: z.int(),
  mrr: figure,
  revenue: figure,
  professional_service: figure,
  recurring_revenue_rate: figure,
  professional_service_rate: figure,
  monthly: z.array(revenueMonthSchema),
  broken: brokenSchema.optional(),
});
export type RevenueYear = z.infer<typeof revenueYearSchema>;

export function revenue(wb: WorkbookFigures, caseIndex: number): RevenueYear[] {
  const r = new CaseReader(wb, caseIndex);
  const start = { year: wb.plan.start_year, month: wb.plan.start_month };
  return Array.from({ length: PLAN_YEARS }, (_, i) => {
    const year = i + 1;
    const revenueYear: RevenueYear = {
      year,
      mrr: r.estimateYear('mrr', year),
      revenue: r.estimateYear('revenue', year),
      professional_service: r.estimateYear('professional_service', year),
      recurring_revenue_rate: assumptionFigures(wb, caseIndex, year).recurring_revenue_rate,
      professional_service_rate: r.estimateYear('professional_service_rate', year),
      monthly: monthsOfYear(year).map((t) => ({
        month: monthLabel(start, t),
        t,
        mrr: r.estimateAt('mrr', t),
        professional_service: r.estimateAt('professional_service', t),
        revenue: r.estimateAt('revenue', t),
        sales: r.estimateAt('revenue', t),
        cumulative_revenue: r.estimateAt('cumulative_revenue', t),
      })),
    };
    return flagBroken(revenueYear, refusedInputs(wb, caseIndex, year));
  });
}
