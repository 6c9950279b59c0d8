/**
 * The `Comparison` sheet of the comparison's XLSX: every compared figure of every case by plan year, each a reference
 * to the year's CY cell of the case's Estimate sheet, and each other case's difference from the base case as a value
 * and a rate, formulas over those references; so a change typed into any case's sheets moves the comparison. A rate
 * of a zero base (up to the comparison's residue) is blank, as the screen's dash; `read/caseComparison.ts` states
 * the rule, and this sheet writes it as a formula. The cached results are what the formulas compute over the
 * engine's values. A snapshot set beside the cases is the plan of record, frozen: its figures are written as the engine
 * read them from the snapshot's own workbook, and its differences from the base case are formulas like the cases'.
 */
import type { Grid } from '../compile/index';
import { a1, yearColumn } from '../layout';
import { COMPARE_KEYS, COMPARE_ROWS, type CompareKey, zeroTolerance } from '../read/caseComparison';
import { type ComparedSnapshot, snapshotCaseLabel, snapshotCompared } from '../read/snapshotComparison';
import { PLAN_YEARS } from '../schema';
import type { PlanWorkbook, Value } from '../workbook';
import { type FormatKind, metricFormat } from './formats';
import { quoteSheet } from './references';
import type { ExportSheet } from './sheetValues';
import { exportXlsx, type XlsxOptions } from './xlsx';

export const COMPARISON_SHEET = 'Comparison';

/** The first column of the plan years; item, label, case and figure before it. */
const FIRST_YEAR_COLUMN = 4;

type Kind = 'value' | 'difference' | 'difference_rate';

/** The comparison sheet of a plan's workbook, with a snapshot's rows last when one is set beside the cases. */
export function comparisonSheet(wb: PlanWorkbook, snapshot?: ComparedSnapshot): ExportSheet {
  const grid: Grid = [];
  const values: Value[][] = [];
  const formats: (FormatKind | undefined)[] = [];
  const names = new Map<number, string>();
  const years = Array.from({ length: PLAN_YEARS }, (_, i) => i + 1);
  grid.push(['item', 'label', 'case', 'figure', ...years.map((y) => `Y${y}`)]);
  values.push([...(grid[0] ?? [])] as Value[]);
  formats.push(undefined);

  const frozen = snapshot ? snapshotCompared(wb, snapshot.workbook) : undefined;
  const push = (
    key: CompareKey,
    caseName: string,
    kind: Kind,
    cells: { formula: string | number | null; value: Value }[],
  ) => {
    names.set(grid.length, caseName);
    const row = COMPARE_ROWS[key];
    grid.push([key, row, caseName, kind, ...cells.map((c) => c.formula)]);
    values.push([key, row, caseName, kind, ...cells.map((c) => c.value)]);
    const format = metricFormat(row);
    formats.push(kind === 'difference_rate' ? 'rate' : kind === 'difference' && format === 'rate' ? 'points' : format);
  };

  /** A compared row's difference from the base case's row, as a value and a rate, formulas over the two rows. */
  const differences = (key: CompareKey, caseName: string, caseRow: number, baseRow: number) => {
    const cell = (r: number, y: number) => a1(r, FIRST_YEAR_COLUMN + y - 1);
    const at = (r: number, y: number) => values[r]?.[FIRST_YEAR_COLUMN + y - 1] ?? null;
    const blank = (y: number) => `OR(${cell(baseRow, y)}="",${cell(caseRow, y)}="")`;
    push(
      key,
      caseName,
      'difference',
      years.map((y) => {
        const [v, b] = [at(caseRow, y), at(baseRow, y)];
        return {
          formula: `=IF(${blank(y)},"",${cell(caseRow, y)}-${cell(baseRow, y)})`,
          value: typeof v === 'number' && typeof b === 'number' ? v - b : null,
        };
      }),
    );
    const tolerance = zeroTolerance(key);
    push(
      key,
      caseName,
      'difference_rate',
      years.map((y) => {
        const [v, b] = [at(caseRow, y), at(baseRow, y)];
        // |base| as MAX(base, -base): the exports use no function beyond those every spreadsheet evaluates alike.
        const size = `MAX(${cell(baseRow, y)},-${cell(baseRow, y)})`;
        return {
          formula: `=IF(${blank(y)},"",IF(${size}<${tolerance},"",(${cell(caseRow, y)}-${cell(baseRow, y)})/${size}))`,
          value:
            typeof v === 'number' && typeof b === 'number' && Math.abs(b) >= tolerance ? (v - b) / Math.abs(b) : null,
        };
      }),
    );
  };

  for (const key of COMPARE_KEYS) {
    const row = COMPARE_ROWS[key];
    // The sheet row of each case's value row, to difference against.
    const valueRows: number[] = [];
    wb.plan.cases.forEach((c, index) => {
      const layout = wb.caseLayout(index);
      const sheetRow = layout.rowOf[row];
      valueRows.push(grid.length);
      push(
        key,
        c.case_name,
        'value',
        years.map((y) => {
          if (sheetRow === undefined) return { formula: null, value: null };
          const figure = wb.figure(layout.sheets.estimate, sheetRow, yearColumn(y));
          return {
            formula: `=${a1(sheetRow, yearColumn(y), quoteSheet(layout.sheets.estimate))}`,
            value: figure !== null && Number.isFinite(figure) ? figure : null,
          };
        }),
      );
    });
    const baseRow = valueRows[0] ?? 0;
    wb.plan.cases.forEach((c, index) => {
      if (index > 0) differences(key, c.case_name, valueRows[index] ?? 0, baseRow);
    });
    if (frozen && snapshot) {
      // The plan of record is frozen: its figures are written as they stand, its differences as formulas.
      const name = snapshotCaseLabel(snapshot.name, 'en');
      const snapshotRow = grid.length;
      push(
        key,
        name,
        'value',
        years.map((y) => {
          const figure = frozen.years[y - 1]?.values[key] ?? null;
          const value = figure !== null && Number.isFinite(figure) ? figure : null;
          return { formula: value, value };
        }),
      );
      differences(key, name, snapshotRow, baseRow);
    }
  }
  return {
    name: COMPARISON_SHEET,
    grid,
    values,
    formatOf: (r, c) => (c >= FIRST_YEAR_COLUMN ? formats[r] : undefined),
    // Case names are user text: always written as text.
    textOf: (r, c) => (c === 2 ? names.get(r) : undefined),
    frozenColumns: FIRST_YEAR_COLUMN,
  };
}

/** The plan's XLSX with the comparison sheet first among the sheets after the plan's own. */
export function exportComparisonXlsx(
  wb: PlanWorkbook,
  options: XlsxOptions = {},
  snapshot?: ComparedSnapshot,
): Promise<Uint8Array> {
  return exportXlsx(wb, { ...options, extraSheets: [comparisonSheet(wb, snapshot)] });
}
