import type { PlanEdit } from './edits';
import type { PlanFile, YearKey } from './schema';

/** The edits between two plans, and what a list of edits touches. */

/**
 * The edits that take `plan` to `next` when the two differ only in the cases' assumptions of a year, their cash items
 * and the entered values of months that are ACT in `next`; undefined when anything else differs (the plan's settings,
 * its cases' other inputs, a month's actuals removed or reversed).
 */
export function editsBetween(plan: PlanFile, next: PlanFile): PlanEdit[] | undefined {
  if (!sameSettings(plan, next)) return undefined;
  const edits: PlanEdit[] = [];
  for (const [caseIndex, now] of next.cases.entries()) {
    const was = plan.cases[caseIndex];
    if (!was) return undefined;
    const { years: wasYears, cash: wasCash, actuals: wasActuals, ...wasRest } = was;
    const { years: nowYears, cash: nowCash, actuals: nowActuals, ...nowRest } = now;
    if (!sameData(wasRest, nowRest)) return undefined;
    for (const [year, values] of changedEntries(wasYears, nowYears)) {
      for (const [key, value] of Object.entries(values)) {
        edits.push({ type: 'year', caseIndex, year: Number(year), key: key as YearKey, value });
      }
    }
    for (const [month, values] of changedEntries(wasCash, nowCash)) {
      edits.push({ type: 'cash', caseIndex, month: Number(month), values });
    }
    for (const [month, values] of changedEntries(wasActuals, nowActuals)) {
      if (nowActuals[month]?.status !== 'ACT') return undefined;
      const { status: _, ...entered } = values;
      edits.push({ type: 'actual', caseIndex, month: Number(month), values: entered });
    }
  }
  return edits;
}

/** Whether two plans have the same settings (everything but their cases) and as many cases. */
export function sameSettings(plan: PlanFile, next: PlanFile): boolean {
  const { cases: wasCases, ...wasSettings } = plan;
  const { cases: nowCases, ...nowSettings } = next;
  return wasCases.length === nowCases.length && sameData(wasSettings, nowSettings);
}

/**
 * Whether two pieces of plan data (numbers, text, arrays, plain objects) are equal, whatever the order of object keys;
 * a key that holds undefined counts as absent, as in JSON. (The engine also runs in the browser: no `node:util`.)
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameData(x, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x).filter((k) => x[k] !== undefined);
  return (
    keys.length === Object.keys(y).filter((k) => y[k] !== undefined).length && keys.every((k) => sameData(x[k], y[k]))
  );
}

/** Per entry (a year, a month) that differs, its values that differ: the new one, or null where it was removed. */
export function changedEntries<T extends Record<string, unknown>>(
  was: Record<string, T>,
  now: Record<string, T>,
): [string, { [K in keyof T]?: T[K] | null }][] {
  const out: [string, { [K in keyof T]?: T[K] | null }][] = [];
  for (const entry of new Set([...Object.keys(was), ...Object.keys(now)])) {
    const before: Record<string, unknown> = was[entry] ?? {};
    const after: Record<string, unknown> = now[entry] ?? {};
    const values: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (!sameData(before[key], after[key])) values[key] = after[key] ?? null;
    }
    if (Object.keys(values).length > 0) out.push([entry, values as { [K in keyof T]?: T[K] | null }]);
  }
  return out;
}

/**
 * The cases whose inputs the edits change, when each edit stays within one case; undefined when any edit changes the
 * plan itself or its list of cases (which renumbers their sheets).
 */
export function editedCases(edits: PlanEdit[]): Set<number> | undefined {
  const cases = new Set<number>();
  for (const edit of edits) {
    if (edit.type === 'plan' || edit.type === 'addCase' || edit.type === 'deleteCase') return undefined;
    cases.add(edit.caseIndex);
  }
  return cases;
}

export function isAssumptionEdit(edit: PlanEdit): boolean {
  return edit.type === 'year' || edit.type === 'caseRate' || edit.type === 'model';
}
