/**
 * The change set between two states of a stored plan. A restore from the plan's history writes its rows back as they
 * stood (their ids kept, so that a restore can itself be undone), not from a change set; what it changed is then said
 * as the change set that takes the plan as it was to the plan as it is, so that its answer carries one and the API's
 * and the browser's workbooks follow it by edits, as they follow every other write.
 */
import {
  COST_ITEM_FIELDS,
  type CostItemFields,
  caseIdsAfter,
  engineEdits,
  type PlanChange,
  planChangesAnswer,
} from '@topline/contract';
import { applyEdits, changedEntries, type PlanCase, type PlanFile, parsePlanFile, sameData } from '@topline/engine';

type Change<T extends PlanChange['type']> = Extract<PlanChange, { type: T }>;
type Memo = PlanCase['comments'][number];
/** A memo is one per year, column and section. */
const memoKey = (memo: Memo) => `${memo.year}/${memo.column_name}/${memo.section}`;

/** A plan's inputs as read from its rows (the engine's plan file) and its cases' database ids, in the same order. */
export interface StoredPlan {
  plan: PlanFile;
  caseIds: readonly number[];
}

/** The plan's own fields that a change set can change (`plan`); a difference in any other one has no change. */
const PLAN_FIELDS = ['business_plan_name', 'start_year', 'start_month'] as const;

/**
 * The change set that takes `before` to `after`, or undefined when no change set says it: a plan field no write
 * changes, a revision or a month's status row taken back, the cases both hold in another order.
 * Checked before it is answered: its engine edits applied to `before` give `after` exactly (memos in any order).
 */
export function changesBetween(before: StoredPlan, after: StoredPlan): PlanChange[] | undefined {
  const { cases: _b, ...beforeFields } = before.plan;
  const { cases: _a, ...afterFields } = after.plan;
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(afterFields)) {
    if (sameData(value, (beforeFields as Record<string, unknown>)[key])) continue;
    if (!(PLAN_FIELDS as readonly string[]).includes(key)) return undefined;
    values[key] = value;
  }
  const changes: PlanChange[] = Object.keys(values).length > 0 ? [{ type: 'plan', values }] : [];

  const kept = after.caseIds.filter((id) => before.caseIds.includes(id));
  const added = after.caseIds.filter((id) => !before.caseIds.includes(id));
  const deleted = before.caseIds.filter((id) => !after.caseIds.includes(id));
  // The cases both hold keep their order: no change moves a case.
  const keptBefore = before.caseIds.filter((id) => after.caseIds.includes(id));
  if (!sameData(keptBefore, kept)) return undefined;
  const caseOf = (plan: StoredPlan, id: number) => plan.plan.cases[plan.caseIds.indexOf(id)] as PlanCase;
  for (const id of kept) {
    const caseChanges = caseChangesBetween(id, caseOf(before, id), caseOf(after, id));
    if (!caseChanges) return undefined;
    changes.push(...caseChanges);
  }
  // Daily entries belong to the plan (every case holds them): a change reaches every case there is at that point.
  const [beforeCase] = before.plan.cases;
  const [afterCase] = after.plan.cases;
  if (kept.length > 0 && beforeCase && afterCase) {
    for (const [date, metrics] of changedEntries(beforeCase.daily, afterCase.daily)) {
      for (const [metric, value] of Object.entries(metrics)) {
        changes.push({ type: 'daily', date, metric: metric as Change<'daily'>['metric'], value });
      }
    }
  }
  changes.push(...casesComeAndGo(before, after, deleted, added));
  return reproduces(before, after, changes) ? changes : undefined;
}

/**
 * The cases deleted and added, a plan keeping one to three cases at every step: a case goes while another remains,
 * one comes while there is room. An added case goes in its place among the cases `after` holds, after those it follows.
 */
function casesComeAndGo(
  before: StoredPlan,
  after: StoredPlan,
  deleted: readonly number[],
  added: readonly number[],
): PlanChange[] {
  const changes: PlanChange[] = [];
  const place = (id: number) => after.caseIds.indexOf(id);
  let current = [...before.caseIds];
  const toDelete = [...deleted];
  const toAdd = [...added];
  while (toDelete.length > 0 || toAdd.length > 0) {
    const id = toDelete[0];
    if (id !== undefined && (current.length > 1 || toAdd.length === 0)) {
      changes.push({ type: 'deleteCase', caseId: id });
      current = current.filter((x) => x !== id);
      toDelete.shift();
      continue;
    }
    const next = toAdd.shift() as number;
    const follows = current.map((x, i) => (place(x) >= 0 && place(x) < place(next) ? i + 1 : 0));
    const index = Math.max(0, ...follows);
    const change: PlanChange = { type: 'addCase', caseId: next, case: after.plan.cases[place(next)] as PlanCase };
    changes.push(index === current.length ? change : { ...change, index });
    current = current.toSpliced(index, 0, next);
  }
  return changes;
}

/** The changes of one case kept by both, or undefined when one of them has no change. */
function caseChangesBetween(caseId: number, was: PlanCase, now: PlanCase): PlanChange[] | undefined {
  const changes: PlanChange[] = [];
  if (was.case_name !== now.case_name) changes.push({ type: 'caseName', caseId, value: now.case_name });
  if (was.case_rate !== now.case_rate) changes.push({ type: 'caseRate', caseId, value: now.case_rate });
  if (!sameData(was.model, now.model)) changes.push({ type: 'model', caseId, model: now.model });
  for (const [year, keys] of changedEntries(was.years, now.years)) {
    for (const [key, value] of Object.entries(keys)) {
      changes.push({ type: 'year', caseId, year: Number(year), key: key as Change<'year'>['key'], value });
    }
  }
  for (const [month, values] of changedEntries(was.cash, now.cash)) {
    changes.push({ type: 'cash', caseId, month: Number(month), values });
  }
  const months = new Set([...Object.keys(was.actuals), ...Object.keys(now.actuals)]);
  for (const month of months) {
    const before = was.actuals[month];
    const after = now.actuals[month];
    if (sameData(before, after)) continue;
    // A month's entry goes only with its status row, which no change deletes.
    if (!after) return undefined;
    const [changed] = changedEntries({ [month]: before ?? {} }, { [month]: after });
    const { status: _, ...values } = changed?.[1] ?? {};
    // Saving actuals marks the month ACT; a month left EST is then reversed, its entered values kept.
    changes.push({ type: 'actual', caseId, month: Number(month), values });
    if (after.status !== 'ACT') changes.push({ type: 'reverse', caseId, month: Number(month) });
  }
  for (const year of new Set([...Object.keys(was.revisions), ...Object.keys(now.revisions)])) {
    const revision = now.revisions[year];
    if (sameData(was.revisions[year], revision)) continue;
    if (!revision) return undefined;
    changes.push({ type: 'revise', caseId, year: Number(year), pattern: revision.pattern, month: revision.month });
  }
  // A stored cost item is named by its row's id.
  if ([...was.cost_items, ...now.cost_items].some((item) => typeof item.cost_id !== 'number')) return undefined;
  const items = new Map(now.cost_items.map((item) => [item.cost_id, item]));
  for (const item of was.cost_items) {
    if (!items.has(item.cost_id)) changes.push({ type: 'deleteCostItem', caseId, costId: Number(item.cost_id) });
  }
  for (const item of now.cost_items) {
    const stood = was.cost_items.find((x) => x.cost_id === item.cost_id);
    if (sameData(item, stood)) continue;
    const fields = Object.fromEntries(COST_ITEM_FIELDS.map((key) => [key, item[key as keyof typeof item]]));
    changes.push({ type: 'costItem', caseId, costId: Number(item.cost_id), item: fields as CostItemFields });
  }
  const memos = new Map(now.comments.map((c) => [memoKey(c), c]));
  for (const memo of was.comments) {
    // A blank memo removes the memo.
    if (!memos.has(memoKey(memo))) changes.push({ type: 'comment', caseId, comment: { ...memo, content: '' } });
  }
  for (const memo of now.comments) {
    const stood = was.comments.find((c) => memoKey(c) === memoKey(memo));
    if (!sameData(memo, stood)) changes.push({ type: 'comment', caseId, comment: memo });
  }
  return changes;
}

/** Whether the change set is one the contract answers and its engine edits take `before` to `after` exactly. */
function reproduces(before: StoredPlan, after: StoredPlan, changes: PlanChange[]): boolean {
  if (!planChangesAnswer.safeParse(changes).success) return false;
  if (!sameData(caseIdsAfter(changes, before.caseIds), after.caseIds)) return false;
  try {
    const applied = parsePlanFile(applyEdits(before.plan, engineEdits(changes, before.caseIds)));
    return sameData(memosSorted(applied), memosSorted(after.plan));
  } catch {
    // An edit the engine refuses, or a plan its schema refuses.
    return false;
  }
}

/** The plan with each case's memos in one order: they are a list, but a memo's place in it means nothing. */
function memosSorted(plan: PlanFile): PlanFile {
  const byKey = (a: Memo, b: Memo) => (memoKey(a) < memoKey(b) ? -1 : 1);
  return { ...plan, cases: plan.cases.map((c) => ({ ...c, comments: [...c.comments].sort(byKey) })) };
}
