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

/**
 * Bounds of every stored number (engine/README.md, "Bounds of the stored numbers"). They are wide enough for any
 * start-up's plan and narrow enough that every figure the workbook derives from them stays a finite number: every
 * stored number has a largest size and, unless it is zero, a smallest one. Counts are whole and amounts are zero or at
 * least a cent, so that differences of entered figures are zero or of a size the ratios can divide by. The contract's
 * request schemas reuse these constants and field schemas.
 */
/** The largest amount of money, in the plan's currency, either way (1,000,000,000,000). */
export const MONEY_MAX = 1e12;
/** The smallest amount other than zero: a cent. Amounts are zero or at least this in size. */
export const MONEY_MIN = 0.01;
/** The smallest target ARR (the plan's and a year's override). */
export const ARR_MIN = MONEY_MIN;
/** Monthly revenue per account: at least a cent, at most 1,000,000,000. */
export const ARPA_MIN = MONEY_MIN;
export const ARPA_MAX = 1e9;
/** Counts of a month or a day (sessions, leads, meetings, registrations, orders, churned customers): whole numbers. */
export const COUNT_MAX = 1e9;
/** Head count (an override of the plan's, or an actual): a whole number. */
export const HEADCOUNT_MAX = 1_000_000;
/** The smallest rate other than zero: 0.01%. Rates that may be zero are zero or at least this. */
export const RATE_MIN = 0.0001;
/** Funnel conversion rates and the recurring share of revenue: from 0.01% to 100%. */
export const FUNNEL_RATE_MIN = RATE_MIN;
export const FUNNEL_RATE_MAX = 1;
/** Cost budgets as a share of revenue (COGS, S&M, R&D, G&A): 0, or from 0.01% to 1000%. */
export const COST_RATE_MAX = 10;
/** The monthly churn rate: 0, or from 0.01% to 100%. */
export const CHURN_RATE_MAX = 1;
/** The upselling step of ARPA within a year: from -99% to +1000%. */
export const UPSELLING_RATE_MIN = -0.99;
export const UPSELLING_RATE_MAX = 10;
/** The case rate and the growth multiples m1..m5: from 0.01 to 100 times. */
export const MULTIPLE_MIN = 0.01;
export const MULTIPLE_MAX = 100;

/** An amount of money in the plan's currency: within ±MONEY_MAX, zero or at least MONEY_MIN in size. */
export const moneySchema = z
  .number()
  .min(-MONEY_MAX)
  .max(MONEY_MAX)
  .refine((n) => n === 0 || Math.abs(n) >= MONEY_MIN, {
    message: `must be 0 or at least ${MONEY_MIN} in size`,
  });
/** A price or other amount that cannot be negative. */
export const priceSchema = moneySchema.refine((n) => n >= 0, { message: 'must not be negative' });
/** A target ARR: from ARR_MIN to MONEY_MAX. */
export const arrSchema = z.number().min(ARR_MIN).max(MONEY_MAX);
/** A monthly ARPA: from ARPA_MIN to ARPA_MAX. */
export const arpaSchema = z.number().min(ARPA_MIN).max(ARPA_MAX);
/** A count of a month or a day: a whole number from 0 to COUNT_MAX. */
export const countSchema = z.number().int().min(0).max(COUNT_MAX);
/** A head count: a whole number from 0 to HEADCOUNT_MAX. */
export const headcountSchema = z.number().int().min(0).max(HEADCOUNT_MAX);
/** A funnel conversion rate or the recurring share of revenue, as a fraction. */
export const funnelRateSchema = z.number().min(FUNNEL_RATE_MIN).max(FUNNEL_RATE_MAX);
const zeroOrAtLeast = (min: number) => (n: number) => n === 0 || n >= min;
/** A cost budget as a share of revenue, as a fraction. */
export const costRateSchema = z
  .number()
  .min(0)
  .max(COST_RATE_MAX)
  .refine(zeroOrAtLeast(RATE_MIN), { message: `must be 0 or at least ${RATE_MIN}` });
/** A monthly churn rate, as a fraction. */
export const churnRateSchema = z
  .number()
  .min(0)
  .max(CHURN_RATE_MAX)
  .refine(zeroOrAtLeast(RATE_MIN), { message: `must be 0 or at least ${RATE_MIN}` });
/** An upselling step of ARPA, as a fraction. */
export const upsellingRateSchema = z.number().min(UPSELLING_RATE_MIN).max(UPSELLING_RATE_MAX);
/** A case rate or a growth multiple. */
export const multipleSchema = z.number().min(MULTIPLE_MIN).max(MULTIPLE_MAX);

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

/** Text a database column can hold: no NUL character and no lone UTF-16 surrogate. */
export const isStorableText = (value: string): boolean => !value.includes('\u0000') && !LONE_SURROGATE.test(value);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const textSchema = (min: number, max: number) =>
  z.string().min(min).max(max).refine(isStorableText, { message: 'holds a character that cannot be stored' });

const yearNumber = z.number().int().min(1900).max(2200);
const monthNumber = z.number().int().min(1).max(12);

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
    model_rate: z.array(multipleSchema).length(5),
  })
  .strict();
export type GrowthModel = z.infer<typeof modelSchema>;

export const caseSchema = z
  .object({
    case_name: textSchema(1, 50),
    case_rate: multipleSchema.default(1),
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
    business_plan_name: textSchema(1, 50),
    template: z.enum(TEMPLATES),
    currency: z.enum(CURRENCIES),
    arr: arrSchema,
    period: z.number().int().min(1).max(12).default(12),
    arpa: arpaSchema,
    start_year: yearNumber,
    start_month: monthNumber,
    cases: z.array(caseSchema).min(1).max(MAX_CASES),
  })
  .strict()
  .superRefine((plan, ctx) => {
    plan.cases.forEach((c, ci) => {
      // One memo per column and section of a year: a second would have nowhere to be stored.
      const memos = new Set<string>();
      c.comments.forEach((comment, i) => {
        const key = `${comment.year}/${comment.column_name}/${comment.section}`;
        if (memos.has(key)) {
          ctx.addIssue({
            code: 'custom',
            path: ['cases', ci, 'comments', i],
            message: `a second memo for year ${comment.year}, column ${comment.column_name}, ${comment.section}`,
          });
        }
        memos.add(key);
      });
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

/** A field of a plan file the schema refuses: its path, e.g. `cases.0.years.1.arr`, and why. */
export interface PlanFileIssue {
  path: string;
  message: string;
}

/** A named, field-level validation failure of a plan file. */
export class PlanFileError extends Error {
  override readonly name = 'PlanFileError';
  constructor(readonly issues: PlanFileIssue[]) {
    super(issues.map((i) => `${i.path || '(plan)'}: ${i.message}`).join('\n'));
  }
}

/**
 * Validates a plan file and fills in defaults.
 * @throws {PlanFileError} naming every invalid field by its path, e.g. `cases.0.years.1.churn_rate`.
 */
export function parsePlanFile(input: unknown): PlanFile {
  const result = planFileSchema.safeParse(input);
  if (!result.success) throw planFileError(result.error.issues);
  return result.data;
}

const planFileError = (issues: readonly z.core.$ZodIssue[]) =>
  new PlanFileError(issues.map((i) => ({ path: i.path.join('.'), message: i.message })));

/**
 * Where a refused value sits in a plan file being read: a key to delete (and the entry holding it, which goes when it
 * empties, as an edit drops it), an item to leave out, or a value to keep.
 */
type Target =
  | { parent: Record<string, unknown>; key: string; entry?: { parent: Record<string, unknown>; key: string } }
  | { list: unknown[]; index: number }
  | { keep: 'arr' | 'arpa' };

const PASSES = 8;

/**
 * Reads a stored plan file leniently, so that a plan holding a value outside the bounds (saved before they existed, or
 * written straight into the database) still opens. Each value the schema refuses is left out: an assumption, a cash
 * item, an actual, a daily entry, the case rate, the growth model or the period then takes its default, and a cost
 * item, comment or revision holding it is left out whole. The plan's target ARR and ARPA have no default: a positive
 * number is kept as it is, and the figures it breaks read as blank (`PlanWorkbook.figure`). Each refused value is
 * named in `refused`, by its path in `input`.
 * @throws {PlanFileError} when the plan cannot be read even so: no cases, an unknown template, a start date outside
 *   the calendar.
 */
export function salvagePlanFile(input: unknown): { plan: PlanFile; refused: PlanFileIssue[] } {
  const first = planFileSchema.safeParse(input);
  if (first.success) return { plan: first.data, refused: [] };
  const stored = recordAt(input);
  if (!stored) throw planFileError(first.error.issues);
  const draft = structuredClone(stored);
  const refused = new Map<string, string>();
  const kept: Partial<Record<'arr' | 'arpa', number>> = {};
  // Positions in `input` of the items left in each array, so that every path names an item as it was stored.
  const positions = new Map<unknown[], number[]>();
  let issues = first.error.issues;
  for (let pass = 0; pass < PASSES; pass++) {
    const removals = new Map<unknown[], Set<number>>();
    let progressed = false;
    for (const issue of issues) {
      const target = targetOf(draft, issue.path);
      if (!target || ('keep' in target && !keepable(draft[target.keep]))) {
        throw planFileError(issues);
      }
      refused.set(storedPath(draft, issue.path, positions), issue.message);
      progressed = true;
      if ('keep' in target) {
        kept[target.keep] = draft[target.keep] as number;
        // Any valid number stands in while the rest is read; the stored one is put back.
        draft[target.keep] = target.keep === 'arr' ? MONEY_MAX : ARPA_MAX;
      } else if ('list' in target) {
        removals.set(target.list, (removals.get(target.list) ?? new Set()).add(target.index));
      } else {
        delete target.parent[target.key];
        if (target.entry && Object.keys(target.parent).length === 0) delete target.entry.parent[target.entry.key];
      }
    }
    for (const [list, indexes] of removals) {
      const left = positions.get(list) ?? list.map((_, i) => i);
      for (const i of [...indexes].sort((a, b) => b - a)) {
        list.splice(i, 1);
        left.splice(i, 1);
      }
      positions.set(list, left);
    }
    const result = planFileSchema.safeParse(draft);
    if (result.success) {
      const plan = { ...result.data, ...kept };
      return { plan, refused: [...refused].map(([path, message]) => ({ path, message })) };
    }
    if (!progressed) break;
    issues = result.error.issues;
  }
  throw planFileError(issues);
}

const keepable = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0;

const recordAt = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** What to leave out for an issue at `path`, or undefined when nothing can be. */
function targetOf(draft: Record<string, unknown>, path: readonly PropertyKey[]): Target | undefined {
  const [top, caseIndex, field, key, leaf] = path;
  if (path.length === 1 && (top === 'arr' || top === 'arpa')) return { keep: top };
  if (path.length === 1 && top === 'period') return { parent: draft, key: top };
  const cases = draft.cases;
  if (top !== 'cases' || typeof caseIndex !== 'number' || !Array.isArray(cases)) return undefined;
  const c = recordAt(cases[caseIndex]);
  if (!c || typeof field !== 'string') return undefined;
  switch (field) {
    case 'case_rate':
    case 'model':
    case 'colors':
      return { parent: c, key: field };
    case 'years':
    case 'cash':
    case 'actuals':
    case 'daily':
    case 'revisions': {
      const map = recordAt(c[field]);
      if (!map || typeof key !== 'string') return { parent: c, key: field };
      const entry = recordAt(map[key]);
      return field !== 'revisions' && entry && typeof leaf === 'string'
        ? { parent: entry, key: leaf, entry: { parent: map, key } }
        : { parent: map, key };
    }
    case 'cost_items':
    case 'comments': {
      const list = c[field];
      if (!Array.isArray(list) || typeof key !== 'number') return { parent: c, key: field };
      return { list, index: key };
    }
    default:
      return undefined;
  }
}

/** An issue's path with each array index as it was stored, before items were left out. */
function storedPath(draft: Record<string, unknown>, path: readonly PropertyKey[], positions: Map<unknown[], number[]>) {
  let at: unknown = draft;
  return path
    .map((part) => {
      const list = Array.isArray(at) ? at : undefined;
      at = (at as Record<PropertyKey, unknown> | undefined)?.[part];
      return list && typeof part === 'number' ? String(positions.get(list)?.[part] ?? part) : String(part);
    })
    .join('.');
}
