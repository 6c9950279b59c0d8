/**
 * What a write request changes in a plan's stored inputs, written once: a change set. The API writes its rows from it
 * (`api/src/services/plans/planChanges.ts`), its cached workbook and the browser's apply the engine edits derived
 * from it (`engineEdits`), and the plan's history records the rows the API wrote. A change names its case by database
 * id; the engine names cases by their index in the workbook, which `engineEdits` maps.
 */
import type { PlanEdit } from '@topline/engine';
import {
  ACTUAL_KEYS,
  CASH_KEYS,
  type CostItem,
  caseSchema,
  commentSchema,
  DAILY_METRICS,
  modelSchema,
  REVISION_PATTERNS,
  YEAR_KEYS,
} from '@topline/engine/schema';
import { z } from 'zod';
import { COST_ITEM_FIELDS, type CostItemFields, costItemFields } from './screens';

/** Some of the keys' values: a number, or null to clear it. */
const valuesOf = <K extends string>(keys: readonly K[]) =>
  z.strictObject(
    Object.fromEntries(keys.map((key) => [key, z.number().nullable().optional()])) as Record<
      K,
      z.ZodOptional<z.ZodNullable<z.ZodNumber>>
    >,
  );

const caseId = z.number().int();

/** One change of a change set, as the API writes it and answers it (`plan_changes`). */
export const planChange = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('year'),
    caseId,
    year: z.number().int(),
    key: z.enum(YEAR_KEYS),
    value: z.number().nullable(),
  }),
  z.object({ type: z.literal('caseRate'), caseId, value: z.number() }),
  z.object({ type: z.literal('caseName'), caseId, value: z.string() }),
  z.object({ type: z.literal('model'), caseId, model: modelSchema }),
  z.object({ type: z.literal('cash'), caseId, month: z.number().int(), values: valuesOf(CASH_KEYS) }),
  /** A month of actuals: its values (null clears one), and the month marked ACT. */
  z.object({ type: z.literal('actual'), caseId, month: z.number().int(), values: valuesOf(ACTUAL_KEYS) }),
  z.object({ type: z.literal('comment'), caseId, comment: commentSchema }),
  /** A daily entry belongs to the plan: every case reads it. */
  z.object({ type: z.literal('daily'), date: z.string(), metric: z.enum(DAILY_METRICS), value: z.number().nullable() }),
  /**
   * A cost item saved whole: a new one (`costId` null until the API's insert gives it one), or one replacing the
   * version of it the caller read (`itemVersion`), which is refused when someone saved it since.
   */
  z.object({
    type: z.literal('costItem'),
    caseId,
    costId: z.number().int().nullable(),
    item: costItemFields,
    itemVersion: z.number().int().optional(),
  }),
  z.object({ type: z.literal('deleteCostItem'), caseId, costId: z.number().int() }),
  /** A month of actuals returned to the forecast (EST); its entered values stay. */
  z.object({ type: z.literal('reverse'), caseId, month: z.number().int() }),
  /**
   * A year's budget revised from its latest actual month `month` (MODEL.md section 6), which the API finds under the
   * plan's lock (the browser's preview leaves it to the engine).
   */
  z.object({
    type: z.literal('revise'),
    caseId,
    year: z.number().int(),
    pattern: z.enum(REVISION_PATTERNS),
    month: z.number().int().optional(),
  }),
  /**
   * A case added after the plan's others (`caseId` null until the API's insert numbers it), with what it starts with:
   * its name, rate and growth model, and the plan's daily entries, which every case reads; or, at `index` among them,
   * a case a restore puts back in its place, whole.
   */
  z.object({
    type: z.literal('addCase'),
    caseId: caseId.nullable(),
    case: caseSchema,
    index: z.number().int().min(0).optional(),
  }),
  z.object({ type: z.literal('deleteCase'), caseId }),
  /** The plan's own fields that the workbook reads: its name and its first month. */
  z.object({
    type: z.literal('plan'),
    values: z.strictObject({
      business_plan_name: z.string().optional(),
      start_year: z.number().int().optional(),
      start_month: z.number().int().optional(),
    }),
  }),
]);
export type PlanChange = z.input<typeof planChange>;

/**
 * The field of a write's answer that holds the change set it wrote, beside the route's own fields: the browser's
 * workbook follows the write by applying it (`engineEdits`), as the API's cached workbook does.
 */
export const PLAN_CHANGES_FIELD = 'plan_changes';
export const planChangesAnswer = z.array(planChange);

/** The change set a write's answer carries, or undefined when it carries none (or not one this contract reads). */
export function planChangesIn(answer: unknown): PlanChange[] | undefined {
  if (typeof answer !== 'object' || answer === null || !(PLAN_CHANGES_FIELD in answer)) return undefined;
  const parsed = planChangesAnswer.safeParse((answer as Record<string, unknown>)[PLAN_CHANGES_FIELD]);
  return parsed.success ? (parsed.data as PlanChange[]) : undefined;
}

/** The stored fields of a cost item (the request may carry more). */
export const costFieldsOf = (item: CostItemFields): CostItemFields =>
  Object.fromEntries(COST_ITEM_FIELDS.map((key) => [key, item[key]])) as CostItemFields;

/**
 * The engine edits of a change set, given the workbook's case ids (database id by case index) before it; a case added
 * or deleted by a change moves the indexes of the changes after it. A change of a case the workbook does not hold gets
 * case index -1, which the engine refuses, so the caller rebuilds instead. A new cost item not numbered yet (the
 * browser's preview before the API answers) goes by `provisionalId`.
 */
export function engineEdits(changes: readonly PlanChange[], ids: readonly number[], provisionalId = 'new'): PlanEdit[] {
  let current = [...ids];
  return changes.flatMap((change): PlanEdit[] => {
    const caseIndex = 'caseId' in change && change.caseId !== null ? current.indexOf(change.caseId) : -1;
    if (change.type === 'addCase') current = withCase(current, change);
    if (change.type === 'deleteCase') current = current.filter((id) => id !== change.caseId);
    if (change.type === 'daily') return current.map((_, index) => ({ ...change, caseIndex: index }));
    if (change.type === 'plan') return [change];
    if (change.type === 'addCase') {
      return [{ type: 'addCase', case: change.case, ...(change.index === undefined ? {} : { index: change.index }) }];
    }
    if (change.type === 'costItem') {
      const item = { cost_id: change.costId ?? provisionalId, ...costFieldsOf(change.item) } as CostItem;
      return [{ type: 'costItem', caseIndex, item }];
    }
    if (change.type === 'revise') {
      const { year, pattern, month } = change;
      return [{ type: 'revise', caseIndex, year, pattern, ...(month === undefined ? {} : { month }) }];
    }
    const { caseId: _, ...rest } = change;
    return [{ ...rest, caseIndex } as PlanEdit];
  });
}

/** The case ids with an added case's: at its index, else last (-1 while the API has not numbered it). */
function withCase(ids: readonly number[], change: Extract<PlanChange, { type: 'addCase' }>): number[] {
  return ids.toSpliced(change.index ?? ids.length, 0, change.caseId ?? -1);
}

/** The workbook's case ids once a change set is applied: a case added goes at its index or last, one deleted leaves. */
export function caseIdsAfter(changes: readonly PlanChange[], ids: readonly number[]): number[] {
  let after = [...ids];
  for (const change of changes) {
    if (change.type === 'addCase') after = withCase(after, change);
    else if (change.type === 'deleteCase') after = after.filter((id) => id !== change.caseId);
  }
  return after;
}
