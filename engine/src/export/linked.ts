/**
 * The sheets the spreadsheet exports write: the plan's workbook as compiled, with each entered actual of the Actual
 * sheets turned into a reference to its cell in the case's actual-inputs sheet (so a number typed there recomputes
 * the workbook), the actual-inputs sheets themselves, and, when the plan's id is given, the hidden `Topline` sheet
 * that names the plan for the import. The Actual sheets' EST months are `conditionalMonths.ts`'s, and the values of
 * the sheets the engine's workbook does not hold are given by `sheetValues.ts`.
 */

import { calendarOf } from '../calendar';
import { ACTUAL_TO_DATE_TITLE, compileVariance, ESTIMATE_TO_DATE_TITLE } from '../compile/compare';
import { PeriodSheet } from '../compile/grid';
import { type CompiledWorkbook, compilePlan, type Grid } from '../compile/index';
import { a1, PERIOD_COLUMNS } from '../layout';
import { rowsFor } from '../rows';
import { type ActualKey, PLAN_MONTHS, type PlanFile } from '../schema';
import {
  actMonthsGrid,
  actMonthsSheetName,
  dynamicDashboard,
  dynamicMasked,
  dynamicVariance,
  varianceBlankValues,
  varianceShared,
} from './actMonths';
import {
  actualInputColumn,
  actualInputRows,
  actualInputsGrid,
  actualInputsSheetName,
  PLAN_MARKER_SHEET,
  planMarkerGrid,
} from './actualInputs';
import { conditionalMonths, sideShared } from './conditionalMonths';
import { type CellFormatOf, type FormatKind, sheetFormats } from './formats';
import { quoteSheet } from './references';
import { blankValues, type ExportSheet, FILLED, sideValues, valuesOf } from './sheetValues';
import { userText } from './userText';
import type { ExportWorkbook } from './workbookData';
import type { Sharing } from './xlsxWriter';

export type { ExportSheet } from './sheetValues';

export interface ExportSheetsOptions {
  /** The plan's id, written into the hidden `Topline` sheet that the import checks. */
  planId?: string | number;
}

/** Every sheet an export writes, in order: the workbook's sheets, then `C1 Actuals`…, then `Topline`. */
export function exportSheets(wb: ExportWorkbook, options: ExportSheetsOptions = {}): ExportSheet[] {
  const linked = linkedActualCells(wb);
  const { cells: conditional, added, act, sides, shared } = conditionalMonths(wb, linked);
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
      ...(shared.has(name) ? { shared: shared.get(name) } : {}),
    };
  });
  // The Actual sheet of a case without ACT months, right after its Estimate sheet; Excel, Calc and Sheets compute it.
  for (const { name, estimate, grid, caseIndex } of added) {
    const at = sheets.findIndex((x) => x.name === estimate);
    sheets.splice(at + 1, 0, {
      name,
      grid,
      values: valuesOf(grid, wb.sheetValues(estimate)),
      formatOf: sheetFormats(
        {
          ...wb.layout,
          cases: [{ ...wb.caseLayout(caseIndex), sheets: { ...wb.caseLayout(caseIndex).sheets, actual: name } }],
        },
        name,
      ),
      textOf: () => undefined,
      frozenColumns: 1,
      ...(shared.has(name) ? { shared: shared.get(name) } : {}),
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
  for (const side of sides) {
    const actual = sheets.find((x) => x.name === side.sheet)?.values;
    if (!actual) throw new Error(`the export holds no values of ${side.sheet}`);
    const values = sideValues(side, actual);
    for (const [name, grid, sideValues, which] of [
      [`${side.sheet}_ACT`, side.act, values.act, 'act'],
      [`${side.sheet}_EST`, side.est, values.est, 'est'],
    ] as const) {
      sheets.push({
        name,
        grid,
        values: sideValues,
        formatOf: () => undefined,
        textOf: () => undefined,
        frozenColumns: 1,
        hidden: true,
        shared: sideShared(side, which),
      });
    }
  }
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
 * Dashboard. `act` is the plan compiled with every month ACT (`compileActSide`: its Actual, Estimate and Dashboard).
 */
function dependentSheets(wb: ExportWorkbook, act: CompiledWorkbook, sheets: ExportSheet[]): void {
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
    const rows = rowsFor(plan.template);
    const bare = (name: string, title: string) => new PeriodSheet(name, rows, title, plan.start_year, plan.start_month);
    const atdSheet = bare(atd, ACTUAL_TO_DATE_TITLE);
    const etdSheet = bare(etd, ESTIMATE_TO_DATE_TITLE);
    const replaced: [string, { grid: Grid; shared: Sharing }][] = [
      [atd, dynamicMasked(plan, c, atd, view, own ? wb.grid(atd) : atdSheet.grid, base(view))],
      [
        etd,
        dynamicMasked(plan, c, etd, c.sheets.estimate, own ? wb.grid(etd) : etdSheet.grid, base(c.sheets.estimate)),
      ],
    ];
    // Compared in every column: each comparison is blank while its period has no ACT month (`dynamicVariance`).
    const everyMonth = Array.from({ length: PLAN_MONTHS }, (_, i) => i + 1);
    const compared = compileVariance(c.varianceRows, atdSheet, etdSheet, everyMonth, PERIOD_COLUMNS + 1, FILLED);
    const varianceGrid = dynamicVariance(plan, c, own ? wb.grid(variance) : undefined, compared);
    replaced.push([variance, { grid: varianceGrid, shared: varianceShared(varianceGrid) }]);
    const layout = {
      ...wb.layout,
      cases: [{ ...c, sheets: { ...c.sheets, actual: view, actualToDate: atd, estimateToDate: etd, variance } }],
    };
    let at = sheets.findIndex((x) => x.name === view);
    for (const [name, { grid, shared }] of replaced) {
      const existing = sheets.find((x) => x.name === name);
      if (existing) {
        existing.grid = grid;
        existing.shared = shared;
      } else {
        at += 1;
        sheets.splice(at, 0, {
          name,
          grid,
          values: name === variance ? varianceBlankValues(grid) : blankValues(grid),
          formatOf: sheetFormats(layout, name),
          textOf: () => undefined,
          frozenColumns: 1,
          shared,
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

/**
 * The Actual sheets' cells of entered actuals as formulas reading the actual-inputs sheet: the entered value, or when
 * the cell there is empty what the month holds without it (0, the plan's ARPA or head count, the daily entries' sum,
 * the chained beginning balance), taken from the same plan compiled without its actual values.
 */
function linkedActualCells(wb: ExportWorkbook): Map<string, { row: number; column: number; formula: string }[]> {
  const plan = wb.plan;
  const stripped: PlanFile = {
    ...plan,
    cases: plan.cases.map((c) => ({
      ...c,
      actuals: Object.fromEntries(Object.entries(c.actuals).map(([t, a]) => [t, { status: a.status ?? 'ACT' }])),
    })),
  };
  const layout = wb.layout;
  // Compiled at the first entered actual: a plan without any needs none.
  let bareLayout: CompiledWorkbook | undefined;
  const bare = () => {
    bareLayout ??= compilePlan(stripped, { asOf: calendarOf(plan.start_year, plan.start_month, layout.asOfMonth) });
    return bareLayout;
  };
  const rowsByTemplate = actualInputRows(plan.template);
  const out = new Map<string, { row: number; column: number; formula: string }[]>();
  for (const [path, cells] of layout.inputCells) {
    const [caseText, group, tText, key] = path.split('/');
    if (group !== 'actuals' || key === undefined) continue;
    const inputRow = rowsByTemplate[key];
    if (inputRow === undefined) continue;
    const ref = `${quoteSheet(actualInputsSheetName(Number(caseText)))}!${a1(inputRow, actualInputColumn(Number(tText)))}`;
    for (const cell of cells) {
      const fallback = bare().sheets[cell.sheet]?.[cell.row]?.[cell.column] ?? null;
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
