/**
 * Applying edits to a built workbook: the plan's inputs are edited and compiled again, and HyperFormula receives only
 * the cells that differ, in one batch. Two kinds of edit skip most of that: an assumption edit compiles only its
 * case's Assumptions sheet, and a monthly value that only moves from one number to another (a cash item, an actual
 * of an ACT month) is written straight into the cells the compiler recorded for it.
 */
import type { HyperFormula, RawCellContent } from 'hyperformula';
import { changedModels, ESTIMATE_MODELS } from './changedModels';
import {
  type CompiledWorkbook,
  type CompileOptions,
  compilePlan,
  type Grid,
  type InputCell,
  inputPath,
  recompileCases,
} from './compile';
import { compileAssumptions } from './compile/assumptions';
import { applyEdits, type PlanEdit } from './edits';
import type { ApplyResult, WorkbookState } from './patchTypes';
import { editedCases, editsBetween, isAssumptionEdit, sameData, sameSettings } from './planDiff';
import {
  actMonthsAdded,
  differingCells,
  monthsTurningAct,
  REBUILD_MONTHS,
  REBUILD_SHARE,
  rebuiltCases,
  totalCells,
} from './rebuildRule';
import { type PlanFile, parsePlanFile } from './schema';

export type { ApplyResult, ReadModelName, WorkbookState } from './patchTypes';

/** An input cell to write and its new number. */
type LiteralWrite = { cell: InputCell; value: number };

/**
 * Applies edits to the plan's inputs and updates `hf` in place, in one batch. `edited`, when the caller has it, is the
 * plan the edits make, already read (`patchToPlan`), which is then not read again.
 * @returns the workbook's new state and what changed.
 * @throws {PlanFileError} when the edited plan is invalid; the workbook is then unchanged.
 * @throws {EditError} when the plan's state does not allow an edit; the workbook is then unchanged.
 */
export function patchWorkbook(
  hf: HyperFormula,
  state: WorkbookState,
  options: CompileOptions,
  edits: PlanEdit[],
  edited?: PlanFile,
): { state: WorkbookState; result: ApplyResult; rebuild?: boolean } {
  const next = edited ?? parsePlanFile(applyEdits(state.plan, edits));
  // Assumption edits beside literal writes keep the short way: their Assumptions sheets are compiled again and
  // written in the same batch.
  const assumptionEdits = edits.filter(isAssumptionEdit);
  const otherEdits = edits.filter((e) => !isAssumptionEdit(e));
  const writes = literalWrites(state, otherEdits, next);
  if (writes) return writeLiterals(hf, state, writes, next, edits);
  const assumptionsOnly = otherEdits.length === 0;
  // The cases the other edits change are compiled again (their Assumptions sheets with them); the Assumptions sheets
  // of other cases, only.
  const cases = editedCases(otherEdits);
  const compiled = assumptionsOnly
    ? withAssumptions(state.compiled, next, edits)
    : cases
      ? withAssumptions(recompileCases(state.compiled, next, cases), next, assumptionEdits)
      : compilePlan(next, options);
  const before = state.compiled;
  const recompiled = assumptionsOnly ? 'assumptions' : cases ? 'cases' : 'plan';
  const rebuild =
    !assumptionsOnly &&
    (monthsTurningAct(before, edits) >= REBUILD_MONTHS ||
      differingCells(before, compiled) > REBUILD_SHARE * totalCells(compiled));
  return patchCompiled(hf, state, { compiled, plan: next }, edits, recompiled, rebuild);
}

/**
 * Brings the workbook to another state of the plan's inputs as a whole (the plan read afresh after writes it was not
 * told of as edits). Differences that edits make (assumptions, cash items, actuals of ACT months) are applied as those
 * edits, by `patchWorkbook`'s short ways. Otherwise the cases whose inputs differ are compiled again (the whole plan
 * when its own settings or its list of cases differ) and HyperFormula receives the cells that differ, in one batch, or
 * is built afresh when that changes much.
 */
export function patchToPlan(
  hf: HyperFormula,
  state: WorkbookState,
  options: CompileOptions,
  next: PlanFile,
): { state: WorkbookState; result: ApplyResult; rebuild?: boolean } {
  const before = state.compiled;
  // What most writes change (assumptions, cash items, actuals) as the edits they were: the short ways of `apply`.
  const edits = editsBetween(state.plan, next);
  if (edits?.length === 0) {
    return { state: { compiled: before, plan: next }, result: { changed: [], cells: 0, recompiled: 'none' } };
  }
  if (edits && sameData(parsePlanFile(applyEdits(state.plan, edits)), next)) {
    return patchWorkbook(hf, state, options, edits, next);
  }
  const cases = sameSettings(state.plan, next)
    ? new Set(next.cases.flatMap((c, i) => (sameData(c, state.plan.cases[i]) ? [] : [i])))
    : undefined;
  const compiled = cases ? recompileCases(before, next, cases) : compilePlan(next, options);
  const rebuild =
    actMonthsAdded(before, compiled) >= REBUILD_MONTHS ||
    differingCells(before, compiled) > REBUILD_SHARE * totalCells(compiled);
  return patchCompiled(hf, state, { compiled, plan: next }, 'all', cases ? 'cases' : 'plan', rebuild);
}

/**
 * Hands HyperFormula a new compile of the plan: the caller builds it afresh (`rebuild`), or the names and the cells
 * that differ are written in one batch. `edits` say which entered values to compare for the read models; 'all'
 * compares every case's.
 */
function patchCompiled(
  hf: HyperFormula,
  state: WorkbookState,
  after: WorkbookState,
  edits: PlanEdit[] | 'all',
  recompiled: ApplyResult['recompiled'],
  rebuild: boolean,
): { state: WorkbookState; result: ApplyResult; rebuild?: boolean } {
  const before = state.compiled;
  const { compiled } = after;
  if (rebuild) {
    // The caller builds HyperFormula afresh from `compiled`; every read model of every case may have changed.
    const changed = rebuiltCases(before, compiled).map((caseIndex) => ({
      caseIndex,
      models: [...ESTIMATE_MODELS, 'plan' as const],
    }));
    return { state: after, result: { changed, cells: totalCells(compiled), recompiled, rebuilt: true }, rebuild: true };
  }
  let cells = 0;
  const changes = hf.batch(() => {
    const names = new Map(compiled.names.map((n) => [n.name, n.expression]));
    for (const n of before.names) if (!names.has(n.name)) hf.removeNamedExpression(n.name);
    for (const name of Object.keys(before.sheets)) {
      if (!(name in compiled.sheets)) hf.removeSheet(sheetId(hf, name));
    }
    const added = Object.keys(compiled.sheets).filter((name) => !(name in before.sheets));
    for (const name of added) hf.addSheet(name);
    const old = new Map(before.names.map((n) => [n.name, n.expression]));
    for (const [name, expression] of names) {
      if (!old.has(name)) hf.addNamedExpression(name, expression);
      else if (old.get(name) !== expression) hf.changeNamedExpression(name, expression);
    }
    for (const [name, grid] of Object.entries(compiled.sheets)) {
      if (added.includes(name)) {
        hf.setSheetContent(sheetId(hf, name), grid as RawCellContent[][]);
        cells += grid.reduce((n, row) => n + row.filter((c) => c !== null).length, 0);
      } else if (grid !== before.sheets[name]) {
        cells += patchSheet(hf, name, before.sheets[name] ?? [], grid);
      }
    }
  });
  return {
    state: after,
    result: { changed: changedModels(hf, changes, state, after, edits), cells, recompiled },
  };
}

/**
 * An edit of a case's assumptions (a year's value, the case rate, the growth model) changes only cells of its
 * Assumptions sheet: every other sheet refers to them. Only that sheet is compiled again.
 */
function withAssumptions(compiled: CompiledWorkbook, next: PlanFile, edits: PlanEdit[]): CompiledWorkbook {
  const sheets = { ...compiled.sheets };
  for (const i of new Set(edits.map((e) => ('caseIndex' in e ? e.caseIndex : -1)))) {
    const c = next.cases[i];
    const layout = compiled.cases[i];
    if (c && layout) sheets[layout.sheets.assumptions] = compileAssumptions(c, i);
  }
  return { ...compiled, sheets };
}

/**
 * The cell writes of edits that change only input literals: cash items and actuals of months already ACT, whose
 * every recorded cell holds a number before and after (a value, or the number standing in for an absent one).
 * Undefined when any edit changes more than that (a month turning ACT, a beginning balance replacing the chain,
 * an entered ARPA replacing the plan's), which then compiles the plan.
 */
function literalWrites(state: WorkbookState, edits: PlanEdit[], next: PlanFile): LiteralWrite[] | undefined {
  const writes: LiteralWrite[] = [];
  for (const edit of edits) {
    if (edit.type !== 'cash' && edit.type !== 'actual') return undefined;
    const group = edit.type === 'cash' ? 'cash' : 'actuals';
    if (group === 'actuals' && !state.compiled.cases[edit.caseIndex]?.act.includes(edit.month)) return undefined;
    const was: Record<string, unknown> = state.plan.cases[edit.caseIndex]?.[group][String(edit.month)] ?? {};
    const now: Record<string, unknown> = next.cases[edit.caseIndex]?.[group][String(edit.month)] ?? {};
    for (const key of Object.keys(edit.values)) {
      const cells = state.compiled.inputCells.get(inputPath(edit.caseIndex, group, edit.month, key));
      if (!cells) return undefined;
      for (const cell of cells) {
        const before = was[key] ?? cell.fallback;
        const after = now[key] ?? cell.fallback;
        if (typeof before !== 'number' || typeof after !== 'number') return undefined;
        writes.push({ cell, value: after });
      }
    }
  }
  return writes;
}

/**
 * Writes input literals into the workbook and the compiled sheets (copied where they change), and the Assumptions
 * sheets of the assumption edits among `edits` compiled again, in one batch.
 */
function writeLiterals(
  hf: HyperFormula,
  state: WorkbookState,
  writes: LiteralWrite[],
  next: PlanFile,
  edits: PlanEdit[],
): { state: WorkbookState; result: ApplyResult } {
  const before = state.compiled;
  const assumptionEdits = edits.filter(isAssumptionEdit);
  const withEdited = assumptionEdits.length > 0 ? withAssumptions(before, next, assumptionEdits) : before;
  const sheets = { ...withEdited.sheets };
  const copied = new Set<string>();
  let cells = 0;
  const changes = hf.batch(() => {
    for (const [name, grid] of Object.entries(withEdited.sheets)) {
      if (grid !== before.sheets[name]) cells += patchSheet(hf, name, before.sheets[name] ?? [], grid);
    }
    for (const { cell, value } of writes) {
      const { sheet, row, column } = cell;
      if ((sheets[sheet]?.[row]?.[column] ?? null) === value) continue;
      if (!copied.has(sheet)) {
        sheets[sheet] = (sheets[sheet] ?? []).slice();
        copied.add(sheet);
      }
      const grid = sheets[sheet] as Grid;
      if (!copied.has(`${sheet}!${row}`)) {
        grid[row] = (grid[row] ?? []).slice();
        copied.add(`${sheet}!${row}`);
      }
      (grid[row] as Grid[number])[column] = value;
      hf.setCellContents({ sheet: sheetId(hf, sheet), row, col: column }, [[value]]);
      cells++;
    }
  });
  const after = { compiled: { ...before, sheets }, plan: next };
  return {
    state: after,
    result: {
      changed: changedModels(hf, changes, state, after, edits),
      cells,
      recompiled: assumptionEdits.length > 0 ? 'assumptions' : 'none',
    },
  };
}

function sheetId(hf: HyperFormula, name: string): number {
  const id = hf.getSheetId(name);
  if (id === undefined) throw new RangeError(`no sheet ${name}`);
  return id;
}

/** Writes the cells of a sheet that differ between two compiles; returns how many. */
function patchSheet(hf: HyperFormula, name: string, before: Grid, after: Grid): number {
  const id = sheetId(hf, name);
  let cells = 0;
  const rows = Math.max(before.length, after.length);
  for (let r = 0; r < rows; r++) {
    const a = before[r] ?? [];
    const b = after[r] ?? [];
    const columns = Math.max(a.length, b.length);
    for (let c = 0; c < columns; c++) {
      const x = a[c] ?? null;
      const y = b[c] ?? null;
      if (x !== y) {
        hf.setCellContents({ sheet: id, row: r, col: c }, [[y]]);
        cells++;
      }
    }
  }
  return cells;
}
