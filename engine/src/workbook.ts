/**
 * PlanWorkbook: one HyperFormula workbook for a plan and all its cases, built in a single `buildFromSheets` call, and
 * the read models of it. Edits are applied in place by `patch.ts`, which hands the workbook only the cells that differ.
 */
import { type CellValue, DetailedCellError, ErrorType, HyperFormula, type RawCellContent } from 'hyperformula';
import { type CaseLayout, type CompiledWorkbook, type CompileOptions, compilePlan, type Grid } from './compile';
import type { PlanEdit } from './edits';
import { type ApplyResult, patchToPlan, patchWorkbook, type WorkbookState } from './patch';
import type { ViewName } from './read/cells';
import { type CostYear, costs } from './read/costs';
import { type Dashboard, dashboard, forecastMonths } from './read/dashboard';
import { type KpiYear, kpi } from './read/kpi';
import { type GridColumn, type MonthlyPlYear, monthlyGrid, monthlyPl } from './read/monthly';
import { annualPl, type PlYearRow } from './read/pl';
import { type RevenueYear, revenue } from './read/revenue';
import type { WorkbookFigures } from './read/source';
import { stillRefused } from './refused';
import { type PlanFile, type PlanFileIssue, salvagePlanFile } from './schema';

export const HYPERFORMULA_CONFIG = {
  licenseKey: 'gpl-v3',
  // Keep full precision: rounding is the screens' and the exports' business.
  smartRounding: false,
  useColumnIndex: false,
  // The plan's inputs are the history: an undo stack would only hold old cell contents and slow every batch down.
  undoLimit: 0,
  // No formula reads a date from text: without formats, comparing a figure with "" or a month's status with "ACT"
  // does not first try to parse the text as a date (about 3 % of a recalculation).
  dateFormats: [] as string[],
  timeFormats: [] as string[],
} as const;

/**
 * A cell value as plain data: numbers, strings, or null for blanks, "" results and figures that could not be computed.
 */
export type Value = number | string | null;

/**
 * Thrown when a formula evaluates to an error that no input can cause (a reference or name the compiler got wrong);
 * names the sheet and cell. A number that overflows (#NUM!) is not such an error: its figure reads as blank.
 */
export class FormulaError extends Error {
  override readonly name = 'FormulaError';
}

/** A cell whose formula could not be computed. */
export interface BrokenCell {
  sheet: string;
  row: number;
  column: number;
}

export class PlanWorkbook implements WorkbookFigures {
  /** Sheet ids by name in the HyperFormula instance as it stands: emptied whenever it or its sheets may change. */
  private readonly sheetIds = new Map<string, number>();
  /** Counts the patches applied since the build: a reader that keeps what it read checks it to know it is current. */
  private patches = 0;

  private constructor(
    private hf: HyperFormula,
    private state: WorkbookState,
    private readonly options: CompileOptions,
    private refusedInputs: PlanFileIssue[],
  ) {}

  /**
   * Builds the workbook of a plan. A stored value outside the plan file's bounds does not stop it: the value is left
   * out (`salvagePlanFile`) and named in `refused`, and the read models flag it.
   * @throws {PlanFileError} when the plan file cannot be read even so, naming each field.
   */
  static build(input: unknown, options: Partial<CompileOptions> = {}): PlanWorkbook {
    const { plan, refused, opts, compiled } = prepare(input, options);
    return new PlanWorkbook(buildHyperFormula(compiled), { compiled, plan }, opts, refused);
  }

  /**
   * `build` in steps, giving the thread back between them (`pause`, after each sheet's cells are read in, and before
   * the one recalculation): a server builds a large plan without holding every other request for the whole build.
   * The workbook is the one `build` makes, cell for cell.
   * @throws {PlanFileError} as `build`
   */
  static async buildInSteps(
    input: unknown,
    options: Partial<CompileOptions> = {},
    pause: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 0)),
  ): Promise<PlanWorkbook> {
    const { plan, refused, opts, compiled } = prepare(input, options);
    await pause();
    const hf = HyperFormula.buildEmpty(HYPERFORMULA_CONFIG);
    try {
      hf.suspendEvaluation();
      const sheets = Object.entries(compiled.sheets);
      for (const [name] of sheets) hf.addSheet(name);
      for (const { name, expression } of compiled.names) hf.addNamedExpression(name, expression);
      for (const [name, grid] of sheets) {
        hf.setSheetContent(hf.getSheetId(name) ?? -1, grid as RawCellContent[][]);
        await pause();
      }
      hf.resumeEvaluation();
    } catch (error) {
      hf.destroy();
      throw error;
    }
    return new PlanWorkbook(hf, { compiled, plan }, opts, refused);
  }

  /** The plan's inputs as they stand now (a plan file). */
  get plan(): PlanFile {
    return this.state.plan;
  }

  /**
   * The stored inputs the plan file's bounds refused when the workbook was built, by their path in the stored plan
   * file; the plan holds them no more (their defaults apply), but for the plan's target ARR and ARPA, kept as stored.
   * An edit that sets such an input again clears it from the list.
   */
  get refused(): readonly PlanFileIssue[] {
    return this.refusedInputs;
  }

  /** Changes whenever the workbook's inputs do (every `apply` and `sync`), and only then. */
  get revision(): number {
    return this.patches;
  }

  get layout(): CompiledWorkbook {
    return this.state.compiled;
  }

  caseLayout(caseIndex: number): CaseLayout {
    const c = this.state.compiled.cases[caseIndex];
    if (!c) throw new RangeError(`the plan has no case ${caseIndex}`);
    return c;
  }

  /**
   * The value of one cell (0-based row and column) of a named sheet; blank (null) where its figure could not be
   * computed.
   */
  value(sheet: string, row: number, column: number): Value {
    return plain(this.cellValue(sheet, row, column), sheet, row, column, null);
  }

  /**
   * The figure of one cell as the read models take it: a number, null where the cell is blank or holds text, and NaN
   * where its formula could not be computed (a number overflowed: HyperFormula's #NUM!). The read models answer NaN
   * as a blank figure and name it in their `broken` flag.
   * @throws {FormulaError} on any other formula error.
   */
  figure(sheet: string, row: number, column: number): number | null {
    const v = plain(this.cellValue(sheet, row, column), sheet, row, column, Number.NaN);
    return typeof v === 'number' ? v : null;
  }

  /** Every cell, over all sheets, whose formula could not be computed. */
  brokenCells(): BrokenCell[] {
    const out: BrokenCell[] = [];
    for (const sheet of this.sheetNames()) {
      this.hf.getSheetValues(this.sheetId(sheet)).forEach((row, r) => {
        row.forEach((v, c) => {
          if (isBroken(v)) out.push({ sheet, row: r, column: c });
        });
      });
    }
    return out;
  }

  private sheetId(sheet: string): number {
    const known = this.sheetIds.get(sheet);
    if (known !== undefined) return known;
    const id = this.hf.getSheetId(sheet);
    if (id === undefined) throw new RangeError(`no sheet ${sheet}`);
    this.sheetIds.set(sheet, id);
    return id;
  }

  private cellValue(sheet: string, row: number, column: number): CellValue {
    return this.hf.getCellValue({ sheet: this.sheetId(sheet), row, col: column });
  }

  /** Formula or constant of one cell, as the exports write it. */
  content(sheet: string, row: number, column: number): Value {
    const cell = this.state.compiled.sheets[sheet]?.[row]?.[column];
    return cell ?? null;
  }

  /**
   * The formula HyperFormula holds for a cell (undefined for a value) and the cells it reads, ranges spread into their
   * cells, row by row (`explain.ts`). Named expressions are named in the formula, not listed.
   */
  precedents(sheet: string, row: number, column: number): { formula: string | undefined; cells: BrokenCell[][] } {
    const address = { sheet: this.sheetId(sheet), row, col: column };
    const name = (id: number) => this.hf.getSheetName(id) ?? '';
    const cells = this.hf.getCellPrecedents(address).flatMap((p): BrokenCell[][] => {
      if (!('start' in p)) return p.sheet < 0 ? [] : [[{ sheet: name(p.sheet), row: p.row, column: p.col }]];
      const out: BrokenCell[] = [];
      for (let r = p.start.row; r <= p.end.row; r++)
        for (let c = p.start.col; c <= p.end.col; c++) out.push({ sheet: name(p.start.sheet), row: r, column: c });
      return [out];
    });
    return { formula: this.hf.getCellFormula(address), cells };
  }

  /** The value of a named expression of the workbook (`period`, `case1_rate`). */
  namedValue(name: string): Value {
    const v = this.hf.getNamedExpressionValue(name);
    return v === undefined ? null : plain(v, name, 0, 0, null);
  }

  /** A formula evaluated on a sheet without writing it anywhere (the explain test recombines inputs with it). */
  evaluate(formula: string, sheet: string): Value {
    const v = this.hf.calculateFormula(formula, this.sheetId(sheet));
    return Array.isArray(v) ? null : plain(v as CellValue, sheet, 0, 0, null);
  }

  /** All values of a sheet as a 2-D array. */
  sheetValues(sheet: string): Value[][] {
    return this.hf.getSheetValues(this.sheetId(sheet)).map((row, r) => row.map((v, c) => plain(v, sheet, r, c, null)));
  }

  sheetNames(): string[] {
    return Object.keys(this.state.compiled.sheets);
  }

  grid(sheet: string): Grid {
    const g = this.state.compiled.sheets[sheet];
    if (!g) throw new RangeError(`no sheet ${sheet}`);
    return g;
  }

  /**
   * Applies edits to the plan's inputs and updates the workbook in place, in one batch.
   * @throws {PlanFileError} when the edited plan is invalid; the workbook is then unchanged.
   * @throws {EditError} when the plan's state does not allow an edit; the workbook is then unchanged.
   */
  apply(edits: PlanEdit | PlanEdit[]): ApplyResult {
    const list = Array.isArray(edits) ? edits : [edits];
    const result = this.patch((hf, state) => patchWorkbook(hf, state, this.options, list));
    this.refusedInputs = stillRefused(this.refusedInputs, list);
    return result;
  }

  /**
   * Brings the workbook to the plan's inputs as they now stand (read afresh, after writes it was not given as edits):
   * what differs is applied as the edits it amounts to, or compiled and written in one batch, or HyperFormula is built
   * afresh when that changes much (`patchToPlan`). Stored values outside the plan file's bounds are left out and named
   * in `refused`, as `build` does.
   * @throws {PlanFileError} when the plan file cannot be read even so; the workbook is then unchanged.
   */
  sync(input: unknown): ApplyResult {
    const { plan, refused } = salvagePlanFile(input);
    const result = this.patch((hf, state) => patchToPlan(hf, state, this.options, plan));
    this.refusedInputs = refused;
    return result;
  }

  /**
   * Runs a patch of the workbook and takes its new state. When the patch asks for it (edits that change much of the
   * workbook, such as a year of actuals at once), HyperFormula is built afresh from the compiled sheets, which costs
   * less than patching their cells one by one; the old one goes first, so that the two never hold memory together.
   */
  private patch(
    patch: (hf: HyperFormula, state: WorkbookState) => { state: WorkbookState; result: ApplyResult; rebuild?: boolean },
  ): ApplyResult {
    // Patching may add and remove sheets (a case's first ACT month), rebuilding replaces them all.
    this.sheetIds.clear();
    const { state, result, rebuild } = patch(this.hf, this.state);
    if (rebuild) {
      this.hf.destroy();
      this.hf = buildHyperFormula(state.compiled);
    }
    this.state = state;
    this.patches++;
    return result;
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
    return monthlyPl(this, caseIndex, forecastMonths(this, caseIndex), years);
  }

  /** Dashboard series, averages, runway and MRR progress. */
  dashboard(caseIndex: number): Dashboard {
    return dashboard(this, caseIndex);
  }

  /** Releases the workbook's memory. */
  destroy(): void {
    this.hf.destroy();
  }
}

/** A number that overflowed (or another #NUM!): a figure its inputs break, never the compiler's mistake. */
const isBroken = (v: CellValue) => v instanceof DetailedCellError && v.type === ErrorType.NUM;

function plain(v: CellValue, sheet: string, row: number, column: number, broken: number | null): Value {
  if (isBroken(v)) return broken;
  if (v instanceof DetailedCellError) {
    throw new FormulaError(`${sheet} row ${row + 1} column ${column + 1}: ${v.type} ${v.message}`);
  }
  if (v === null || v === '') return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

/** The plan file read (with what its bounds refused), the build's options and the plan compiled. */
function prepare(input: unknown, options: Partial<CompileOptions>) {
  const { plan, refused } = salvagePlanFile(input);
  const now = new Date();
  const opts: CompileOptions = { asOf: options.asOf ?? { year: now.getFullYear(), month: now.getMonth() + 1 } };
  return { plan, refused, opts, compiled: compilePlan(plan, opts) };
}

/** A HyperFormula workbook of compiled sheets and names, built in one `buildFromSheets` call. */
function buildHyperFormula(compiled: CompiledWorkbook): HyperFormula {
  return HyperFormula.buildFromSheets(
    compiled.sheets as Record<string, RawCellContent[][]>,
    HYPERFORMULA_CONFIG,
    compiled.names.map((n) => ({ name: n.name, expression: n.expression })),
  );
}
