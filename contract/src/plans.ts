import {
  MODEL_NAMES,
  MULTIPLE_MAX,
  MULTIPLE_MIN,
  PLAN_YEARS,
  YEAR_KEYS,
  type YearKey,
  yearInputsSchema,
} from '@topline/engine/schema';
import { z } from 'zod';
import {
  ARPA_RANGE,
  ARR_RANGE,
  EMPLOYEES_MAX,
  emailField,
  FIRST_START_YEAR,
  lastStartYear,
  nameField,
  PERIOD_RANGE,
} from './fields';
import { AREAS, type Area, LEVELS } from './policy';
import { body, boundsText, clearableNumber, idField, idText, jsonNumber, textNumber } from './wire';

/** The ids and periods of a JSON body. */
export const planIdField = idField('business_plan_id');
export const caseIdField = idField('case_id');
export const yearField = jsonNumber('year', { int: true, min: 1, max: PLAN_YEARS });
export const monthField = jsonNumber('month', { int: true, min: 1, max: 12 });

/** The same, sent as text in a query string or a multipart form. */
export const planIdText = idText('business_plan_id');
export const caseIdText = idText('case_id');
export const yearText = textNumber('year', { int: true, min: 1, max: PLAN_YEARS });

export const planScoped = body({ business_plan_id: planIdField });
export const caseScoped = body({ business_plan_id: planIdField, case_id: caseIdField });
/** A plan-scoped GET: the plan id as text. */
export const planQuery = body({ business_plan_id: planIdText });

const planName = nameField('business_plan_name');

export { MODEL_NAMES };
export const THEME_COLORS = ['purple', 'black', 'gray'] as const;

const startYear = (now: Date) =>
  textNumber('start_year', { int: true, min: FIRST_START_YEAR, max: lastStartYear(now) });
const startMonth = textNumber('start_month', { int: true, min: 1, max: 12 });

/** The creation payload (product-and-account.md section 3), sent as multipart by the wizard. */
export const planCreateRequest = (now: Date) =>
  body({
    name: nameField('name'),
    company_name: nameField('company_name'),
    position: nameField('position', false).default(''),
    employees: nameField('employees', false, EMPLOYEES_MAX).default(''),
    stage: nameField('stage', false).default(''),
    business_plan_name: planName,
    template: z.enum(['saas', 'selfserve'], 'template must be saas or selfserve'),
    currency: z.enum(['JPY', 'USD'], 'currency must be JPY or USD'),
    arr: textNumber('arr', { above: 0 }),
    period: textNumber('period', { int: true, min: PERIOD_RANGE.min, max: PERIOD_RANGE.max }),
    arpa: textNumber('arpa', { above: 0 }),
    start_year: startYear(now),
    start_month: startMonth,
    model_name: z.enum(MODEL_NAMES, 'model_name is not a growth template').default('t2d3'),
    model_rate: z
      .preprocess(parseRateList, z.array(growthMultiple, 'model_rate must be five multiples').length(5))
      .optional(),
    theme_color: z.enum(THEME_COLORS, 'theme_color must be purple, black or gray').default('purple'),
  }).superRefine((plan, ctx) => {
    for (const [field, range] of [
      ['arr', ARR_RANGE[plan.currency]],
      ['arpa', ARPA_RANGE[plan.currency]],
    ] as const) {
      if (plan[field] < range.min || plan[field] > range.max) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `${field} must be between ${range.min} and ${range.max}`,
        });
      }
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
  return text.split(',').map((part) => (/^\s*\d+(\.\d+)?\s*$/.test(part) ? Number(part) : part));
}

/** The plan Setting form, sent as multipart (it may carry an icon). */
export const planEditRequest = (now: Date) =>
  body({
    business_plan_id: planIdText,
    business_plan_name: planName.optional(),
    start_year: startYear(now).optional(),
    start_month: startMonth.optional(),
  });

/** An uploaded icon's largest width and height in pixels: larger ones are refused before their pixels are decoded. */
export const ICON_MAX_SIDE = 1024;
/** The side of the square a plan's icon is stored and served at: twice the largest it is shown at (Setting's 64 px). */
export const ICON_SIZE = 128;

/** GET /business-plan/icon: the plan, and the icon's hash (`v`) as `/user/me` names it, which makes the URL immutable. */
export const planIconQuery = body({
  business_plan_id: planIdText,
  v: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'v must be the hash of an icon')
    .optional(),
});

export const themeColorRequest = body({
  business_plan_id: planIdField,
  theme_color: z.enum(THEME_COLORS, 'theme_color must be purple, black or gray'),
});

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

export const colorSet = body({ arr: hexColor, pl: hexColor, gross_profit: hexColor });
export type ColorSet = z.infer<typeof colorSet>;
export const plColorRequest = body({
  business_plan_id: planIdField,
  colors: z.array(colorSet, 'colors must be a list of colour sets').min(1).max(3),
});

export const DEFAULT_COLORS: ColorSet[] = [
  { arr: '#6c4ed9', pl: '#2bb3a3', gross_profit: '#f2a93b' },
  { arr: '#9a86e6', pl: '#6fd0c4', gross_profit: '#f6c880' },
  { arr: '#c8bdf2', pl: '#b3e6df', gross_profit: '#fae0b8' },
];

const caseName = nameField('case_name');
const CASE_RATE = { above: 0, max: 99.99 } as const;
const caseRate = jsonNumber('case_rate', CASE_RATE);
const growthMultiple = jsonNumber('model rate', { min: MULTIPLE_MIN, max: MULTIPLE_MAX });

export const caseCreateRequest = body({ business_plan_id: planIdField, case_name: caseName, case_rate: caseRate });
export const caseRenameRequest = caseScoped.extend({ case_name: caseName });

/** Bounds of a per-year value: the engine's plan-file schema (MODEL.md section 2: rates are fractions). */
export const yearValue = (key: YearKey) => yearInputsSchema.shape[key].unwrap();

/** POST /case/edit: one per-year key; `value: null` returns the year to its default. `case_rate` ignores the year. */
export const caseEditRequest = caseScoped
  .extend({
    year: yearField,
    key: z.enum(['case_rate', ...YEAR_KEYS], 'key is not an editable assumption'),
    value: clearableNumber('value'),
  })
  .superRefine((edit, ctx) => {
    if (edit.value === null) return;
    if (edit.key === 'case_rate') {
      if (!caseRate.safeParse(edit.value).success) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: boundsText('case_rate', CASE_RATE) });
      }
      return;
    }
    const result = yearValue(edit.key).safeParse(edit.value);
    if (!result.success) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `value is out of range for ${edit.key}: ${result.error.issues[0]?.message ?? ''}`,
      });
    }
  });

export const revenueEditRequest = caseScoped.extend({
  year: yearField,
  key: z.literal('recurring_revenue_rate', 'key must be recurring_revenue_rate').default('recurring_revenue_rate'),
  value: clearableNumber('value', { above: 0, max: 1 }),
});

export const modelEditRequest = caseScoped.extend({
  model: body({
    name: z.enum(MODEL_NAMES, 'model.name is not a growth template'),
    rates: z
      .array(growthMultiple, 'model.rates must be five multiples')
      .length(5, 'model.rates needs five multiples')
      .optional(),
  }),
});

const level = z.enum(LEVELS, 'must be no_access, can_view or can_edit');
const roleFields = Object.fromEntries(AREAS.map((area) => [area, level.default('no_access')])) as Record<
  Area,
  z.ZodDefault<typeof level>
>;

export const memberRequest = body({
  business_plan_id: planIdField,
  email: emailField,
  ...roleFields,
});
export const memberDeleteRequest = body({ business_plan_id: planIdField, email: emailField });
/** POST /authority/resend: the invitation e-mail again, to a member who has not joined yet. */
export const memberResendRequest = body({ business_plan_id: planIdField, email: emailField });
