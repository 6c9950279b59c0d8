import { type YearKey as EngineYearKey, MODEL_NAMES, yearInputsSchema } from '@topline/engine';
import { z } from 'zod';
import { AREAS, type Area, LEVELS } from '../services/access';

/** A number that may be cleared: null, or a blank field, clears it (a blank is never read as 0). */
export const nullable = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), z.union([z.null(), schema]));

/** Query strings and multipart fields arrive as text; numbers are coerced, then checked. */
const intField = (field: string) => z.coerce.number(`${field} must be a number`).int(`${field} must be a whole number`);
const numberField = (field: string) => z.coerce.number(`${field} must be a number`).finite();

export const planIdField = intField('business_plan_id').positive();
export const caseIdField = intField('case_id').positive();
export const yearField = intField('year').min(1).max(6);
export const monthField = intField('month').min(1).max(12);

export const planScoped = z.object({ business_plan_id: planIdField });
export const caseScoped = z.object({ business_plan_id: planIdField, case_id: caseIdField });

const planName = z
  .string('business_plan_name is required')
  .trim()
  .min(1, 'business_plan_name is required')
  .max(50, 'business_plan_name may not be greater than 50 characters');
const profileText = (field: string, required: boolean) => {
  const base = z.string(`${field} is required`).trim().max(50, `${field} may not be greater than 50 characters`);
  return required ? base.min(1, `${field} is required`) : base;
};

export { MODEL_NAMES };
export const THEME_COLORS = ['purple', 'black', 'gray'] as const;

const startYear = (now: Date) =>
  intField('start_year')
    .min(2018, 'start_year must be 2018 or later')
    .max(now.getUTCFullYear() + 6, 'start_year may be at most six years ahead');

/** The creation payload (product-and-account.md section 3), sent as multipart by the wizard. */
export const planCreateRequest = (now: Date) =>
  z
    .object({
      name: profileText('name', true),
      company_name: profileText('company_name', true),
      position: profileText('position', false).default(''),
      employees: profileText('employees', false).default(''),
      stage: profileText('stage', false).default(''),
      business_plan_name: planName,
      template: z.enum(['saas', 'selfserve'], 'template must be saas or selfserve'),
      currency: z.enum(['JPY', 'USD'], 'currency must be JPY or USD'),
      arr: numberField('arr').positive(),
      period: intField('period').min(1).max(12),
      arpa: numberField('arpa').positive(),
      start_year: startYear(now),
      start_month: monthField,
      model_name: z.enum(MODEL_NAMES).default('t2d3'),
      model_rate: z.preprocess(parseRateList, z.array(z.number().positive().max(100)).length(5)).optional(),
      theme_color: z.enum(THEME_COLORS).default('purple'),
    })
    .superRefine((plan, ctx) => {
      // Slider bounds (product-and-account.md section 5); USD is JPY / 100.
      const scale = plan.currency === 'JPY' ? 1 : 0.01;
      if (plan.arr < 5_000_000 * scale || plan.arr > 100_000_000 * scale) {
        ctx.addIssue({
          code: 'custom',
          path: ['arr'],
          message: `arr must be between ${5_000_000 * scale} and ${100_000_000 * scale}`,
        });
      }
      if (plan.arpa < 500 * scale || plan.arpa > 500_000 * scale) {
        ctx.addIssue({
          code: 'custom',
          path: ['arpa'],
          message: `arpa must be between ${500 * scale} and ${500_000 * scale}`,
        });
      }
    });
export type PlanCreate = z.infer<ReturnType<typeof planCreateRequest>>;

function parseRateList(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      return value;
    }
  }
  return text.split(',').map((part) => Number(part.trim()));
}

export const planEditRequest = (now: Date) =>
  z.object({
    business_plan_id: planIdField,
    business_plan_name: planName.optional(),
    start_year: startYear(now).optional(),
    start_month: monthField.optional(),
  });

export const themeColorRequest = z.object({ business_plan_id: planIdField, theme_color: z.enum(THEME_COLORS) });

const hexColor = z
  .string()
  .trim()
  .regex(/^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour such as #6c4ed9')
  .transform(normalizeHex);

/** '#ABC' and 'abc' both become '#aabbcc'. */
export function normalizeHex(value: string): string {
  const digits = value.replace(/^#/, '').toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits}`;
}

export const colorSet = z.object({ arr: hexColor, pl: hexColor, gross_profit: hexColor });
export type ColorSet = z.infer<typeof colorSet>;
export const plColorRequest = z.object({ business_plan_id: planIdField, colors: z.array(colorSet).min(1).max(3) });

export const DEFAULT_COLORS: ColorSet[] = [
  { arr: '#6c4ed9', pl: '#2bb3a3', gross_profit: '#f2a93b' },
  { arr: '#9a86e6', pl: '#6fd0c4', gross_profit: '#f6c880' },
  { arr: '#c8bdf2', pl: '#b3e6df', gross_profit: '#fae0b8' },
];

const caseName = z
  .string('case_name is required')
  .trim()
  .min(1, 'case_name is required')
  .max(50, 'case_name may not be greater than 50 characters');
const caseRate = numberField('case_rate').positive('case_rate must be above 0').max(99.99);

export const caseCreateRequest = z.object({ business_plan_id: planIdField, case_name: caseName, case_rate: caseRate });
export const caseRenameRequest = caseScoped.extend({ case_name: caseName });

/** Which area each per-year key belongs to, and so which role edits it (working-screens.md section 6). */
export const YEAR_KEY_AREAS = {
  arr: 'pl',
  cogs_rate: 'pl',
  sm_rate: 'pl',
  rd_rate: 'pl',
  ga_rate: 'pl',
  employees: 'pl',
  arpa: 'kpi',
  upselling_rate: 'kpi',
  upselling_month: 'kpi',
  churn_rate: 'kpi',
  lead_rate: 'kpi',
  meeting_rate: 'kpi',
  order_rate: 'kpi',
  registration_rate: 'kpi',
  billing_rate: 'kpi',
  recurring_revenue_rate: 'sales_detail',
} as const satisfies Record<EngineYearKey, Area>;
export type YearKey = keyof typeof YEAR_KEY_AREAS;
export const YEAR_KEYS = Object.keys(YEAR_KEY_AREAS) as YearKey[];

/** Bounds of a per-year value: the engine's plan-file schema (MODEL.md section 2: rates are fractions). */
export const yearValue = (key: YearKey) => yearInputsSchema.shape[key].unwrap();

/** POST /case/edit: one per-year key; `value: null` returns the year to its default. `case_rate` ignores the year. */
export const caseEditRequest = caseScoped
  .extend({
    year: yearField,
    key: z.enum(['case_rate', ...YEAR_KEYS], 'key is not an editable assumption'),
    value: nullable(z.coerce.number('value must be a number').finite()),
  })
  .superRefine((edit, ctx) => {
    if (edit.value === null) return;
    const bound = edit.key === 'case_rate' ? caseRate : yearValue(edit.key as YearKey);
    const result = bound.safeParse(edit.value);
    if (!result.success)
      ctx.addIssue({ code: 'custom', path: ['value'], message: `value is out of range for ${edit.key}` });
  });

export const revenueEditRequest = caseScoped.extend({
  year: yearField,
  key: z.literal('recurring_revenue_rate').default('recurring_revenue_rate'),
  value: nullable(z.coerce.number().gt(0).max(1)),
});

export const modelEditRequest = caseScoped.extend({
  model: z.object({
    name: z.enum(MODEL_NAMES, 'model.name is not a growth template'),
    rates: z.array(z.coerce.number().positive().max(100)).length(5, 'model.rates needs five multiples').optional(),
  }),
});

const level = z.enum(LEVELS, 'must be no_access, can_view or can_edit');
const roleFields = Object.fromEntries(AREAS.map((area) => [area, level.default('no_access')])) as Record<
  Area,
  z.ZodDefault<typeof level>
>;

export const memberRequest = z.object({
  business_plan_id: planIdField,
  email: z.email('enter in email format').max(254),
  ...roleFields,
});
export const memberDeleteRequest = z.object({ business_plan_id: planIdField, email: z.email('enter in email format') });
