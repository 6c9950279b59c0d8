/**
 * Edits to a plan's inputs. Each returns a new plan file; the workbook then receives the cells that changed.
 */

import { planMonthAt } from './calendar';
import { actMonths } from './compile/actual';
import type {
  ActualInputs,
  CashInputs,
  Comment,
  CostItem,
  DailyInputs,
  GrowthModel,
  PlanCaseInput,
  PlanFile,
  YearKey,
} from './schema';
import { caseSchema, MAX_CASES } from './schema';

export type PlanEdit =
  | {
      type: 'plan';
      values: Partial<
        Pick<PlanFile, 'business_plan_name' | 'start_year' | 'start_month' | 'arr' | 'arpa' | 'period' | 'currency'>
      >;
    }
  | { type: 'year'; caseIndex: number; year: number; key: YearKey; value: number | null }
  | { type: 'caseRate'; caseIndex: number; value: number }
  | { type: 'caseName'; caseIndex: number; value: string }
  | { type: 'model'; caseIndex: number; model: GrowthModel }
  | { type: 'cash'; caseIndex: number; month: number; values: { [K in keyof CashInputs]?: number | null } }
  | { type: 'actual'; caseIndex: number; month: number; values: { [K in keyof ActualInputs]?: number | null } }
  | { type: 'reverse'; caseIndex: number; month: number }
  /**
   * A year's budget revised (MODEL.md section 6) from `month`, or, without one, from the month `revisionMonth` finds:
   * a revision stored earlier keeps the month it was made from, whatever actuals came since.
   */
  | { type: 'revise'; caseIndex: number; year: number; pattern: 'upward' | 'downward'; month?: number }
  | { type: 'daily'; caseIndex: number; date: string; metric: keyof DailyInputs; value: number | null }
  /** A case added at `index` among the plan's cases (a restore puts one back in its place), else after them. */
  | { type: 'addCase'; case: PlanCaseInput; index?: number }
  | { type: 'deleteCase'; caseIndex: number }
  | { type: 'costItem'; caseIndex: number; item: CostItem }
  | { type: 'deleteCostItem'; caseIndex: number; costId: string | number }
  | { type: 'comment'; caseIndex: number; comment: Comment };

/** An edit that the plan's state does not allow (deleting the last case, revising a year without actuals). */
export class EditError extends Error {
  override readonly name = 'EditError';
  constructor(
    readonly field: string,
    /** The refusal without the field's name, as a field-level message shows it. */
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

type Cases = PlanFile['cases'];

/**
 * The month L a revision of plan year `year` starts from (MODEL.md section 6): the latest ACT month of that year,
 * provided a month of the year is left after it.
 * @param actMonths the case's ACT months (plan month indexes t, any year).
 * @throws {EditError} on `year` when the year has no ACT month, or when its last month is ACT.
 */
export function revisionMonth(actMonths: Iterable<number>, year: number): number {
  const first = planMonthAt(year, 1);
  const last = planMonthAt(year, 12);
  const act = [...actMonths].filter((t) => t >= first && t <= last);
  if (act.length === 0) throw new EditError('year', `year ${year} has no actual month to revise from`);
  const latest = Math.max(...act);
  if (latest >= last) throw new EditError('year', `year ${year} has no month left to revise`);
  return latest;
}

function withCase(plan: PlanFile, caseIndex: number, change: (c: Cases[number]) => Cases[number]): PlanFile {
  const c = plan.cases[caseIndex];
  if (!c) throw new EditError('case', `the plan has no case ${caseIndex}`);
  const cases = plan.cases.slice();
  cases[caseIndex] = change(c);
  return { ...plan, cases };
}

/** Sets or clears keys of a record entry, dropping the entry when it empties. */
function patchEntry<T extends Record<string, unknown>>(
  record: Record<string, T>,
  key: string,
  values: Record<string, unknown>,
): Record<string, T> {
  const entry: Record<string, unknown> = { ...(record[key] ?? {}) };
  for (const [k, v] of Object.entries(values)) {
    if (v === null || v === undefined) delete entry[k];
    else entry[k] = v;
  }
  const next = { ...record };
  if (Object.keys(entry).length === 0) delete next[key];
  else next[key] = entry as T;
  return next;
}

/** Applies edits in order and returns the new plan file (not yet validated). */
export function applyEdits(plan: PlanFile, edits: PlanEdit[]): unknown {
  return edits.reduce(applyEdit, plan);
}

function applyEdit(plan: PlanFile, edit: PlanEdit): PlanFile {
  switch (edit.type) {
    case 'plan':
      return { ...plan, ...edit.values };
    case 'year':
      return withCase(plan, edit.caseIndex, (c) => ({
        ...c,
        years: patchEntry(c.years, String(edit.year), { [edit.key]: edit.value }),
      }));
    case 'caseRate':
      return withCase(plan, edit.caseIndex, (c) => ({ ...c, case_rate: edit.value }));
    case 'caseName':
      return withCase(plan, edit.caseIndex, (c) => ({ ...c, case_name: edit.value }));
    case 'model':
      return withCase(plan, edit.caseIndex, (c) => ({ ...c, model: edit.model }));
    case 'cash':
      return withCase(plan, edit.caseIndex, (c) => ({
        ...c,
        cash: patchEntry(c.cash, String(edit.month), edit.values),
      }));
    case 'actual':
      // Saving actuals makes the month ACT (MODEL.md section 5).
      return withCase(plan, edit.caseIndex, (c) => ({
        ...c,
        actuals: patchEntry(c.actuals, String(edit.month), { ...edit.values, status: 'ACT' }),
      }));
    case 'reverse':
      // Back to EST; the entered values stay for later.
      return withCase(plan, edit.caseIndex, (c) => {
        if (!c.actuals[String(edit.month)]) throw new EditError('month', `month ${edit.month} has no actuals`);
        return { ...c, actuals: patchEntry(c.actuals, String(edit.month), { status: 'EST' }) };
      });
    case 'revise':
      return withCase(plan, edit.caseIndex, (c) => {
        const month = edit.month ?? revisionMonth(actMonths(c), edit.year);
        return { ...c, revisions: { ...c.revisions, [String(edit.year)]: { pattern: edit.pattern, month } } };
      });
    case 'daily':
      return withCase(plan, edit.caseIndex, (c) => ({
        ...c,
        daily: patchEntry(c.daily, edit.date, { [edit.metric]: edit.value }),
      }));
    case 'addCase':
      if (plan.cases.length >= MAX_CASES) throw new EditError('cases', `a plan has at most ${MAX_CASES} cases`);
      // The case as the plan file holds it: what it leaves out takes its default (no cost items, no actuals...).
      if (edit.index !== undefined && !(edit.index >= 0 && edit.index <= plan.cases.length)) {
        throw new EditError('case', `the plan has no place ${edit.index} for a case`);
      }
      return { ...plan, cases: plan.cases.toSpliced(edit.index ?? plan.cases.length, 0, caseSchema.parse(edit.case)) };
    case 'deleteCase':
      if (plan.cases.length <= 1) throw new EditError('cases', 'a plan keeps at least one case');
      if (!plan.cases[edit.caseIndex]) throw new EditError('case', `the plan has no case ${edit.caseIndex}`);
      return { ...plan, cases: plan.cases.filter((_, i) => i !== edit.caseIndex) };
    case 'costItem':
      return withCase(plan, edit.caseIndex, (c) => {
        const i = edit.item.cost_id === undefined ? -1 : c.cost_items.findIndex((x) => x.cost_id === edit.item.cost_id);
        const items = c.cost_items.slice();
        if (i >= 0) items[i] = edit.item;
        else items.push(edit.item);
        return { ...c, cost_items: items };
      });
    case 'deleteCostItem':
      return withCase(plan, edit.caseIndex, (c) => {
        if (!c.cost_items.some((x) => x.cost_id === edit.costId)) throw new EditError('cost_id', 'no such cost item');
        return { ...c, cost_items: c.cost_items.filter((x) => x.cost_id !== edit.costId) };
      });
    case 'comment':
      return withCase(plan, edit.caseIndex, (c) => {
        const same = (x: Comment) =>
          x.year === edit.comment.year &&
          x.column_name === edit.comment.column_name &&
          x.section === edit.comment.section;
        const rest = c.comments.filter((x) => !same(x));
        return { ...c, comments: edit.comment.content === '' ? rest : [...rest, edit.comment] };
      });
  }
}
