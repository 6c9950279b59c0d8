/** The inputs a case of a plan file holds besides its name and growth model (MODEL.md sections 2, 5 and 7). */
import { z } from 'zod';
import {
  arpaSchema,
  arrSchema,
  churnRateSchema,
  costRateSchema,
  countSchema,
  funnelRateSchema,
  headcountSchema,
  moneySchema,
  monthNumber,
  PLAN_MONTHS,
  PLAN_YEARS,
  priceSchema,
  textSchema,
  upsellingRateSchema,
  yearNumber,
} from './bounds';

/** Per-year assumptions a user may set for one case (MODEL.md section 2); unset keys take their defaults. */
export const yearInputsSchema = z
  .object({
    arr: arrSchema,
    arpa: arpaSchema,
    upselling_rate: upsellingRateSchema,
    upselling_month: z.number().int().min(1).max(12),
    churn_rate: churnRateSchema,
    lead_rate: funnelRateSchema,
    meeting_rate: funnelRateSchema,
    order_rate: funnelRateSchema,
    registration_rate: funnelRateSchema,
    billing_rate: funnelRateSchema,
    recurring_revenue_rate: funnelRateSchema,
    cogs_rate: costRateSchema,
    sm_rate: costRateSchema,
    rd_rate: costRateSchema,
    ga_rate: costRateSchema,
    employees: headcountSchema,
  })
  .partial()
  .strict();
export type YearInputs = z.infer<typeof yearInputsSchema>;
export type YearKey = keyof YearInputs;
export const YEAR_KEYS = Object.keys(yearInputsSchema.shape) as YearKey[];

/** Cash-flow items of one month (MODEL.md section 2); beginning_cash_balance replaces the chain where set. */
export const cashInputsSchema = z
  .object({
    beginning_cash_balance: moneySchema,
    equity_raised: moneySchema,
    debt_raised: moneySchema,
    debt_payment: moneySchema,
    other: moneySchema,
  })
  .partial()
  .strict();
export type CashInputs = z.infer<typeof cashInputsSchema>;
export const CASH_KEYS = Object.keys(cashInputsSchema.shape) as (keyof CashInputs)[];

/** What a user enters for one month of actuals (MODEL.md section 5); status ACT unless reversed. */
export const actualInputsSchema = z
  .object({
    status: z.enum(['ACT', 'EST']),
    session: countSchema,
    lead: countSchema,
    meeting: countSchema,
    registration: countSchema,
    order: countSchema,
    churn: countSchema,
    arpa: arpaSchema,
    professional_service: moneySchema,
    cogs: moneySchema,
    sm: moneySchema,
    rd: moneySchema,
    ga: moneySchema,
    employees: headcountSchema,
    ...cashInputsSchema.shape,
  })
  .partial()
  .strict();
export type ActualInputs = z.infer<typeof actualInputsSchema>;
export type ActualKey = Exclude<keyof ActualInputs, 'status'>;
export const ACTUAL_KEYS = Object.keys(actualInputsSchema.shape).filter((k) => k !== 'status') as ActualKey[];

export const DAILY_METRICS = ['meeting', 'order', 'registration', 'billing'] as const;
export const dailyInputsSchema = z.object({
  meeting: countSchema.optional(),
  order: countSchema.optional(),
  registration: countSchema.optional(),
  billing: countSchema.optional(),
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

export const costItemSchema = z
  .object({
    cost_id: z.union([z.string(), z.number()]).optional(),
    item_title: z.string().refine((t) => COST_ITEM_TITLES.includes(t), {
      message: `must be one of ${COST_ITEM_TITLES.join(', ')}`,
    }),
    item_name: textSchema(1, 100),
    price: priceSchema,
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
  content: textSchema(0, 2000),
});
export type Comment = z.infer<typeof commentSchema>;

const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex colour like #1a2b3c');
export const colorSetSchema = z.object({ arr: hex, pl: hex, gross_profit: hex });
