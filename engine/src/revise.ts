/**
 * The preview of "Revise budget" (MODEL.md section 6): each pattern applied to a copy of the plan's workbook through
 * `PlanWorkbook.apply`, the very edit the save applies, so the preview is what the save will show.
 */

import { REVISION_PATTERNS } from './caseInputs';
import type { CompileOptions } from './compile';
import { actMonths } from './compile/actual';
import { revisionMonth } from './edits';
import { type RevisionPattern, type RevisionPreview, revisionFigures } from './read/revisionPreview';
import { PlanWorkbook } from './workbook';

const change = (after: number | null, before: number | null) =>
  after === null || before === null ? null : after - before;

/**
 * What revising plan year `year` of a case would leave, for each pattern, beside the forecast as it stands.
 * @param asOf the month the plan's workbook is built as of (the same as the live workbook's)
 * @throws {EditError} on `year` when the year cannot be revised (no ACT month in it, or its last month is ACT)
 */
export function revisionPreview(
  plan: PlanWorkbook['plan'],
  caseIndex: number,
  year: number,
  asOf: CompileOptions['asOf'],
): RevisionPreview {
  const c = plan.cases[caseIndex];
  const from = revisionMonth(c ? actMonths(c) : [], year);
  const copy = PlanWorkbook.build(plan, { asOf });
  try {
    const current = revisionFigures(copy, caseIndex, year, from);
    const outcome = (pattern: RevisionPattern) => {
      copy.apply({ type: 'revise', caseIndex, year, pattern });
      const after = revisionFigures(copy, caseIndex, year, from);
      return { ...after, revenue_change: change(after.remaining_revenue, current.remaining_revenue) };
    };
    // One after the other on the one copy: a revision of the year replaces the year's earlier one.
    const [upward, downward] = REVISION_PATTERNS.map(outcome);
    if (!upward || !downward) throw new Error('a revision pattern is missing');
    return {
      case_index: caseIndex,
      year,
      from_month: from,
      current_pattern: c?.revisions[String(year)]?.pattern ?? null,
      current,
      patterns: { upward, downward },
    };
  } finally {
    copy.destroy();
  }
}
