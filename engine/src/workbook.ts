/**
 * PlanWorkbook: one HyperFormula workbook for a plan and all its cases, built in a single `buildFromSheets` call.
 * Edits recompile the plan's inputs and hand the workbook only the cells that differ, in one batch. Two kinds of edit
 * skip most of that: an assumption edit compiles only its case's Assumptions sheet, and a monthly value that only
 * moves from one number to another (a cash item, an actual of an ACT month) is written straight into the cells the
 * compiler recorded for it.
 */
import {
  type CellValue,
  DetailedCellError,
  ExportedCellChange,
  type ExportedChange,
  HyperFormula,
  type RawCellContent,
} from 'hyperformula';
import {
  type CaseLayout,
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
import type { ViewName } from './read/cells';
import { type Dashboard, dashboard } from './read/dashboard';
import { type GridColumn, type MonthlyPlYear, monthlyGrid, monthlyPl } from './read/monthly';
import {
  annualPl,
  type CostYear,
  costs,
  type KpiYear,
  kpi,
  type PlYearRow,
  type RevenueYear,
  revenue,
} from './read/plan';
import { type PlanFile, parsePlanFile } from './schema';

export const HYPERFORMULA_CONFIG = {
  licenseKey: 'gpl-v3',
  // Keep full precision: rounding is the screens' and the exports' business.
  smartRounding: false,
  useColumnIndex: false,
  // The plan's inputs are the history: an undo stack would only hold old cell contents and slow every batch down.
  undoLimit: 0,
} as const;

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
}

/** A cell value as plain data: numbers, strings, or null for blanks and "" results. */
export type Value = number | string | null;

/** Thrown when a formula evaluates to an error; names the sheet and cell. */
export class FormulaError extends Error {
  override readonly name = 'FormulaError';
}

export class PlanWorkbook {
  private constructor(
    private hf: HyperFormula,
    private compiled: CompiledWorkbook,
    private current: PlanFile,
    private readonly options: CompileOptions,
  ) {}

  /**
   * Builds the workbook of a plan.
   * @throws {PlanFileError} when the plan file is invalid, naming each field.
   */
  static build(input: unknown, options: Partial<CompileOptions> = {}): PlanWorkbook {
    const plan = parsePlanFile(input);
    const now = new Date();
    const opts: CompileOptions = { asOf: options.asOf ?? { year: now.getFullYear(), month: now.getMonth() + 1 } };
    const compiled = compilePlan(plan, opts);
    const hf = HyperFormula.buildFromSheets(
      compiled.sheets as Record<string, RawCellContent[][]>,
      HYPERFORMULA_CONFIG,
      compiled.names.map((n) => ({ name: n.name, expression: n.expression })),
    );
    return new PlanWorkbook(hf, compiled, plan, opts);
  }

  /** The plan's inputs as they stand now (a plan file). */
  get plan(): PlanFile {
    return this.current;
  }

  get layout(): CompiledWorkbook {
    return this.compiled;
  }

  caseLayout(caseIndex: number): CaseLayout {
    const c = this.compiled.cases[caseIndex];
    if (!c) throw new RangeError(`the plan has no case ${caseIndex}`);
    return c;
  }

  /** The value of one cell (0-based row and column) of a named sheet. */
  value(sheet: string, row: number, column: number): Value {
    const id = this.hf.getSheetId(sheet);
    if (id === undefined) throw new RangeError(`no sheet ${sheet}`);
    return plain(this.hf.getCellValue({ sheet: id, row, col: column }), sheet, row, column);
  }

  /** Formula or constant of one cell, as the exports write it. */
  content(sheet: string, row: number, column: number): Value {
    const cell = this.compiled.sheets[sheet]?.[row]?.[column];
    return cell ?? null;
  }

  /** All values of a sheet as a 2-D array. */
  sheetValues(sheet: string): Value[][] {
    const id = this.hf.getSheetId(sheet);
    if (id === undefined) throw new RangeError(`no sheet ${sheet}`);
    return this.hf.getSheetValues(id).map((row, r) => row.map((v, c) => plain(v, sheet, r, c)));
  }

  sheetNames(): string[] {
    return Object.keys(this.compiled.sheets);
  }

  grid(sheet: string): Grid {
    const g = this.compiled.sheets[sheet];
    if (!g) throw new RangeError(`no sheet ${sheet}`);
    return g;
  }

  /**
   * Applies edits to the plan's inputs and updates the workbook in place, in one batch.
   * @throws {PlanFileError} when the edited plan is invalid; the workbook is then unchanged.
   */
  apply(edits: PlanEdit | PlanEdit[]): ApplyResult {
    const list = Array.isArray(edits) ? edits : [edits];
    const next = parsePlanFile(applyEdits(this.current, list));
    const writes = this.literalWrites(list, next);
    if (writes) return this.writeLiterals(writes, next, list);
    const assumptionsOnly = list.every(isAssumptionEdit);
    const cases = editedCases(list);
    const compiled = assumptionsOnly
      ? this.withAssumptions(next, list)
      : cases
        ? recompileCases(this.compiled, next, cases)
        : compilePlan(next, this.options);
    const before = this.compiled;
    let cells = 0;
    const changes = this.hf.batch(() => {
      const names = new Map(compiled.names.map((n) => [n.name, n.expression]));
      for (const n of before.names) if (!names.has(n.name)) this.hf.removeNamedExpression(n.name);
      for (const name of Object.keys(before.sheets)) {
        if (!(name in compiled.sheets)) this.hf.removeSheet(this.sheetId(name));
      }
      const added = Object.keys(compiled.sheets).filter((name) => !(name in before.sheets));
      for (const name of added) this.hf.addSheet(name);
      const old = new Map(before.names.map((n) => [n.name, n.expression]));
      for (const [name, expression] of names) {
        if (!old.has(name)) this.hf.addNamedExpression(name, expression);
        else if (old.get(name) !== expression) this.hf.changeNamedExpression(name, expression);
      }
      for (const [name, grid] of Object.entries(compiled.sheets)) {
        if (added.includes(name)) {
          this.hf.setSheetContent(this.sheetId(name), grid as RawCellContent[][]);
          cells += grid.reduce((n, row) => n + row.filter((c) => c !== null).length, 0);
        } else if (grid !== before.sheets[name]) {
          cells += this.patchSheet(name, before.sheets[name] ?? [], grid);
        }
      }
    });
    const changed = this.changedModels(changes, before, compiled, this.current, next, list);
    this.compiled = compiled;
    this.current = next;
    return {
      changed,
      cells,
      recompiled: assumptionsOnly ? 'assumptions' : cases ? 'cases' : 'plan',
    };
  }

  /** The six P&L year rows of a case's estimate. */
  annualPl(caseIndex: number): PlYearRow[] {
    return annualPl(this, caseIndex);
  }

  /** KPI per year: assumptions, yearly totals, monthly and quarterly rows. */
  kpi(caseIndex: number): KpiYear[] {
    return kpi(this, caseIndex);
  }

  /** Recurring and professional-service revenue per year and month. */
  revenue(caseIndex: number): RevenueYear[] {
    return revenue(this, caseIndex);
  }

  /** Cost budgets per year and group, with their items (MODEL.md section 7). */
  costs(caseIndex: number): CostYear[] {
    return costs(this, caseIndex);
  }

  /** The 17 columns of a plan year in one view. */
  monthlyGrid(caseIndex: number, year: number, view: ViewName): GridColumn[] {
    return monthlyGrid(this, caseIndex, year, view);
  }

  /** The spec's monthly_pl answer: per year (all six, or the one asked for), every view plus the graph series. */
  monthlyPl(caseIndex: number, year?: number): MonthlyPlYear[] {
    const years = year === undefined ? undefined : [year];
    return monthlyPl(this, caseIndex, dashboard(this, caseIndex).forecast_monthes, years);
  }

  /** Dashboard series, averages, runway and MRR progress. */
  dashboard(caseIndex: number): Dashboard {
    return dashboard(this, caseIndex);
  }

  /** Releases the workbook's memory. */
  destroy(): void {
    this.hf.destroy();
  }

  /**
   * An edit of a case's assumptions (a year's value, the case rate, the growth model) changes only cells of its
   * Assumptions sheet: every other sheet refers to them. Only that sheet is compiled again.
   */
  private withAssumptions(next: PlanFile, edits: PlanEdit[]): CompiledWorkbook {
    const sheets = { ...this.compiled.sheets };
    for (const i of new Set(edits.map((e) => ('caseIndex' in e ? e.caseIndex : -1)))) {
      const c = next.cases[i];
      const layout = this.compiled.cases[i];
      if (c && layout) sheets[layout.sheets.assumptions] = compileAssumptions(c, i);
    }
    return { ...this.compiled, sheets };
  }

  /**
   * The cell writes of edits that change only input literals: cash items and actuals of months already ACT, whose
   * every recorded cell holds a number before and after (a value, or the number standing in for an absent one).
   * Undefined when any edit changes more than that (a month turning ACT, a beginning balance replacing the chain,
   * an entered ARPA replacing the plan's), which then compiles the plan.
   */
  private literalWrites(edits: PlanEdit[], next: PlanFile): { cell: InputCell; value: number }[] | undefined {
    const writes: { cell: InputCell; value: number }[] = [];
    for (const edit of edits) {
      if (edit.type !== 'cash' && edit.type !== 'actual') return undefined;
      const group = edit.type === 'cash' ? 'cash' : 'actuals';
      if (group === 'actuals' && !this.compiled.cases[edit.caseIndex]?.act.includes(edit.month)) return undefined;
      const was: Record<string, unknown> = this.current.cases[edit.caseIndex]?.[group][String(edit.month)] ?? {};
      const now: Record<string, unknown> = next.cases[edit.caseIndex]?.[group][String(edit.month)] ?? {};
      for (const key of Object.keys(edit.values)) {
        const cells = this.compiled.inputCells.get(inputPath(edit.caseIndex, group, edit.month, key));
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

  /** Writes input literals into the workbook and the compiled sheets (copied where they change), in one batch. */
  private writeLiterals(writes: { cell: InputCell; value: number }[], next: PlanFile, edits: PlanEdit[]): ApplyResult {
    const before = this.compiled;
    const sheets = { ...before.sheets };
    const copied = new Set<string>();
    let cells = 0;
    const changes = this.hf.batch(() => {
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
        this.hf.setCellContents({ sheet: this.sheetId(sheet), row, col: column }, [[value]]);
        cells++;
      }
    });
    const compiled: CompiledWorkbook = { ...before, sheets };
    const changed = this.changedModels(changes, before, compiled, this.current, next, edits);
    this.compiled = compiled;
    this.current = next;
    return { changed, cells, recompiled: 'none' };
  }

  private sheetId(name: string): number {
    const id = this.hf.getSheetId(name);
    if (id === undefined) throw new RangeError(`no sheet ${name}`);
    return id;
  }

  private patchSheet(name: string, before: Grid, after: Grid): number {
    const id = this.sheetId(name);
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
          this.hf.setCellContents({ sheet: id, row: r, col: c }, [[y]]);
          cells++;
        }
      }
    }
    return cells;
  }

  /** Which read models of which case see a changed value, from HyperFormula's list of changed cells. */
  private changedModels(
    changes: ExportedChange[],
    before: CompiledWorkbook,
    after: CompiledWorkbook,
    previous: PlanFile,
    next: PlanFile,
    edits: PlanEdit[],
  ): ApplyResult['changed'] {
    const sheetIds = new Set<number>();
    for (const change of changes) if (change instanceof ExportedCellChange) sheetIds.add(change.address.sheet);
    const changedSheets = new Set<string>();
    for (const id of sheetIds) {
      const name = this.hf.getSheetName(id);
      if (name) changedSheets.add(name);
    }
    // Comments have no cells, and the monthly and dashboard answers also carry the entered actuals: the edits say
    // which of them to compare. Adding or deleting a case moves every case after it, so then all are compared.
    const moved = edits.some((e) => e.type === 'addCase' || e.type === 'deleteCase');
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    return after.cases
      .map((layout) => {
        const models = new Set<ReadModelName>();
        const s = layout.sheets;
        const hit = (...names: (string | undefined)[]) => names.some((n) => n !== undefined && changedSheets.has(n));
        if (hit(s.assumptions, s.estimate)) for (const m of ESTIMATE_MODELS) models.add(m);
        if (hit(s.actual, s.actualToDate, s.estimateToDate, s.variance)) models.add('monthly').add('dashboard');
        if (hit(s.costs)) models.add('cost');
        if (hit(s.daily)) models.add('home').add('monthly');
        if (hit(s.dashboard)) models.add('dashboard');
        const was = previous.cases[layout.index];
        const now = next.cases[layout.index];
        if (!before.cases[layout.index] || was?.case_name !== now?.case_name) models.add('plan');
        const ofCase = edits.filter((e) => 'caseIndex' in e && e.caseIndex === layout.index);
        const commented = moved || ofCase.some((e) => e.type === 'comment');
        if (commented && !same(was?.comments, now?.comments)) models.add('monthly');
        const months = moved
          ? undefined
          : ofCase.flatMap((e) => (e.type === 'actual' || e.type === 'reverse' ? [String(e.month)] : []));
        const actualsMoved = months
          ? months.some((t) => !same(was?.actuals[t], now?.actuals[t]))
          : !same(was?.actuals, now?.actuals);
        if (actualsMoved) models.add('monthly').add('dashboard');
        return { caseIndex: layout.index, models: [...models] };
      })
      .filter((c) => c.models.length > 0);
  }
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

function plain(v: CellValue, sheet: string, row: number, column: number): Value {
  if (v instanceof DetailedCellError) {
    throw new FormulaError(`${sheet} row ${row + 1} column ${column + 1}: ${v.type} ${v.message}`);
  }
  if (v === null || v === '') return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}
