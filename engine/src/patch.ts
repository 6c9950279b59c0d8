/**
 * Applying edits to a built workbook: the plan's inputs are edited and compiled again, and HyperFormula receives only
 * the cells that differ, in one batch. Two kinds of edit skip most of that: an assumption edit compiles only its
 * case's Assumptions sheet, and a monthly value that only moves from one number to another (a cash item, an actual
 * of an ACT month) is written straight into the cells the compiler recorded for it.
 */
import { ExportedCellChange, type ExportedChange, type HyperFormula, type RawCellContent } from 'hyperformula';
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
import { type PlanFile, parsePlanFile, type YearKey } from './schema';

/** The read models an edit can change; the API and the web refetch only these. */
export type ReadModelName = 'pl' | 'kpi' | 'revenue' | 'cost' | 'monthly' | 'dashboard' | 'home' | 'plan';

export interface ApplyResult {
  /** Read models whose numbers changed, per case index. */
  changed: { caseIndex: number; models: ReadModelName[] }[];
  /** Number of cells the workbook received. */
  cells: number;
  /**
   * What was compiled again: nothing (input cells written directly), one Assumptions sheet, the edited cases' sheets,
   * or the whole plan.
   */
  recompiled: 'none' | 'assumptions' | 'cases' | 'plan';
  /** The workbook was built afresh from the compiled sheets rather than patched (edits that change much). */
  rebuilt?: boolean;
}

/** A workbook as it stands: what HyperFormula holds was compiled as `compiled` from `plan`. */
export interface WorkbookState {
  compiled: CompiledWorkbook;
  plan: PlanFile;
}

/** An input cell to write and its new number. */
type LiteralWrite = { cell: InputCell; value: number };

/**
 * Applies edits to the plan's inputs and updates `hf` in place, in one batch.
 * @returns the workbook's new state and what changed.
 * @throws {PlanFileError} when the edited plan is invalid; the workbook is then unchanged.
 * @throws {EditError} when the plan's state does not allow an edit; the workbook is then unchanged.
 */
export function patchWorkbook(
  hf: HyperFormula,
  state: WorkbookState,
  options: CompileOptions,
  edits: PlanEdit[],
): { state: WorkbookState; result: ApplyResult; rebuild?: boolean } {
  const next = parsePlanFile(applyEdits(state.plan, edits));
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
    return patchWorkbook(hf, state, options, edits);
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
 * The edits that take `plan` to `next` when the two differ only in the cases' assumptions of a year, their cash items
 * and the entered values of months that are ACT in `next`; undefined when anything else differs (the plan's settings,
 * its cases' other inputs, a month's actuals removed or reversed).
 */
function editsBetween(plan: PlanFile, next: PlanFile): PlanEdit[] | undefined {
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
function sameSettings(plan: PlanFile, next: PlanFile): boolean {
  const { cases: wasCases, ...wasSettings } = plan;
  const { cases: nowCases, ...nowSettings } = next;
  return wasCases.length === nowCases.length && sameData(wasSettings, nowSettings);
}

/**
 * Whether two pieces of plan data (numbers, text, arrays, plain objects) are equal, whatever the order of object keys;
 * a key that holds undefined counts as absent, as in JSON. (The engine also runs in the browser: no `node:util`.)
 */
function sameData(a: unknown, b: unknown): boolean {
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
function changedEntries<T extends Record<string, unknown>>(
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
 * Above this share of the workbook's cells differing, edits rebuild HyperFormula rather than patch it: writing a cell
 * into a built workbook costs several times what a fresh build spends on it (bench/import.ts).
 */
const REBUILD_SHARE = 0.1;

/** The cases whose sheets a compile changed (every case when the Plan sheet or the names changed). */
function rebuiltCases(before: CompiledWorkbook, after: CompiledWorkbook): number[] {
  const planChanged =
    before.sheets.Plan !== after.sheets.Plan || JSON.stringify(before.names) !== JSON.stringify(after.names);
  return after.cases
    .filter((c) => {
      if (planChanged) return true;
      const was = before.cases[c.index];
      const names = new Set([...Object.values(c.sheets), ...Object.values(was?.sheets ?? {})]);
      return [...names].some((n) => n !== undefined && before.sheets[n] !== after.sheets[n]);
    })
    .map((c) => c.index);
}

/** Months turning ACT at once from which edits rebuild without comparing the compiles (a month of actuals each). */
const REBUILD_MONTHS = 6;

/** How many (case, month) pairs the edits save actuals for that are not ACT yet. */
function monthsTurningAct(before: CompiledWorkbook, edits: PlanEdit[]): number {
  const turning = new Set<string>();
  for (const e of edits) {
    if (e.type === 'actual' && !before.cases[e.caseIndex]?.act.includes(e.month))
      turning.add(`${e.caseIndex}/${e.month}`);
  }
  return turning.size;
}

/** How many (case, month) pairs are ACT in `after` and were not in `before` (cases by index). */
function actMonthsAdded(before: CompiledWorkbook, after: CompiledWorkbook): number {
  let n = 0;
  for (const layout of after.cases) {
    const was = new Set(before.cases[layout.index]?.act ?? []);
    n += layout.act.filter((month) => !was.has(month)).length;
  }
  return n;
}

function totalCells(compiled: CompiledWorkbook): number {
  let n = 0;
  for (const grid of Object.values(compiled.sheets)) for (const row of grid) n += row.length;
  return n;
}

/**
 * How many cells of the sheets both compiles hold differ: the cells a patch writes one by one. A sheet added is set
 * whole, at about the cost a build spends on it, and does not count.
 */
function differingCells(before: CompiledWorkbook, after: CompiledWorkbook): number {
  let n = 0;
  for (const [name, grid] of Object.entries(after.sheets)) {
    const old = before.sheets[name];
    if (!old || old === grid) continue;
    const rows = Math.max(old.length, grid.length);
    for (let r = 0; r < rows; r++) {
      const a = old[r] ?? [];
      const b = grid[r] ?? [];
      if (a === b) continue;
      const columns = Math.max(a.length, b.length);
      for (let c = 0; c < columns; c++) if ((a[c] ?? null) !== (b[c] ?? null)) n++;
    }
  }
  return n;
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

/** Which read models of which case see a changed value, from HyperFormula's list of changed cells. */
function changedModels(
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

/**
 * The cases whose inputs the edits change, when each edit stays within one case; undefined when any edit changes the
 * plan itself or its list of cases (which renumbers their sheets).
 */
function editedCases(edits: PlanEdit[]): Set<number> | undefined {
  const cases = new Set<number>();
  for (const edit of edits) {
    if (edit.type === 'plan' || edit.type === 'addCase' || edit.type === 'deleteCase') return undefined;
    cases.add(edit.caseIndex);
  }
  return cases;
}

function isAssumptionEdit(edit: PlanEdit): boolean {
  return edit.type === 'year' || edit.type === 'caseRate' || edit.type === 'model';
}

const ESTIMATE_MODELS: ReadModelName[] = ['pl', 'kpi', 'revenue', 'cost', 'monthly', 'dashboard', 'home'];
