import { ExportedCellChange, type ExportedChange, type HyperFormula } from 'hyperformula';
import type { PlanEdit } from './edits';
import type { ApplyResult, ReadModelName, WorkbookState } from './patchTypes';
import { sameData } from './planDiff';

/** Which read models of which case see a changed value, from HyperFormula's list of changed cells. */
export function changedModels(
  hf: HyperFormula,
  changes: ExportedChange[],
  previous: WorkbookState,
  next: WorkbookState,
  edits: PlanEdit[] | 'all',
): ApplyResult['changed'] {
  const sheetIds = new Set<number>();
  for (const change of changes) if (change instanceof ExportedCellChange) sheetIds.add(change.address.sheet);
  const changedSheets = new Set<string>();
  for (const id of sheetIds) {
    const name = hf.getSheetName(id);
    if (name) changedSheets.add(name);
  }
  // Comments have no cells, and the monthly and dashboard answers also carry the entered actuals: the edits say
  // which of them to compare. Adding or deleting a case moves every case after it, so then all are compared.
  const moved = edits === 'all' || edits.some((e) => e.type === 'addCase' || e.type === 'deleteCase');
  return next.compiled.cases
    .map((layout) => {
      const models = new Set<ReadModelName>();
      const s = layout.sheets;
      const hit = (...names: (string | undefined)[]) => names.some((n) => n !== undefined && changedSheets.has(n));
      if (hit(s.assumptions, s.estimate)) for (const m of ESTIMATE_MODELS) models.add(m);
      if (hit(s.actual, s.actualToDate, s.estimateToDate, s.variance)) models.add('monthly').add('dashboard');
      if (hit(s.costs)) models.add('cost');
      if (hit(s.daily)) models.add('home').add('monthly');
      if (hit(s.dashboard)) models.add('dashboard');
      const was = previous.plan.cases[layout.index];
      const now = next.plan.cases[layout.index];
      if (!previous.compiled.cases[layout.index] || was?.case_name !== now?.case_name) models.add('plan');
      const ofCase = edits === 'all' ? [] : edits.filter((e) => 'caseIndex' in e && e.caseIndex === layout.index);
      const commented = moved || ofCase.some((e) => e.type === 'comment');
      if (commented && !sameData(was?.comments, now?.comments)) models.add('monthly');
      const months = moved
        ? undefined
        : ofCase.flatMap((e) => (e.type === 'actual' || e.type === 'reverse' ? [String(e.month)] : []));
      const actualsMoved = months
        ? months.some((t) => !sameData(was?.actuals[t], now?.actuals[t]))
        : !sameData(was?.actuals, now?.actuals);
      if (actualsMoved) models.add('monthly').add('dashboard');
      return { caseIndex: layout.index, models: [...models] };
    })
    .filter((c) => c.models.length > 0);
}

/** Every read model of a case's estimate (all but 'plan'). */
export const ESTIMATE_MODELS: ReadModelName[] = ['pl', 'kpi', 'revenue', 'cost', 'monthly', 'dashboard', 'home'];
