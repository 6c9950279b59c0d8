/**
 * What each write request changes in a plan: a change set (`changeSets.ts`) where the API writes its rows from one
 * (`*Changes`), and the engine edits it makes (`*Edits`, the change set's `engineEdits`). The API applies the edits to
 * its cached workbook after the write commits; the browser applies the same edits to its own workbook at once, so the
 * screen recomputes while the API saves.
 *
 * Every `*Edits` function takes the workbook's case ids (database id by case index); an edit of a case the workbook
 * does not hold gets case index -1, which the engine refuses, so the caller rebuilds instead.
 */
import type { PlanEdit } from '@topline/engine';
import { planMonthAt } from '@topline/engine/calendar';
import {
  ACTUAL_KEYS,
  type ActualKey,
  CASH_KEYS,
  GROWTH_TEMPLATES,
  type ModelName,
  type Template,
} from '@topline/engine/schema';
import type { z } from 'zod';
import { costFieldsOf, engineEdits, type PlanChange } from './changeSets';
import type { caseEditRequest, modelEditRequest } from './plans';
import type { ActualsEdit, CashflowEdit, CommentEdit, CostItemFields, HomeKpi } from './screens';
import { homeMetricOf } from './screens';

type CaseIds = readonly number[];

/** Plan month index t of month k (1..12) of plan year y: the engine's calendar rule, by the contract's name. */
export const planMonth = planMonthAt;

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

/** POST /pl/monthly/edit, for the cases it is saved to. */
export const actualsChanges = (edit: ActualsEdit, template: Template, cases: readonly number[]): PlanChange[] =>
  cases.map((caseId) => ({
    type: 'actual',
    caseId,
    month: planMonth(edit.year, edit.month),
    values: actualValuesOf(edit, template),
  }));

export const actualsEdits = (edit: ActualsEdit, template: Template, cases: readonly number[], ids: CaseIds) =>
  engineEdits(actualsChanges(edit, template, cases), ids);

/** POST /pl/monthly/reverse, for the cases whose month was ACT. */
/** POST /pl/monthly/reverse: the month back to the forecast for each of these cases. */
export const reverseChanges = (edit: { year: number; month: number }, cases: readonly number[]): PlanChange[] =>
  cases.map((caseId) => ({ type: 'reverse', caseId, month: planMonth(edit.year, edit.month) }));

export const reverseEdits = (edit: { year: number; month: number }, cases: readonly number[], ids: CaseIds) =>
  engineEdits(reverseChanges(edit, cases), ids);

export const cashflowChanges = (edit: CashflowEdit): PlanChange[] => [
  { type: 'cash', caseId: edit.case_id, month: planMonth(edit.year, edit.month), values: cashValuesOf(edit) },
];

export const cashflowEdits = (edit: CashflowEdit, ids: CaseIds): PlanEdit[] => engineEdits(cashflowChanges(edit), ids);

type CommentRequest = Pick<CommentEdit, 'case_id' | 'year' | 'column_name' | 'section' | 'content'>;

export const commentEdits = (edit: CommentRequest, ids: CaseIds): PlanEdit[] => engineEdits(commentChanges(edit), ids);

export const commentChanges = (edit: CommentRequest): PlanChange[] => [
  {
    type: 'comment',
    caseId: edit.case_id,
    // A blank memo removes the memo.
    comment: {
      year: edit.year,
      column_name: edit.column_name,
      section: edit.section,
      content: edit.content.trim() === '' ? '' : edit.content,
    },
  },
];

type ReviseRequest = { case_id: number; year: number; pattern: 'upward' | 'downward' };

/** POST /pl/monthly/adjust/edit: the year revised from its latest actual month (when the API has found it). */
export const reviseChanges = (edit: ReviseRequest, month?: number): PlanChange[] => [
  { type: 'revise', caseId: edit.case_id, year: edit.year, pattern: edit.pattern, ...(month ? { month } : {}) },
];

export const reviseEdits = (edit: ReviseRequest, ids: CaseIds): PlanEdit[] => engineEdits(reviseChanges(edit), ids);

type CaseYearRequest = Pick<z.infer<typeof caseEditRequest>, 'case_id' | 'year' | 'key' | 'value'>;

/** POST /case/edit and /revenue/edit: one per-year assumption, or the case rate. */
export function caseYearChanges(edit: CaseYearRequest): PlanChange[] {
  const caseId = edit.case_id;
  if (edit.key === 'case_rate') return [{ type: 'caseRate', caseId, value: edit.value ?? 1 }];
  return [{ type: 'year', caseId, year: edit.year, key: edit.key, value: edit.value }];
}

export const caseYearEdits = (edit: CaseYearRequest, ids: CaseIds): PlanEdit[] =>
  engineEdits(caseYearChanges(edit), ids);

export const caseNameChanges = (edit: { case_id: number; case_name: string }): PlanChange[] => [
  { type: 'caseName', caseId: edit.case_id, value: edit.case_name },
];

export const caseNameEdits = (edit: { case_id: number; case_name: string }, ids: CaseIds): PlanEdit[] =>
  engineEdits(caseNameChanges(edit), ids);

/** The multiples a model request stores: a template's own, or the custom rates (the case's current ones if none). */
export function modelRatesOf(
  name: ModelName,
  rates: readonly number[] | undefined,
  current: readonly number[],
): number[] {
  if (name !== 'custom') return [...GROWTH_TEMPLATES[name]];
  return [...(rates ?? current)];
}

export const modelChanges = (edit: z.infer<typeof modelEditRequest>, current: readonly number[]): PlanChange[] => [
  {
    type: 'model',
    caseId: edit.case_id,
    model: { model_name: edit.model.name, model_rate: modelRatesOf(edit.model.name, edit.model.rates, current) },
  },
];

export const modelEdits = (
  edit: z.infer<typeof modelEditRequest>,
  current: readonly number[],
  ids: CaseIds,
): PlanEdit[] => engineEdits(modelChanges(edit, current), ids);

/** POST /cost/create and /cost/edit: the item saved whole (`costId` null for a new one). */
export const costItemChanges = (
  caseId: number,
  costId: number | null,
  item: CostItemFields,
  itemVersion?: number,
): PlanChange[] => [
  { type: 'costItem', caseId, costId, item: costFieldsOf(item), ...(itemVersion === undefined ? {} : { itemVersion }) },
];

/** POST /cost/delete. */
export const costDeleteChanges = (caseId: number, costId: number): PlanChange[] => [
  { type: 'deleteCostItem', caseId, costId },
];

/** POST /home/edit: a daily entry belongs to the plan, so every case reads it. */
export const dailyChanges = (
  edit: { kpi_title: HomeKpi; value: number },
  template: Template,
  date: string,
): PlanChange[] => [{ type: 'daily', date, metric: homeMetricOf(template, edit.kpi_title), value: edit.value }];

export const dailyEdits = (
  edit: { kpi_title: HomeKpi; value: number },
  template: Template,
  date: string,
  ids: CaseIds,
): PlanEdit[] => engineEdits(dailyChanges(edit, template, date), ids);

/** POST /business-plan/edit: the plan fields the workbook reads; nothing when the request changes none of them. */
export function planSettingChanges(edit: {
  business_plan_name?: string | undefined;
  start_year?: number | undefined;
  start_month?: number | undefined;
}): PlanChange[] {
  const values: { business_plan_name?: string; start_year?: number; start_month?: number } = {};
  if (edit.business_plan_name !== undefined) values.business_plan_name = edit.business_plan_name;
  if (edit.start_year !== undefined) values.start_year = edit.start_year;
  if (edit.start_month !== undefined) values.start_month = edit.start_month;
  return Object.keys(values).length > 0 ? [{ type: 'plan', values }] : [];
}
