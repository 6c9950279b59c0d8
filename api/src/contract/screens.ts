import { COST_CATEGORIES, COST_ITEM_TITLES as ENGINE_COST_ITEM_TITLES } from '@topline/engine';
import { z } from 'zod';
import { caseIdField, caseScoped, monthField, nullable, planIdField, yearField } from './plans';

const amount = nullable(z.coerce.number('must be a number').finite()).optional();
const countValue = nullable(z.coerce.number('must be a number').finite().min(0, 'must not be negative')).optional();

export const CASH_KEYS = ['beginning_cash_balance', 'equity_raised', 'debt_raised', 'debt_payment', 'other'] as const;
export const COUNT_KEYS = ['session', 'lead', 'meeting', 'registration', 'order', 'churn'] as const;
export const MONEY_KEYS = ['professional_service', 'cogs', 'sm', 'rd', 'ga'] as const;
/** What a month of actuals holds (MODEL.md section 5). */
export const ACTUAL_KEYS = [...COUNT_KEYS, 'arpa', ...MONEY_KEYS, 'employees', ...CASH_KEYS] as const;
export type ActualKey = (typeof ACTUAL_KEYS)[number];
export type CashKey = (typeof CASH_KEYS)[number];

const monthRef = { business_plan_id: planIdField, year: yearField, month: monthField };

/**
 * POST /pl/monthly/edit: a month of actuals. A missing field is left as it was, `null` clears it. Without case_id
 * the actuals are saved for every case of the plan (they are facts, the same whichever plan case they are read against).
 */
export const actualsEditRequest = z.object({
  ...monthRef,
  case_id: caseIdField.optional(),
  session: countValue,
  lead: countValue,
  meeting: countValue,
  registration: countValue,
  order: countValue,
  churn: countValue,
  arpa: nullable(z.coerce.number('must be a number').finite().gt(0, 'must be above 0')).optional(),
  professional_service: amount,
  cogs: amount,
  sm: amount,
  rd: amount,
  ga: amount,
  employees: nullable(z.coerce.number().int('must be a whole number').min(0)).optional(),
  beginning_cash_balance: amount,
  equity_raised: amount,
  debt_raised: amount,
  debt_payment: amount,
  other: amount,
});
export type ActualsEdit = z.infer<typeof actualsEditRequest>;

export const cashflowEditRequest = z.object({
  ...monthRef,
  case_id: caseIdField,
  beginning_cash_balance: amount,
  equity_raised: amount,
  debt_raised: amount,
  debt_payment: amount,
  other: amount,
});
export type CashflowEdit = z.infer<typeof cashflowEditRequest>;

export const commentEditRequest = caseScoped.extend({
  year: yearField,
  column_name: monthField,
  section: z.enum(['estimate', 'actual', 'difference'], 'section must be estimate, actual or difference'),
  content: z.string().max(2000, 'content may not be greater than 2000 characters'),
});

export const adjustEditRequest = caseScoped.extend({
  year: yearField,
  pattern: z.enum(['upward', 'downward'], 'pattern must be upward or downward').default('upward'),
});

export const reverseRequest = z.object({ ...monthRef, case_id: caseIdField.optional() });

export const monthlyRetrieveRequest = caseScoped;

export const HOME_KPIS = ['meeting', 'order', 'registration', 'billing', 'sales', 'orders'] as const;
export const homeEditRequest = z.object({
  business_plan_id: planIdField,
  kpi_title: z.enum(HOME_KPIS, 'kpi_title must be meeting, order, registration or billing'),
  value: z.coerce.number('value must be a number').finite().min(0, 'value must not be negative'),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
    .optional(),
});

export { COST_CATEGORIES };
export const COST_ITEM_TITLES = ENGINE_COST_ITEM_TITLES as [string, ...string[]];

const calendarYear = z.coerce.number('must be a year').int().min(1900).max(2200);
const calendarMonth = z.coerce.number('must be a month').int().min(1, 'must be 1 to 12').max(12, 'must be 1 to 12');

export const costItemFields = z.object({
  item_title: z.enum(COST_ITEM_TITLES, `item_title must be one of ${COST_ITEM_TITLES.join(', ')}`),
  item_name: z
    .string()
    .trim()
    .min(1, 'item_name is required')
    .max(100, 'item_name may not be greater than 100 characters'),
  price: z.coerce.number('price must be a number').finite().min(0).max(999_999_999),
  start_year: calendarYear,
  start_month: calendarMonth,
  end_year: calendarYear,
  end_month: calendarMonth,
});
export type CostItemFields = z.infer<typeof costItemFields>;

/** POST /cost/create: the item may come nested as `item` or flat. */
export const costCreateRequest = z.preprocess(
  flattenItem,
  caseScoped.extend({ year: yearField.optional() }).and(costItemFields),
);
export const costEditRequest = z.preprocess(
  flattenItem,
  caseScoped.extend({ cost_id: z.coerce.number().int().positive() }).and(costItemFields),
);
export const costDeleteRequest = caseScoped.extend({ cost_id: z.coerce.number().int().positive() });

function flattenItem(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const { item, ...rest } = value as { item?: unknown };
  return typeof item === 'object' && item !== null ? { ...item, ...rest } : rest;
}

export const csvRequest = caseScoped.extend({ year: yearField.optional() });
