import {
  type ActualKey,
  ARPA_MAX,
  ARPA_MIN,
  type CashInputs,
  COMMENT_SECTIONS,
  COST_CATEGORIES,
  COUNT_MAX,
  DAILY_METRICS,
  COST_ITEM_TITLES as ENGINE_COST_ITEM_TITLES,
  HEADCOUNT_MAX,
  inputSign,
  inputSignMessage,
  MONEY_MAX,
  MONEY_MIN,
  REVISION_PATTERNS,
} from '@topline/engine/schema';
import { z } from 'zod';
import { COMMENT_MAX, COST_ITEM_NAME_MAX, multiLineText, singleLineText } from './fields';
import { caseIdField, caseIdText, caseScoped, monthField, planIdField, planIdText, yearField, yearText } from './plans';
import { body, clearableNumber, dateField, ID_BOUNDS, idField, jsonNumber } from './wire';

/** The engine's bounds (MODEL.md inputs stay within them, so every figure stays finite). */
const MONEY = { min: -MONEY_MAX, max: MONEY_MAX, smallest: MONEY_MIN } as const;
const COUNT = { int: true, min: 0, max: COUNT_MAX } as const;
/** A money input, refused at its field when it has the sign its input does not take (`engine/src/signs.ts`). */
const amount = (field: string) =>
  inputSign(field)?.takes === 'positive'
    ? clearableNumber(field, MONEY)
        .refine((value) => value === null || value >= 0, `${field} ${inputSignMessage(field)}`)
        .optional()
    : clearableNumber(field, MONEY).optional();
const countValue = (field: string) => clearableNumber(field, COUNT).optional();

const monthRef = { business_plan_id: planIdField, year: yearField, month: monthField };

/** The cash items of a month (MODEL.md section 2), each optional; `null` clears one. */
const cashFields = {
  beginning_cash_balance: amount('beginning_cash_balance'),
  equity_raised: amount('equity_raised'),
  debt_raised: amount('debt_raised'),
  debt_payment: amount('debt_payment'),
  other: amount('other'),
} satisfies Record<keyof CashInputs, z.ZodType>;

/** What a month of actuals holds (MODEL.md section 5): one field per engine actual key. */
const actualFields = {
  session: countValue('session'),
  lead: countValue('lead'),
  meeting: countValue('meeting'),
  registration: countValue('registration'),
  order: countValue('order'),
  churn: countValue('churn'),
  arpa: clearableNumber('arpa', { min: ARPA_MIN, max: ARPA_MAX }).optional(),
  professional_service: amount('professional_service'),
  cogs: amount('cogs'),
  sm: amount('sm'),
  rd: amount('rd'),
  ga: amount('ga'),
  employees: clearableNumber('employees', { int: true, min: 0, max: HEADCOUNT_MAX }).optional(),
  ...cashFields,
} satisfies Record<ActualKey, z.ZodType>;

/**
 * POST /pl/monthly/edit: a month of actuals. A missing field is left as it was, `null` clears it. Without case_id
 * the actuals are saved for every case of the plan (they are facts, the same whichever plan case they are read against).
 */
export const actualsEditRequest = body({ ...monthRef, case_id: caseIdField.optional(), ...actualFields });
export type ActualsEdit = z.infer<typeof actualsEditRequest>;

export const cashflowEditRequest = body({ ...monthRef, case_id: caseIdField, ...cashFields });
export type CashflowEdit = z.infer<typeof cashflowEditRequest>;

export const commentEditRequest = caseScoped.extend({
  year: yearField,
  column_name: monthField,
  section: z.enum(COMMENT_SECTIONS, 'section must be estimate, actual or difference'),
  content: multiLineText('content', COMMENT_MAX, { required: false }),
});

export type CommentEdit = z.infer<typeof commentEditRequest>;

export const adjustEditRequest = caseScoped.extend({
  year: yearField,
  pattern: z.enum(REVISION_PATTERNS, 'pattern must be upward or downward').default('upward'),
});

export const reverseRequest = body({ ...monthRef, case_id: caseIdField.optional() });

/** The home screen's names of its two metrics (working-screens.md section 1): meetings and orders (saas), registrations and billing (selfserve). */
export const HOME_ALIASES = {
  saas: { sales: 'meeting', orders: 'order' },
  selfserve: { sales: 'registration', orders: 'billing' },
} as const satisfies Record<'saas' | 'selfserve', Record<'sales' | 'orders', (typeof DAILY_METRICS)[number]>>;
export const HOME_KPIS = [...DAILY_METRICS, 'sales', 'orders'] as const;
export type HomeKpi = (typeof HOME_KPIS)[number];

/** The daily metric a home entry records, for a plan of this template. */
export const homeMetricOf = (template: 'saas' | 'selfserve', kpi: HomeKpi): (typeof DAILY_METRICS)[number] =>
  kpi === 'sales' || kpi === 'orders' ? HOME_ALIASES[template][kpi] : kpi;

export const homeEditRequest = body({
  business_plan_id: planIdField,
  kpi_title: z.enum(HOME_KPIS, 'kpi_title must be meeting, order, registration or billing'),
  value: jsonNumber('value', COUNT),
  date: dateField('date').optional(),
});

export { COST_CATEGORIES };
export const COST_ITEM_TITLES = ENGINE_COST_ITEM_TITLES as [string, ...string[]];

const calendarYear = (field: string) => jsonNumber(field, { int: true, min: 1900, max: 2200 });
const calendarMonth = (field: string) => jsonNumber(field, { int: true, min: 1, max: 12 });

export const costItemFields = body({
  item_title: z.enum(COST_ITEM_TITLES, `item_title must be one of ${COST_ITEM_TITLES.join(', ')}`),
  item_name: singleLineText('item_name', COST_ITEM_NAME_MAX),
  price: jsonNumber('price', { min: 0, max: 999_999_999, smallest: MONEY_MIN }),
  start_year: calendarYear('start_year'),
  start_month: calendarMonth('start_month'),
  end_year: calendarYear('end_year'),
  end_month: calendarMonth('end_month'),
});
export type CostItemFields = z.infer<typeof costItemFields>;
/** The fields a cost item stores. */
export const COST_ITEM_FIELDS = Object.keys(costItemFields.shape) as (keyof CostItemFields)[];

const costIdField = idField('cost_id');

/** POST /cost/create: the item may come nested as `item` or flat. */
export const costCreateRequest = z.preprocess(
  flattenItem,
  caseScoped.extend({ year: yearField.optional(), ...costItemFields.shape }),
);
/** POST /cost/edit: the whole item, with the version it was read at (a stale one is refused with 409). */
export const costEditRequest = z.preprocess(
  flattenItem,
  caseScoped.extend({
    cost_id: costIdField,
    version: jsonNumber('version', ID_BOUNDS),
    ...costItemFields.shape,
  }),
);
export const costDeleteRequest = caseScoped.extend({ cost_id: costIdField });

function flattenItem(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const { item, ...rest } = value as { item?: unknown };
  return typeof item === 'object' && item !== null ? { ...item, ...rest } : rest;
}

/** A CSV download: a GET, so its numbers come as text. */
export const csvRequest = body({
  business_plan_id: planIdText,
  case_id: caseIdText,
  year: yearText.optional(),
  /** Headers and labels in this language; without it, the request's `Accept-Language`. */
  lang: z.enum(['ja', 'en'], 'lang must be ja or en').optional(),
});
