/**
 * The KPI screen's read model (working-screens.md section 3): per plan year the assumptions, the year's funnel,
 * customers, MRR, ARR and ARPA, and the same figures per month and per quarter of the estimate.
 */
import { z } from 'zod';
import { monthsOfYear } from '../calendar';
import { monthColumn, type Period, periodsOfYear, quarterColumn, yearColumn } from '../layout';
import { PLAN_YEARS, TEMPLATES, type Template } from '../schema';
import { ASSUMPTION_VALUE_KEYS, assumptionFigures, assumptionValuesSchema } from './assumptions';
import {
  brokenSchema,
  CaseReader,
  figureSchema,
  flagBroken,
  monthLabel,
  type NumberRecord,
  recordOf,
  refusedInputs,
  specValueSchema,
} from './cells';
import { footCounts } from './footing';
import { applyResidueRule, dashesSchema } from './residue';
import type { WorkbookFigures } from './source';

/** Applies the residue rule to a record of the estimate and answers the paths of its dashed figures. */
function dashPaths(path: string, r: CaseReader, sheet: string, record: NumberRecord, p: Period | undefined): string[] {
  return p ? applyResidueRule(r, { own: sheet }, p, record, false).map((key) => `${path}.${key}`) : [];
}

function kpiKeys(template: Template): string[] {
  const funnel = template === 'saas' ? ['session', 'lead', 'meeting', 'order'] : ['session', 'registration', 'order'];
  const rates = template === 'saas' ? ['lead_cvr', 'meeting_cvr', 'order_cvr'] : ['registration_cvr', 'order_cvr'];
  return [...funnel, 'churn', 'cumulative', 'mrr', 'arr', 'arpa', ...rates, 'churn_cvr'];
}

/** Self-serve plans call their paid conversions "billing" and "paid" as well as order. */
const ALIASES: Record<Template, string[]> = { saas: [], selfserve: ['billing', 'paid'] };

function withSelfServeAliases(template: Template, record: NumberRecord): NumberRecord {
  return template === 'selfserve' ? { ...record, billing: record.order ?? null, paid: record.order ?? null } : record;
}

/** The fields of a KPI record of each template: counts, rates and the self-serve aliases. */
const kpiFields = (template: Template) => [...kpiKeys(template), ...ALIASES[template]];

export const kpiRecordSchema = recordOf(TEMPLATES.map(kpiFields), figureSchema);
/** A month of the KPI screen: month ("YYYY-MM"), t, and the counts and rates. */
export const kpiMonthSchema = recordOf(
  TEMPLATES.map((template) => ['month', 't', ...kpiFields(template)]),
  specValueSchema,
);
/** A quarter of the KPI screen: quarter (1..4), progress_rate, and the counts and rates. */
export const kpiQuarterSchema = recordOf(
  TEMPLATES.map((template) => ['quarter', 'progress_rate', ...kpiFields(template)]),
  specValueSchema,
);

/**
 * A plan year of the KPI screen. Besides `assumptions`, each assumption is a field of the year itself, so `arr` is the
 * year's ARR target and `arpa` the year's ARPA assumption.
 */
export const kpiYearSchema = z.strictObject({
  year: z.int(),
  ...assumptionValuesSchema.shape,
  mrr: figureSchema,
  assumptions: recordOf([ASSUMPTION_VALUE_KEYS], figureSchema),
  yearly: kpiRecordSchema,
  monthly: z.array(kpiMonthSchema),
  quarterly: z.array(kpiQuarterSchema),
  /** Paths of figures blank because their base is zero up to residue (`monthly.2.lead_cvr`): shown as a dash. */
  dashes: dashesSchema.optional(),
  broken: brokenSchema.optional(),
});
export type KpiYear = z.infer<typeof kpiYearSchema>;

export function kpi(wb: WorkbookFigures, caseIndex: number): KpiYear[] {
  const r = new CaseReader(wb, caseIndex);
  const template = wb.plan.template;
  const keys = kpiKeys(template);
  const est = r.layout.sheets.estimate;
  const start = { year: wb.plan.start_year, month: wb.plan.start_month };
  return Array.from({ length: PLAN_YEARS }, (_, i) => {
    const year = i + 1;
    const a = assumptionFigures(wb, caseIndex, year);
    const { arr, arpa, ...others } = a;
    // Count flows as whole numbers whose quarters and year foot (footing.ts), like the monthly P&L's estimate.
    const months = monthsOfYear(year).map((t) => r.record(est, keys, monthColumn(t)));
    const quarters = [1, 2, 3, 4].map((quarter) => r.record(est, keys, quarterColumn(year, quarter)));
    const yearly = r.record(est, keys, yearColumn(year));
    const periods = periodsOfYear(year);
    const dashes = [
      ...months.flatMap((m, i) =>
        dashPaths(
          `monthly.${i}`,
          r,
          est,
          m,
          periods.find((p) => p.kind === 'month' && p.month === i + 1),
        ),
      ),
      ...quarters.flatMap((q, i) =>
        dashPaths(
          `quarterly.${i}`,
          r,
          est,
          q,
          periods.find((p) => p.kind === 'quarter' && p.quarter === i + 1),
        ),
      ),
      ...dashPaths(
        'yearly',
        r,
        est,
        yearly,
        periods.find((p) => p.kind === 'year'),
      ),
    ];
    footCounts(months, quarters, yearly);
    const kpiYear: KpiYear = {
      year,
      // The year's ARR target and ARPA assumption, like every other assumption beside them.
      arr,
      mrr: r.estimateYear('mrr', year),
      arpa,
      assumptions: a,
      ...others,
      yearly: withSelfServeAliases(template, yearly),
      monthly: monthsOfYear(year).map((t, i) => ({
        month: monthLabel(start, t),
        t,
        ...withSelfServeAliases(template, months[i] ?? {}),
      })),
      quarterly: [1, 2, 3, 4].map((quarter, i) => ({
        quarter,
        // How far along the year's ARR target the plan is at the quarter's end.
        progress_rate: r.cell(est, 'arr_progress', quarterColumn(year, quarter)),
        ...withSelfServeAliases(template, quarters[i] ?? {}),
      })),
      ...(dashes.length > 0 ? { dashes } : {}),
    };
    return flagBroken(kpiYear, refusedInputs(wb, caseIndex, year));
  });
}
