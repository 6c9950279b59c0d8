/**
 * The sheets the spreadsheet exports write: the plan's workbook as compiled, with each entered actual of the Actual
 * sheets turned into a reference to its cell in the case's actual-inputs sheet (so a number typed there recomputes
 * the workbook), the actual-inputs sheets themselves, and, when the plan's id is given, the hidden `Topline` sheet
 * that names the plan for the import.
 */

import { HyperFormula, type RawCellContent } from 'hyperformula';
import { type CompiledWorkbook, compilePlan, type Grid } from '../compile/index';
import { a1, monthColumn } from '../layout';
import { type ActualKey, PLAN_MONTHS, type PlanFile } from '../schema';
import { HYPERFORMULA_CONFIG, type PlanWorkbook, type Value } from '../workbook';
import {
  actMonthsGrid,
  actMonthsSheetName,
  dynamicDashboard,
  dynamicMasked,
  dynamicVariance,
  fixedMonths,
  flagRef,
} from './actMonths';
import {
  actualInputColumn,
  actualInputRows,
  actualInputsGrid,
  actualInputsSheetName,
  PLAN_MARKER_SHEET,
  planMarkerGrid,
} from './actualInputs';
import { type CellFormatOf, type FormatKind, sheetFormats } from './formats';
import { columnIndex, quoteSheet } from './references';
import { type UserTextOf, userText } from './userText';

export interface ExportSheet {
  name: string;
  /** Cell contents: numbers, text, formulas starting with '='. */
  grid: Grid;
  /**
   * The engine's value of each cell (a constant's own value); absent for a sheet the engine's workbook does not hold
   * (the Actual sheet of a case without ACT months), whose formulas the spreadsheet computes on opening.
   */
  values?: Value[][];
  formatOf: CellFormatOf;
  textOf: UserTextOf;
  frozenColumns: number;
  hidden?: boolean;
}

export interface ExportSheetsOptions {
  /** The plan's id, written into the hidden `Topline` sheet that the import checks. */
  planId?: string | number;
}

/** Every sheet an export writes, in order: the workbook's sheets, then `C1 Actuals`…, then `Topline`. */
export function exportSheets(wb: PlanWorkbook, options: ExportSheetsOptions = {}): ExportSheet[] {
  const linked = linkedActualCells(wb);
  const { cells: conditional, added, act, sides } = conditionalMonths(wb, linked);
  const sheets: ExportSheet[] = wb.sheetNames().map((name) => {
    const grid = wb.grid(name).map((row) => row.slice());
    for (const { row, column, formula } of linked.get(name) ?? []) {
      const r = grid[row];
      if (r) r[column] = formula;
    }
    for (const { row, column, formula } of conditional.get(name) ?? []) {
      const r = grid[row];
      if (r) r[column] = formula;
    }
    return {
      name,
      grid,
      values: wb.sheetValues(name),
      formatOf: sheetFormats(wb.layout, name),
      textOf: userText(wb.layout, wb.plan, name),
      frozenColumns: 1,
    };
  });
  // The Actual sheet of a case without ACT months, right after its Estimate sheet; Excel, Calc and Sheets compute it.
  for (const { name, estimate, grid, caseIndex } of added) {
    const at = sheets.findIndex((x) => x.name === estimate);
    sheets.splice(at + 1, 0, {
      name,
      grid,
      formatOf: sheetFormats(
        {
          ...wb.layout,
          cases: [{ ...wb.caseLayout(caseIndex), sheets: { ...wb.caseLayout(caseIndex).sheets, actual: name } }],
        },
        name,
      ),
      textOf: () => undefined,
      frozenColumns: 1,
    });
  }
  dependentSheets(wb, act, sheets);
  wb.plan.cases.forEach((_, caseIndex) => {
    const grid = actualInputsGrid(wb.plan, caseIndex);
    sheets.push({
      name: actualInputsSheetName(caseIndex),
      grid,
      values: grid,
      formatOf: actualInputsFormats(wb.plan),
      textOf: () => undefined,
      frozenColumns: 2,
    });
  });
  for (const c of wb.layout.cases) {
    const { grid, values } = actMonthsGrid(wb.plan, c);
    sheets.push({
      name: actMonthsSheetName(c.index),
      grid,
      values,
      formatOf: () => undefined,
      textOf: () => undefined,
      frozenColumns: 1,
      hidden: true,
    });
  }
  const sideSheets: ExportSheet[] = sides.flatMap((side) =>
    (
      [
        [`${side.sheet}_ACT`, side.act],
        [`${side.sheet}_EST`, side.est],
      ] as const
    ).map(([name, grid]) => ({
      name,
      grid,
      formatOf: () => undefined,
      textOf: () => undefined,
      frozenColumns: 1,
      hidden: true,
    })),
  );
  sideValues(wb, sheets, sideSheets);
  sheets.push(...sideSheets);
  if (options.planId !== undefined) {
    const grid = planMarkerGrid(options.planId);
    sheets.push({
      name: PLAN_MARKER_SHEET,
      grid,
      values: grid,
      formatOf: () => undefined,
      textOf: () => undefined,
      frozenColumns: 0,
      hidden: true,
    });
  }
  return sheets;
}

/**
 * The sheets that depend on which months are ACT, rewritten to read the flags sheet (`actMonths.ts`): ActualToDate,
 * EstimateToDate and Variance (added after the Actual sheet for a case that had no ACT month at export) and the
 * Dashboard. `act` is the plan compiled with every month ACT.
 */
function dependentSheets(wb: PlanWorkbook, act: CompiledWorkbook, sheets: ExportSheet[]): void {
  const plan = wb.plan;
  for (const c of wb.layout.cases) {
    const all = act.cases[c.index]?.sheets;
    const view = c.sheets.actual ?? all?.actual;
    const atd = c.sheets.actualToDate ?? all?.actualToDate;
    const etd = c.sheets.estimateToDate ?? all?.estimateToDate;
    const variance = c.sheets.variance ?? all?.variance;
    if (!view || !atd || !etd || !variance) continue;
    const base = (name: string) => act.sheets[name] ?? [];
    const own = c.sheets.actual !== undefined;
    const replaced: [string, Grid][] = [
      [atd, dynamicMasked(plan, c, atd, view, own ? wb.grid(atd) : base(atd), base(atd))],
      [etd, dynamicMasked(plan, c, etd, c.sheets.estimate, own ? wb.grid(etd) : base(etd), base(etd))],
      [variance, dynamicVariance(plan, c, own ? wb.grid(variance) : undefined, base(variance))],
    ];
    const layout = {
      ...wb.layout,
      cases: [{ ...c, sheets: { ...c.sheets, actual: view, actualToDate: atd, estimateToDate: etd, variance } }],
    };
    let at = sheets.findIndex((x) => x.name === view);
    for (const [name, grid] of replaced) {
      const existing = sheets.find((x) => x.name === name);
      if (existing) existing.grid = grid;
      else {
        at += 1;
        sheets.splice(at, 0, {
          name,
          grid,
          formatOf: sheetFormats(layout, name),
          textOf: () => undefined,
          frozenColumns: 1,
        });
      }
    }
    const dashboard = sheets.find((x) => x.name === c.sheets.dashboard);
    if (dashboard) {
      dashboard.grid = dynamicDashboard({
        plan,
        c,
        grid: dashboard.grid,
        base: base(c.sheets.dashboard),
        view,
        estimate: c.sheets.estimate,
        actualToDate: atd,
        asOfMonth: wb.layout.asOfMonth,
        bare: !own,
      });
    }
  }
}

function actualInputsFormats(plan: PlanFile): CellFormatOf {
  const keyOf = new Map(Object.entries(actualInputRows(plan.template)).map(([k, r]) => [r, k as ActualKey]));
  return (row, column) => {
    const key = keyOf.get(row);
    return key && column >= 2 ? inputFormat(key) : undefined;
  };
}

function inputFormat(key: ActualKey): FormatKind {
  switch (key) {
    case 'session':
    case 'lead':
    case 'meeting':
    case 'registration':
    case 'order':
    case 'churn':
    case 'employees':
      return 'whole';
    default:
      return 'money';
  }
}

type CellFormula = { row: number; column: number; formula: string };

/**
 * The EST months of each Actual sheet as a choice between the month as ACT and the month as it stands: a month whose
 * column of the actual-inputs sheet holds any number is ACT (MODEL.md section 5), so typing a value into a forecast
 * month turns it ACT in the actual view. The ACT side comes from the plan compiled with every month ACT and no values,
 * its entered inputs reading the actual-inputs sheet like `linkedActualCells`; whether a month is ACT is its flag in
 * the case's flags sheet (`actMonths.ts`). A case without an Actual sheet (no ACT month at export) gets one.
 */
function conditionalMonths(
  wb: PlanWorkbook,
  linked: Map<string, CellFormula[]>,
): {
  cells: Map<string, CellFormula[]>;
  added: { name: string; estimate: string; grid: Grid; caseIndex: number }[];
  act: CompiledWorkbook;
  sides: ExportSheetSide[];
} {
  const plan = wb.plan;
  const layout = wb.layout;
  const out = new Map<string, CellFormula[]>();
  const added: { name: string; estimate: string; grid: Grid; caseIndex: number }[] = [];
  /** The plan with only `months` ACT in every case, without values or revisions. */
  const variant = (months: number[]) =>
    compilePlan(
      {
        ...plan,
        cases: plan.cases.map((c) => ({
          ...c,
          revisions: {},
          actuals: Object.fromEntries(months.map((t) => [String(t), { status: 'ACT' as const }])),
        })),
      },
      { asOf: calendarMonth(plan, layout.asOfMonth) },
    );
  const act = variant(Array.from({ length: PLAN_MONTHS }, (_, i) => i + 1));
  // A case without ACT months: its forecast months as the Actual sheet computes them (month 72's from another).
  // Months 1..71 as forecast from the plan whose only ACT month is 72, month 72 from the one whose only is 1.
  // Compiled when first needed.
  let lastActPlan: CompiledWorkbook | undefined;
  let firstActPlan: CompiledWorkbook | undefined;
  const lastAct = () => {
    lastActPlan ??= variant([PLAN_MONTHS]);
    return lastActPlan;
  };
  const firstAct = () => {
    firstActPlan ??= variant([1]);
    return firstActPlan;
  };
  const linkedAct = new Map<string, string>();
  for (const [path, cells] of act.inputCells) {
    const ref = inputReference(plan, path);
    if (!ref) continue;
    for (const cell of cells) {
      const content = act.sheets[cell.sheet]?.[cell.row]?.[cell.column] ?? null;
      linkedAct.set(`${cell.sheet}!${cell.row}!${cell.column}`, `IF(${ref}="",${expression(content)},${ref})`);
    }
  }
  const sides: ExportSheetSide[] = [];
  /**
   * The month cell as `=IF(<flag>,<its ACT side>,<its EST side>)`, each side in a hidden sheet of its own
   * (`C1_Actual_ACT`, `C1_Actual_EST`): the two sides compute a month's figures in opposite directions (customers from
   * orders, or orders from the revenue path), so in one cell they would refer to each other, a circular reference for
   * Excel, Sheets and HyperFormula, which see every reference of a formula whether or not its branch is taken.
   */
  const split = (sheet: string, row: number, column: number, condition: string, ifAct: string, ifEst: string) => {
    let side = sides.find((x) => x.sheet === sheet);
    if (!side) {
      const size = (wb.layout.sheets[sheet] ?? act.sheets[sheet] ?? []).map((r) => r.map(() => null));
      side = { sheet, act: size.map((r) => r.slice()), est: size.map((r) => r.slice()), columns: new Set() };
      sides.push(side);
    }
    const put = (grid: Grid, name: string, content: string) => {
      const r = grid[row];
      if (r) r[column] = `=${sameColumnTo(content, sheet, column, name)}`;
      return a1(row, column, name);
    };
    side.columns.add(column);
    const a = put(side.act, `${sheet}_ACT`, ifAct);
    const e = put(side.est, `${sheet}_EST`, ifEst);
    return `=IF(${condition},${a},${e})`;
  };
  for (const c of layout.cases) {
    const own = c.sheets.actual;
    const sheet = own ?? act.cases[c.index]?.sheets.actual;
    let grid = own ? wb.grid(own) : undefined;
    if (!own && sheet) {
      const last = lastAct().sheets[sheet];
      const first = firstAct().sheets[sheet];
      if (last && first) {
        grid = last.map((row) => row.slice());
        const column = monthColumn(PLAN_MONTHS);
        grid.forEach((row, r) => {
          row[column] = first[r]?.[column] ?? null;
        });
        added.push({ name: sheet, estimate: c.sheets.estimate, grid, caseIndex: c.index });
      }
    }
    const actGrid = sheet ? act.sheets[sheet] : undefined;
    if (!sheet || !grid || !actGrid) continue;
    const list: CellFormula[] = [];
    const fixed = fixedMonths(plan, c);
    const linkedOf = new Map((own ? (linked.get(own) ?? []) : []).map((x) => [`${x.row}!${x.column}`, x.formula]));
    for (let t = 1; t <= PLAN_MONTHS; t++) {
      if (fixed.has(t)) continue;
      const column = monthColumn(t);
      if (c.act.includes(t)) {
        // An ACT month emptied whole in the actual-inputs sheet is EST again: the month as forecast.
        const est = (t === PLAN_MONTHS ? firstAct() : lastAct()).sheets[sheet];
        for (const row of Object.values(c.rowOf)) {
          const now = linkedOf.get(`${row}!${column}`) ?? grid[row]?.[column] ?? null;
          const asAct = expression(now);
          const asEst = expression(est?.[row]?.[column] ?? null);
          if (asAct === asEst) continue;
          list.push({ row, column, formula: split(sheet, row, column, `${flagRef(c.index, t)}=1`, asAct, asEst) });
        }
        continue;
      }
      const entered = `${flagRef(c.index, t)}=1`;
      for (const row of Object.values(c.rowOf)) {
        const now = grid[row]?.[column] ?? null;
        const ifAct = linkedAct.get(`${sheet}!${row}!${column}`) ?? expression(actGrid[row]?.[column] ?? null);
        const asIs = expression(now);
        if (ifAct === asIs) continue;
        list.push({ row, column, formula: split(sheet, row, column, entered, ifAct, asIs) });
      }
    }
    // The cells of those columns that both sides share, so that each side computes its month on its own.
    const side = sides.find((x) => x.sheet === sheet);
    for (const column of side?.columns ?? []) {
      grid.forEach((row, r) => {
        if (r === 0 || !side) return;
        const content = linkedOf.get(`${r}!${column}`) ?? row[column] ?? null;
        if (content === null || side.act[r]?.[column] !== null) return;
        for (const [g, name] of [
          [side.act, `${sheet}_ACT`],
          [side.est, `${sheet}_EST`],
        ] as const) {
          const target = g[r];
          if (target) target[column] = `=${sameColumnTo(expression(content), sheet, column, name)}`;
        }
      });
    }
    if (own) out.set(sheet, list);
    else {
      const target = added.find((a) => a.name === sheet)?.grid;
      for (const { row, column, formula } of list) {
        const r = target?.[row];
        if (r) r[column] = formula;
      }
    }
  }
  return { cells: out, added, act, sides };
}

/**
 * The values of the side sheets for the plan as exported (their formulas' cached results), computed by HyperFormula
 * over the other sheets' values: the engine's workbook does not hold them.
 */
function sideValues(wb: PlanWorkbook, sheets: ExportSheet[], sideSheets: ExportSheet[]): void {
  if (sideSheets.length === 0) return;
  const data: Record<string, RawCellContent[][]> = {};
  // Only the sheets the side sheets read, directly or through a sheet the engine holds no values of.
  const byName = new Map(sheets.map((s) => [s.name, s]));
  const pending = [...sideSheets, ...wb.layout.names.map((n) => ({ grid: [[n.expression]] }))];
  const needed = new Set<string>();
  while (pending.length > 0) {
    const next = pending.pop();
    for (const row of next?.grid ?? []) {
      for (const content of row) {
        if (typeof content !== 'string' || !content.startsWith('=')) continue;
        for (const m of content.matchAll(/('(?:[^']|'')+'|[A-Za-z_][\w.]*)!/g)) {
          const name = (m[1] ?? '').replace(/^'|'$/g, '').replace(/''/g, "'");
          const s = byName.get(name);
          if (!s || needed.has(name)) continue;
          needed.add(name);
          if (!s.values) pending.push(s);
        }
      }
    }
  }
  // A text value that looks like a formula (a cost item's name) is not one here.
  const text = (v: Value) => (typeof v === 'string' && v.startsWith('=') ? null : v);
  for (const name of needed) {
    const s = byName.get(name);
    if (s) data[name] = s.values ? s.values.map((row) => row.map(text)) : s.grid;
  }
  for (const s of sideSheets) data[s.name] = s.grid;
  const hf = HyperFormula.buildFromSheets(
    data,
    { ...HYPERFORMULA_CONFIG },
    wb.layout.names.map((n) => ({ name: n.name, expression: n.expression })),
  );
  try {
    for (const s of sideSheets) {
      const id = hf.getSheetId(s.name) ?? -1;
      s.values = s.grid.map((row, r) =>
        row.map((content, col) => {
          if (typeof content !== 'string' || !content.startsWith('=')) return content;
          const v = hf.getCellValue({ sheet: id, row: r, col });
          return v === null || typeof v !== 'object' ? (v as Value) : null;
        }),
      );
    }
  } finally {
    hf.destroy();
  }
}

/** The ACT and EST sides of an Actual sheet's conditional month cells. */
interface ExportSheetSide {
  sheet: string;
  act: Grid;
  est: Grid;
  /** The columns with conditional cells; every other cell of such a column is copied into both sides. */
  columns: Set<number>;
}

const TOKEN =
  /("(?:[^"]|"")*")|('(?:[^']|'')+'|[A-Za-z_][\w.]*)!(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)|(?<![\w.$!:'])(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)(?![\w(!])/g;

/**
 * A formula of `sheet` moved to the sheet `to`: references to `sheet`'s cells in `column` point to the same cells of
 * `to`, every other reference of `sheet` is qualified with its name.
 */
function sameColumnTo(formula: string, sheet: string, column: number, to: string): string {
  const inColumn = (ref: string) =>
    ref.split(':').every((end) => columnIndex(end.replace(/\$/g, '').replace(/\d+$/, '')) === column);
  return formula.replace(TOKEN, (match, text, prefix, qualified, bare) => {
    if (text !== undefined) return match;
    if (qualified !== undefined) return prefix === sheet && inColumn(qualified) ? `${to}!${qualified}` : match;
    return `${inColumn(bare) ? to : sheet}!${bare}`;
  });
}

/** A cell's content as an expression inside a formula: a number, the formula without '=', or "" for blank. */
function expression(content: string | number | null): string {
  if (typeof content === 'number') return String(content);
  if (typeof content === 'string' && content.startsWith('=')) return content.slice(1);
  return '""';
}

/** The actual-inputs cell of an input path (`0/actuals/5/order`), or undefined for another kind of input. */
function inputReference(plan: PlanFile, path: string): string | undefined {
  const [caseText, group, tText, key] = path.split('/');
  if (group !== 'actuals' || key === undefined) return undefined;
  const row = actualInputRows(plan.template)[key];
  if (row === undefined) return undefined;
  return `${quoteSheet(actualInputsSheetName(Number(caseText)))}!${a1(row, actualInputColumn(Number(tText)))}`;
}

/**
 * The Actual sheets' cells of entered actuals as formulas reading the actual-inputs sheet: the entered value, or when
 * the cell there is empty what the month holds without it (0, the plan's ARPA or head count, the daily entries' sum,
 * the chained beginning balance), taken from the same plan compiled without its actual values.
 */
function linkedActualCells(wb: PlanWorkbook): Map<string, { row: number; column: number; formula: string }[]> {
  const plan = wb.plan;
  const stripped: PlanFile = {
    ...plan,
    cases: plan.cases.map((c) => ({
      ...c,
      actuals: Object.fromEntries(Object.entries(c.actuals).map(([t, a]) => [t, { status: a.status ?? 'ACT' }])),
    })),
  };
  const layout = wb.layout;
  const bare = compilePlan(stripped, { asOf: calendarMonth(plan, layout.asOfMonth) });
  const rowsByTemplate = actualInputRows(plan.template);
  const out = new Map<string, { row: number; column: number; formula: string }[]>();
  for (const [path, cells] of layout.inputCells) {
    const [caseText, group, tText, key] = path.split('/');
    if (group !== 'actuals' || key === undefined) continue;
    const inputRow = rowsByTemplate[key];
    if (inputRow === undefined) continue;
    const ref = `${quoteSheet(actualInputsSheetName(Number(caseText)))}!${a1(inputRow, actualInputColumn(Number(tText)))}`;
    for (const cell of cells) {
      const fallback = bare.sheets[cell.sheet]?.[cell.row]?.[cell.column] ?? null;
      const otherwise =
        typeof fallback === 'number'
          ? String(fallback)
          : typeof fallback === 'string' && fallback.startsWith('=')
            ? fallback.slice(1)
            : '""';
      const list = out.get(cell.sheet) ?? [];
      list.push({ row: cell.row, column: cell.column, formula: `=IF(${ref}="",${otherwise},${ref})` });
      out.set(cell.sheet, list);
    }
  }
  return out;
}

/** The calendar month of plan month t, for any t (before the plan's start too). */
function calendarMonth(plan: PlanFile, t: number): { year: number; month: number } {
  const n = plan.start_month - 1 + t - 1;
  return { year: plan.start_year + Math.floor(n / 12), month: (((n % 12) + 12) % 12) + 1 };
}
