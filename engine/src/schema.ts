/**
 * The plan file (MODEL.md section 9): a business plan's inputs as one JSON document. Only inputs live here;
 * every other number is computed by the workbook. Rates are fractions, months are plan month indexes t (1..72),
 * years are plan years 1..6, and anything left out takes its default (MODEL.md section 2).
 */
import { z } from 'zod';

export const TEMPLATES = ['saas', 'selfserve'] as const;
export const CURRENCIES = ['JPY', 'USD'] as const;
export const MODEL_NAMES = ['t2d3', 'sansan', 'freee', 'salesforce', 'wix', 'okta', 'workday', 'custom'] as const;
export const PLAN_YEARS = 6;
export const PLAN_MONTHS = 72;
export const MAX_CASES = 3;

/** Growth templates: the multiples m1..m5 of MODEL.md section 2. */
export const GROWTH_TEMPLATES: Record<Exclude<ModelName, 'custom'>, readonly number[]> = {
  t2d3: [3, 3, 2, 2, 2],
  sansan: [1.6, 1.5, 1.5, 1.4, 1.3],
  freee: [2.6, 2.1, 2.0, 1.9, 1.5],
  salesforce: [4.4, 2.3, 1.9, 1.8, 1.8],
  wix: [2.5, 1.8, 1.8, 1.4, 1.4],
  okta: [2.7, 2, 2, 1.7, 1.7],
  workday: [2.7, 2.0, 2.0, 1.7, 1.7],
};

export type Template = (typeof TEMPLATES)[number];
export type Currency = (typeof CURRENCIES)[number];
export type ModelName = (typeof MODEL_NAMES)[number];

const rate = z.number().finite().min(0).max(10);
const positiveRate = z.number().finite().gt(0).max(1);
const money = z.number().finite();
const count = z.number().finite().min(0);

/** Per-year assumptions a user may set for one case (MODEL.md section 2); unset keys take their defaults. */
export const yearInputsSchema = z
  .object({
    arr: z.number().finite().gt(0),
    arpa: z.number().finite().gt(0),
    upselling_rate: z.number().finite().min(-0.99).max(10),
    upselling_month: z.number().int().min(1).max(12),
    churn_rate: z.number().finite().min(0).max(1),
    lead_rate: positiveRate,
    meeting_rate: positiveRate,
    order_rate: positiveRate,
    registration_rate: positiveRate,
    billing_rate: positiveRate,
    recurring_revenue_rate: positiveRate,
    cogs_rate: rate,
    sm_rate: rate,
    rd_rate: rate,
    ga_rate: rate,
    employees: z.number().int().min(0).max(1_000_000),
  })
  .partial()
  .strict();
export type YearInputs = z.infer<typeof yearInputsSchema>;
export type YearKey = keyof YearInputs;
export const YEAR_KEYS = Object.keys(yearInputsSchema.shape) as YearKey[];

/** Cash-flow items of one month (MODEL.md section 2); beginning_cash_balance replaces the chain where set. */
export const cashInputsSchema = z
  .object({
    beginning_cash_balance: money,
    equity_raised: money,
    debt_raised: money,
    debt_payment: money,
    other: money,
  })
  .partial()
  .strict();
export type CashInputs = z.infer<typeof cashInputsSchema>;
export const CASH_KEYS = Object.keys(cashInputsSchema.shape) as (keyof CashInputs)[];

/** What a user enters for one month of actuals (MODEL.md section 5); status ACT unless reversed. */
export const actualInputsSchema = z
  .object({
    status: z.enum(['ACT', 'EST']),
    session: count,
    lead: count,
    meeting: count,
    registration: count,
    order: count,
    churn: count,
    arpa: z.number().finite().gt(0),
    professional_service: money,
    cogs: money,
    sm: money,
    rd: money,
    ga: money,
    employees: z.number().int().min(0).max(1_000_000),
    ...cashInputsSchema.shape,
  })
  .partial()
  .strict();
export type ActualInputs = z.infer<typeof actualInputsSchema>;
export type ActualKey = Exclude<keyof ActualInputs, 'status'>;
export const ACTUAL_KEYS = Object.keys(actualInputsSchema.shape).filter((k) => k !== 'status') as ActualKey[];

export const DAILY_METRICS = ['meeting', 'order', 'registration', 'billing'] as const;
export const dailyInputsSchema = z.object({
  meeting: count.optional(),
  order: count.optional(),
  registration: count.optional(),
  billing: count.optional(),
});
export type DailyInputs = z.infer<typeof dailyInputsSchema>;

export const REVISION_PATTERNS = ['upward', 'downward'] as const;
export const revisionSchema = z.object({
  pattern: z.enum(REVISION_PATTERNS),
  /** L: the latest ACT month of the year when the revision was made (a plan month index). */
  month: z.number().int().min(1).max(PLAN_MONTHS),
});
export type Revision = z.infer<typeof revisionSchema>;

export const COST_GROUPS = ['cogs', 'sm', 'rd', 'ga'] as const;
export type CostGroup = (typeof COST_GROUPS)[number];
/** Cost item categories per group (MODEL.md section 7); the key is `group_category`. */
export const COST_CATEGORIES: Record<CostGroup, readonly string[]> = {
  cogs: ['labor', 'infrastructure', 'other'],
  sm: ['labor', 'advertising', 'other'],
  rd: ['labor', 'other'],
  ga: ['labor', 'land_rent', 'other'],
};
export const COST_ITEM_TITLES = COST_GROUPS.flatMap((g) => COST_CATEGORIES[g].map((c) => `${g}_${c}`));

const yearNumber = z.number().int().min(1900).max(2200);
const monthNumber = z.number().int().min(1).max(12);

export const costItemSchema = z
  .object({
    cost_id: z.union([z.string(), z.number()]).optional(),
    item_title: z.string().refine((t) => COST_ITEM_TITLES.includes(t), {
      message: `must be one of ${COST_ITEM_TITLES.join(', ')}`,
    }),
    item_name: z.string().min(1).max(100),
    price: z.number().finite().min(0),
    start_year: yearNumber,
    start_month: monthNumber,
    end_year: yearNumber,
    end_month: monthNumber,
  })
  .refine((i) => i.start_year * 12 + i.start_month <= i.end_year * 12 + i.end_month, {
    message: 'the end date cannot be earlier than the start date',
    path: ['end_month'],
  });
export type CostItem = z.infer<typeof costItemSchema>;

export const COMMENT_SECTIONS = ['estimate', 'actual', 'difference'] as const;
export const commentSchema = z.object({
  year: z.number().int().min(1).max(PLAN_YEARS),
  /** Month within the plan year, 1..12. */
  column_name: z.number().int().min(1).max(12),
  section: z.enum(COMMENT_SECTIONS),
  content: z.string().max(2000),
});
export type Comment = z.infer<typeof commentSchema>;

const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex colour like #1a2b3c');
export const colorSetSchema = z.object({ arr: hex, pl: hex, gross_profit: hex });

/** Object keyed by a decimal index within [min, max]. */
function indexed<T extends z.ZodType>(value: T, min: number, max: number, what: string) {
  return z.record(
    z.string().refine((k) => /^\d+$/.test(k) && Number(k) >= min && Number(k) <= max, {
      message: `must be a ${what} from ${min} to ${max}`,
    }),
    value,
  );
}

export const modelSchema = z
  .object({
    model_name: z.enum(MODEL_NAMES),
    model_rate: z.array(z.number().finite().gt(0).max(100)).length(5),
  })
  .strict();
export type GrowthModel = z.infer<typeof modelSchema>;

export const caseSchema = z
  .object({
    case_name: z.string().min(1).max(50),
    case_rate: z.number().finite().gt(0).max(100).default(1),
    model: modelSchema.default({ model_name: 't2d3', model_rate: [3, 3, 2, 2, 2] }),
    years: indexed(yearInputsSchema, 1, PLAN_YEARS, 'plan year').default({}),
    cash: indexed(cashInputsSchema, 1, PLAN_MONTHS, 'plan month').default({}),
    actuals: indexed(actualInputsSchema, 1, PLAN_MONTHS, 'plan month').default({}),
    daily: z
      .record(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD'), dailyInputsSchema)
      .default({}),
    revisions: indexed(revisionSchema, 1, PLAN_YEARS, 'plan year').default({}),
    cost_items: z.array(costItemSchema).default([]),
    comments: z.array(commentSchema).default([]),
    colors: z.array(colorSetSchema).length(3).optional(),
  })
  .strict();
export type PlanCase = z.infer<typeof caseSchema>;
export type PlanCaseInput = z.input<typeof caseSchema>;

export const planFileSchema = z
  .object({
    business_plan_name: z.string().min(1).max(50),
    template: z.enum(TEMPLATES),
    currency: z.enum(CURRENCIES),
    arr: z.number().finite().gt(0),
    period: z.number().int().min(1).max(12).default(12),
    arpa: z.number().finite().gt(0),
    start_year: yearNumber,
    start_month: monthNumber,
    cases: z.array(caseSchema).min(1).max(MAX_CASES),
  })
  .strict()
  .superRefine((plan, ctx) => {
    plan.cases.forEach((c, ci) => {
      for (const [y, rev] of Object.entries(c.revisions)) {
        const year = Number(y);
        if (rev.month < 12 * (year - 1) + 1 || rev.month >= 12 * year) {
          ctx.addIssue({
            code: 'custom',
            path: ['cases', ci, 'revisions', y, 'month'],
            message: `must be a month of year ${year} before its last month (${12 * (year - 1) + 1} to ${12 * year - 1})`,
          });
        }
      }
    });
  });
export type PlanFile = z.infer<typeof planFileSchema>;
export type PlanFileInput = z.input<typeof planFileSchema>;

/** A named, field-level validation failure of a plan file. */
export class PlanFileError extends Error {
  override readonly name = 'PlanFileError';
  constructor(readonly issues: { path: string; message: string }[]) {
    super(issues.map((i) => `${i.path || '(plan)'}: ${i.message}`).join('\n'));
  }
}

/**
 * Validates a plan file and fills in defaults.
 * @throws {PlanFileError} naming every invalid field by its path, e.g. `cases.0.years.1.churn_rate`.
 */
export function parsePlanFile(input: unknown): PlanFile {
  const result = planFileSchema.safeParse(input);
  if (!result.success) {
    throw new PlanFileError(result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  }
  return result.data;
}
