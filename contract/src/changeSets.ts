/**
 * What a write request changes in a plan's stored inputs, written once: a change set. The API writes its rows from it
 * (`api/src/services/plans/planChanges.ts`), its cached workbook and the browser's apply the engine edits derived
 * from it (`engineEdits`), and the plan's history records the rows the API wrote. A change names its case by database
 * id; the engine names cases by their index in the workbook, which `engineEdits` maps.
 */
import type { PlanEdit } from '@topline/engine';
import type {
  ActualKey,
  CashInputs,
  Comment,
  CostItem,
  DailyInputs,
  GrowthModel,
  PlanCaseInput,
  YearKey,
} from '@topline/engine/schema';
import { COST_ITEM_FIELDS, type CostItemFields } from './screens';

type Values<K extends string> = { [Key in K]?: number | null };

export type PlanChange =
  | { type: 'year'; caseId: number; year: number; key: YearKey; value: number | null }
  | { type: 'caseRate'; caseId: number; value: number }
  | { type: 'caseName'; caseId: number; value: string }
  | { type: 'model'; caseId: number; model: GrowthModel }
  | { type: 'cash'; caseId: number; month: number; values: Values<keyof CashInputs & string> }
  /** A month of actuals: its values (null clears one), and the month marked ACT. */
  | { type: 'actual'; caseId: number; month: number; values: Values<ActualKey> }
  | { type: 'comment'; caseId: number; comment: Comment }
  /** A daily entry belongs to the plan: every case reads it. */
  | { type: 'daily'; date: string; metric: keyof DailyInputs; value: number | null }
  /**
   * A cost item saved whole: a new one (`costId` null until the API's insert gives it one), or one replacing the
   * version of it the caller read (`itemVersion`), which is refused when someone saved it since.
   */
  | { type: 'costItem'; caseId: number; costId: number | null; item: CostItemFields; itemVersion?: number }
  | { type: 'deleteCostItem'; caseId: number; costId: number }
  /** A month of actuals returned to the forecast (EST); its entered values stay. */
  | { type: 'reverse'; caseId: number; month: number }
  /**
   * A year's budget revised from its latest actual month `month` (MODEL.md section 6), which the API finds under the
   * plan's lock (the browser's preview leaves it to the engine).
   */
  | { type: 'revise'; caseId: number; year: number; pattern: 'upward' | 'downward'; month?: number }
  /**
   * A case added after the plan's others (`caseId` null until the API's insert numbers it), with what it starts with:
   * its name, rate and growth model, and the plan's daily entries, which every case reads.
   */
  | { type: 'addCase'; caseId: number | null; case: PlanCaseInput }
  | { type: 'deleteCase'; caseId: number }
  /** The plan's own fields that the workbook reads: its name and its first month. */
  | { type: 'plan'; values: { business_plan_name?: string; start_year?: number; start_month?: number } };

/** The stored fields of a cost item (the request may carry more). */
export const costFieldsOf = (item: CostItemFields): CostItemFields =>
  Object.fromEntries(COST_ITEM_FIELDS.map((key) => [key, item[key]])) as CostItemFields;

/**
 * The engine edits of a change set, given the workbook's case ids (database id by case index). A change of a case the
 * workbook does not hold gets case index -1, which the engine refuses, so the caller rebuilds instead. A new cost item
 * not numbered yet (the browser's preview before the API answers) goes by `provisionalId`.
 */
export function engineEdits(changes: readonly PlanChange[], ids: readonly number[], provisionalId = 'new'): PlanEdit[] {
  return changes.flatMap((change): PlanEdit[] => {
    if (change.type === 'daily') return ids.map((_, caseIndex) => ({ ...change, caseIndex }));
    if (change.type === 'plan') return [change];
    if (change.type === 'addCase') return [{ type: 'addCase', case: change.case }];
    if (change.type === 'costItem') {
      const item = { cost_id: change.costId ?? provisionalId, ...costFieldsOf(change.item) } as CostItem;
      return [{ type: 'costItem', caseIndex: ids.indexOf(change.caseId), item }];
    }
    if (change.type === 'revise') {
      const { year, pattern } = change;
      return [{ type: 'revise', caseIndex: ids.indexOf(change.caseId), year, pattern }];
    }
    const { caseId, ...rest } = change;
    return [{ ...rest, caseIndex: ids.indexOf(caseId) } as PlanEdit];
  });
}

/** The workbook's case ids once a change set is applied: a case added goes last, a case deleted leaves its place. */
export function caseIdsAfter(changes: readonly PlanChange[], ids: readonly number[]): number[] {
  let after = [...ids];
  for (const change of changes) {
    if (change.type === 'addCase') after = [...after, change.caseId ?? -1];
    else if (change.type === 'deleteCase') after = after.filter((id) => id !== change.caseId);
  }
  return after;
}
