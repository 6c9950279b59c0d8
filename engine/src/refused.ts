/**
 * The inputs a workbook's build refused (stored values outside the plan file's bounds), followed through edits: an
 * edit that sets such an input again clears it, and a case added or deleted renumbers those of the cases after it.
 */
import type { PlanEdit } from './edits';
import type { PlanFileIssue } from './schema';

/** The issues with the case index in their path moved by `by` for cases from `from` on; the case at `gone` dropped. */
function renumbered(issues: PlanFileIssue[], from: number, by: number, gone?: number): PlanFileIssue[] {
  return issues.flatMap((issue) => {
    const [top, index, ...rest] = issue.path.split('.');
    const i = Number(index);
    if (top !== 'cases' || i < from) return [issue];
    return i === gone ? [] : [{ ...issue, path: ['cases', i + by, ...rest].join('.') }];
  });
}

/**
 * The refused inputs still missing after edits: an edit that sets an input (or the whole growth model, a case rate,
 * a plan-level value) clears it; deleting a case drops its inputs, and deleting or adding one among the others
 * renumbers those of the cases after it.
 */
export function stillRefused(refused: PlanFileIssue[], edits: PlanEdit[]): PlanFileIssue[] {
  let left = refused;
  for (const edit of edits) {
    if (left.length === 0) return left;
    if (edit.type === 'deleteCase') left = renumbered(left, edit.caseIndex, -1, edit.caseIndex);
    else if (edit.type === 'addCase') {
      if (edit.index !== undefined) left = renumbered(left, edit.index, 1);
    } else {
      const set = setPaths(edit);
      left = left.filter((issue) => !set.some((path) => issue.path === path || issue.path.startsWith(`${path}.`)));
    }
  }
  return left;
}

/** Paths of the plan file an edit sets. */
function setPaths(edit: PlanEdit): string[] {
  const of = (caseIndex: number, ...parts: (string | number)[]) => ['cases', caseIndex, ...parts].join('.');
  switch (edit.type) {
    case 'plan':
      return Object.keys(edit.values);
    case 'year':
      return [of(edit.caseIndex, 'years', edit.year, edit.key)];
    case 'caseRate':
      return [of(edit.caseIndex, 'case_rate')];
    case 'model':
      return [of(edit.caseIndex, 'model')];
    case 'cash':
      return Object.keys(edit.values).map((key) => of(edit.caseIndex, 'cash', edit.month, key));
    case 'actual':
      return Object.keys(edit.values).map((key) => of(edit.caseIndex, 'actuals', edit.month, key));
    case 'daily':
      return [of(edit.caseIndex, 'daily', edit.date, edit.metric)];
    case 'revise':
      return [of(edit.caseIndex, 'revisions', edit.year)];
    default:
      return [];
  }
}
