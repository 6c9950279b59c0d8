/**
 * The plan file (MODEL.md section 9): a business plan's inputs as one JSON document. Only inputs live here;
 * every other number is computed by the workbook. Rates are fractions, months are plan month indexes t (1..72),
 * years are plan years 1..6, and anything left out takes its default (MODEL.md section 2).
 */
import { z } from 'zod';
import {
  ARPA_MAX,
  arpaSchema,
  arrSchema,
  MONEY_MAX,
  monthNumber,
  multipleSchema,
  PLAN_MONTHS,
  PLAN_YEARS,
  textSchema,
  yearNumber,
} from './bounds';
import {
  actualInputsSchema,
  cashInputsSchema,
  colorSetSchema,
  commentSchema,
  costItemSchema,
  dailyInputsSchema,
  revisionSchema,
  yearInputsSchema,
} from './caseInputs';

export {
  ARPA_MAX,
  ARPA_MIN,
  ARR_MIN,
  arpaSchema,
  arrSchema,
  CHURN_RATE_MAX,
  COST_RATE_MAX,
  COUNT_MAX,
  churnRateSchema,
  costRateSchema,
  countSchema,
  FUNNEL_RATE_MAX,
  FUNNEL_RATE_MIN,
  funnelRateSchema,
  HEADCOUNT_MAX,
  headcountSchema,
  isStorableText,
  MONEY_MAX,
  MONEY_MIN,
  MULTIPLE_MAX,
  MULTIPLE_MIN,
  moneySchema,
  multipleSchema,
  PLAN_MONTHS,
  PLAN_YEARS,
  priceSchema,
  RATE_MIN,
  UPSELLING_RATE_MAX,
  UPSELLING_RATE_MIN,
  upsellingRateSchema,
} from './bounds';
export * from './caseInputs';
export * from './signs';

export const TEMPLATES = ['saas', 'selfserve'] as const;
export const CURRENCIES = ['JPY', 'USD'] as const;
export const MODEL_NAMES = ['t2d3', 'sansan', 'freee', 'salesforce', 'wix', 'okta', 'workday', 'custom'] as const;
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

/** The plan's own inputs (the wizard's, MODEL.md section 2): everything of a plan file but its cases. */
export const planInputsSchema = z.object({
  business_plan_name: textSchema(1, 50),
  template: z.enum(TEMPLATES),
  currency: z.enum(CURRENCIES),
  arr: arrSchema,
  period: z.number().int().min(1).max(12).default(12),
  arpa: arpaSchema,
  start_year: yearNumber,
  start_month: monthNumber,
});
export type PlanInputs = z.infer<typeof planInputsSchema>;
export type PlanInputKey = keyof PlanInputs;
/** The plan-level fields of a plan file, in its order; whatever stores or lists them takes them from here. */
export const PLAN_INPUT_KEYS: readonly PlanInputKey[] = planInputsSchema.keyof().options;

export const planFileSchema = planInputsSchema
  .extend({ cases: z.array(caseSchema).min(1).max(MAX_CASES) })
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
