/**
 * What each write request changes in a plan's workbook, as engine edits. The API applies them to its cached workbook
 * after the write commits; the browser applies the same edits to its own workbook at once, so the screen recomputes
 * while the API saves.
 *
 * Every function takes the workbook's case ids (database id by case index); an edit of a case the workbook does not
 * hold gets case index -1, which the engine refuses, so the caller rebuilds instead.
 */
import type { PlanEdit } from '@topline/engine';
import {
  ACTUAL_KEYS,
  type ActualKey,
  CASH_KEYS,
  type CostItem,
  GROWTH_TEMPLATES,
  type ModelName,
  type Template,
} from '@topline/engine/src/schema';
import type { z } from 'zod';
import type { caseEditRequest, modelEditRequest } from './plans';
import type { ActualsEdit, CashflowEdit, CommentEdit, CostItemFields, HomeKpi } from './screens';
import { COST_ITEM_FIELDS, homeMetricOf } from './screens';

type CaseIds = readonly number[];

/** Plan month index t of month k (1..12) of plan year y (MODEL.md section 1). */
export const planMonth = (year: number, month: number): number => 12 * (year - 1) + month;

type Values<K extends string> = { [Key in K]?: number | null };

/** The given values of some keys: a missing field is left as it was, `null` clears it. */
function given<K extends string>(input: Partial<Record<K, number | null | undefined>>, keys: readonly K[]): Values<K> {
  const values: Values<K> = {};
  for (const key of keys) if (input[key] !== undefined) values[key] = input[key];
  return values;
}

/** Only the template's own funnel rows exist (working-screens.md section 1). */
const NOT_IN_TEMPLATE: Record<Template, readonly ActualKey[]> = {
  saas: ['registration'],
  selfserve: ['lead', 'meeting'],
};

/** The actual values a month-of-actuals request sets or clears, for a plan of this template. */
export const actualValuesOf = (edit: ActualsEdit, template: Template): Values<ActualKey> =>
  given(
    edit,
    ACTUAL_KEYS.filter((key) => !NOT_IN_TEMPLATE[template].includes(key)),
  );

export const cashValuesOf = (edit: CashflowEdit) => given(edit, CASH_KEYS);

/** POST /pl/monthly/edit, for the cases it was saved to. */
export const actualsEdits = (edit: ActualsEdit, template: Template, cases: readonly number[], ids: CaseIds) =>
  cases.map(
    (id): PlanEdit => ({
      type: 'actual',
      caseIndex: ids.indexOf(id),
      month: planMonth(edit.year, edit.month),
      values: actualValuesOf(edit, template),
    }),
  );

/** POST /pl/monthly/reverse, for the cases whose month was ACT. */
export const reverseEdits = (edit: { year: number; month: number }, cases: readonly number[], ids: CaseIds) =>
  cases.map(
    (id): PlanEdit => ({ type: 'reverse', caseIndex: ids.indexOf(id), month: planMonth(edit.year, edit.month) }),
  );

export const cashflowEdits = (edit: CashflowEdit, ids: CaseIds): PlanEdit[] => [
  {
    type: 'cash',
    caseIndex: ids.indexOf(edit.case_id),
    month: planMonth(edit.year, edit.month),
    values: cashValuesOf(edit),
  },
];

export const commentEdits = (
  edit: Pick<CommentEdit, 'case_id' | 'year' | 'column_name' | 'section' | 'content'>,
  ids: CaseIds,
): PlanEdit[] => [
  {
    type: 'comment',
    caseIndex: ids.indexOf(edit.case_id),
    // A blank memo removes the memo.
    comment: {
      year: edit.year,
      column_name: edit.column_name,
      section: edit.section,
      content: edit.content.trim() === '' ? '' : edit.content,
    },
  },
];

export const reviseEdits = (
  edit: { case_id: number; year: number; pattern: 'upward' | 'downward' },
  ids: CaseIds,
): PlanEdit[] => [{ type: 'revise', caseIndex: ids.indexOf(edit.case_id), year: edit.year, pattern: edit.pattern }];

/** POST /case/edit and /revenue/edit: one per-year assumption, or the case rate. */
export function caseYearEdits(
  edit: Pick<z.infer<typeof caseEditRequest>, 'case_id' | 'year' | 'key' | 'value'>,
  ids: CaseIds,
): PlanEdit[] {
  const caseIndex = ids.indexOf(edit.case_id);
  if (edit.key === 'case_rate') return [{ type: 'caseRate', caseIndex, value: edit.value ?? 1 }];
  return [{ type: 'year', caseIndex, year: edit.year, key: edit.key, value: edit.value }];
}

export const caseNameEdits = (edit: { case_id: number; case_name: string }, ids: CaseIds): PlanEdit[] => [
  { type: 'caseName', caseIndex: ids.indexOf(edit.case_id), value: edit.case_name },
];

/** The multiples a model request stores: a template's own, or the custom rates (the case's current ones if none). */
export function modelRatesOf(
  name: ModelName,
  rates: readonly number[] | undefined,
  current: readonly number[],
): number[] {
  if (name !== 'custom') return [...GROWTH_TEMPLATES[name]];
  return [...(rates ?? current)];
}

export const modelEdits = (
  edit: z.infer<typeof modelEditRequest>,
  current: readonly number[],
  ids: CaseIds,
): PlanEdit[] => [
  {
    type: 'model',
    caseIndex: ids.indexOf(edit.case_id),
    model: { model_name: edit.model.name, model_rate: modelRatesOf(edit.model.name, edit.model.rates, current) },
  },
];

/** The stored fields of a cost item (the request may carry more). */
export const costFieldsOf = (item: CostItemFields): CostItemFields =>
  Object.fromEntries(COST_ITEM_FIELDS.map((key) => [key, item[key]])) as CostItemFields;

/** POST /cost/create and /cost/edit: the item as saved, with its id. */
export const costItemEdits = (
  caseId: number,
  costId: number | string,
  item: CostItemFields,
  ids: CaseIds,
): PlanEdit[] => [
  { type: 'costItem', caseIndex: ids.indexOf(caseId), item: { cost_id: costId, ...costFieldsOf(item) } as CostItem },
];

export const costDeleteEdits = (caseId: number, costId: number | string, ids: CaseIds): PlanEdit[] => [
  { type: 'deleteCostItem', caseIndex: ids.indexOf(caseId), costId },
];

/** POST /home/edit: a daily entry belongs to the plan, so every case reads it. */
export const dailyEdits = (
  edit: { kpi_title: HomeKpi; value: number },
  template: Template,
  date: string,
  ids: CaseIds,
): PlanEdit[] =>
  ids.map((_, caseIndex) => ({
    type: 'daily',
    caseIndex,
    date,
    metric: homeMetricOf(template, edit.kpi_title),
    value: edit.value,
  }));

/** POST /business-plan/edit: the plan fields the workbook reads. */
export function planSettingEdits(edit: {
  business_plan_name?: string | undefined;
  start_year?: number | undefined;
  start_month?: number | undefined;
}): PlanEdit[] {
  const values: { business_plan_name?: string; start_year?: number; start_month?: number } = {};
  if (edit.business_plan_name !== undefined) values.business_plan_name = edit.business_plan_name;
  if (edit.start_year !== undefined) values.start_year = edit.start_year;
  if (edit.start_month !== undefined) values.start_month = edit.start_month;
  return Object.keys(values).length > 0 ? [{ type: 'plan', values }] : [];
}
