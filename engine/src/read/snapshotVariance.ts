/**
 * Against the plan of record (issue 40, point 3): the monthly P&L's progress and variance views with a snapshot's
 * estimate as the budget. The snapshot's estimate is built by the same engine from the snapshot's stored inputs (a
 * workbook of its own); the live side is the live plan's actual view: the ACT months as entered and every other month
 * the live forecast (the estimate, or the revised forecast). Every month, quarter and year is compared, each period
 * over all its months: a frozen plan is judged by the actuals so far and by what the live plan now expects for the
 * rest of the year.
 *
 * The figures follow the workbook's Variance sheet (progress = actual / budget, difference = actual - budget as a
 * value or actual / budget - 1 as a rate; blank where either side is blank) and the rules of the other views: counts
 * foot (a count's difference is its shown actual less its shown budget, a quarter's and the year's the sum of their
 * months', `footing.ts`), money within half a cent of zero is 0, and a compared figure whose base is zero up to residue
 * on either side is a dash (`residue.ts`).
 */
import { z } from 'zod';
import { type Period, periodColumn, periodsOfYear } from '../layout';
import { ROWS, recordKeys } from '../rows';
import { CaseReader, flagBroken, type NumberRecord } from './cells';
import { footDifferences } from './footing';
import { columnName, dashPaths, type GridColumn, monthlyGrid, type ViewRecords } from './monthly';
import { figureKind, isResidue, rateOverResidue, shownMoney } from './residue';
import type { WorkbookFigures } from './source';

/** The views a snapshot can be the budget of. */
export const SNAPSHOT_VIEWS = ['progress', 'difference_value', 'difference_rate'] as const;
export type SnapshotView = (typeof SNAPSHOT_VIEWS)[number];

/** The plan of record beside a live case: the snapshot's workbook and the case of it read as the budget. */
export interface PlanOfRecord {
  workbook: WorkbookFigures;
  caseIndex: number;
}

/** What the monthly P&L answer says of the snapshot it compares against. */
export const snapshotBudgetSchema = z.strictObject({
  id: z.number(),
  /** The snapshot's case read as the budget: the one of the live case's name, else at its place, else its first. */
  case_name: z.string(),
});
export type SnapshotBudget = z.infer<typeof snapshotBudgetSchema>;

/**
 * The snapshot's case that is the budget of a live case: the one of the same name, else the one at the same place,
 * else the snapshot's base case (cases are named by the user and may have been renamed, added or deleted since).
 */
export function snapshotCaseIndex(live: WorkbookFigures, caseIndex: number, snapshot: WorkbookFigures): number {
  const name = live.plan.cases[caseIndex]?.case_name;
  const named = snapshot.plan.cases.findIndex((c) => c.case_name === name);
  if (named >= 0) return named;
  return caseIndex < snapshot.plan.cases.length ? caseIndex : 0;
}

/**
 * Why a snapshot cannot be compared month by month with the live plan, or null when it can: its months must be the
 * live plan's (the same first month) and its rows the same (the same template).
 */
export function snapshotMismatch(live: WorkbookFigures, snapshot: WorkbookFigures): string | null {
  const a = live.plan;
  const b = snapshot.plan;
  if (a.template !== b.template) return `the snapshot is a ${b.template} plan and this plan a ${a.template} plan`;
  if (a.start_year !== b.start_year || a.start_month !== b.start_month) {
    const month = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}`;
    return `the snapshot's plan starts in ${month(b.start_year, b.start_month)} and this plan in ${month(a.start_year, a.start_month)}`;
  }
  return null;
}

/** Rows whose month cells are blank whatever their base (as `residue.ts` has them). */
const PERIODS_ONLY = new Set(ROWS.filter((row) => row.periodsOnly).map((row) => row.key));

const RATIO_VIEWS = new Set<SnapshotView>(['progress', 'difference_rate']);

/** One compared figure from its two sides, as the Variance sheet's formulas compute it. */
function compare(view: SnapshotView, actual: number | null, budget: number | null): number | null {
  if (actual === null || budget === null) return null;
  if (Number.isNaN(actual) || Number.isNaN(budget)) return Number.NaN;
  if (view === 'difference_value') return actual - budget;
  if (budget === 0) return null;
  return view === 'progress' ? actual / budget : actual / budget - 1;
}

/** A compared figure shown as a dash: a side's rate over a base that is zero up to residue, or a ratio over zero. */
function dashed(live: CaseReader, budget: CaseReader, view: SnapshotView, key: string, p: Period): boolean {
  if (rateOverResidue(live, live.viewSheet, key, p)) return true;
  if (rateOverResidue(budget, budget.layout.sheets.estimate, key, p)) return true;
  if (!RATIO_VIEWS.has(view)) return false;
  return isResidue(budget.cell(budget.layout.sheets.estimate, key, periodColumn(p)), figureKind(key));
}

/** The 17 columns of a plan year compared with the snapshot, with NaN where a figure could not be computed. */
function snapshotColumns(
  wb: WorkbookFigures,
  caseIndex: number,
  record: PlanOfRecord,
  year: number,
  view: SnapshotView,
): GridColumn[] {
  const live = new CaseReader(wb, caseIndex);
  const budget = new CaseReader(record.workbook, record.caseIndex);
  const keys = recordKeys(wb.plan.template);
  const comments = wb.plan.cases[caseIndex]?.comments ?? [];
  const template = monthlyGrid(wb, caseIndex, year, 'actual');
  const columns = periodsOfYear(year).map((p, i): GridColumn => {
    const column = periodColumn(p);
    const actual = live.record(live.viewSheet, keys, column);
    const planned = budget.record(budget.layout.sheets.estimate, keys, column);
    const values: NumberRecord = {};
    const dashes: string[] = [];
    for (const key of keys) {
      const value = compare(view, actual[key] ?? null, planned[key] ?? null);
      if (!(p.kind === 'month' && PERIODS_ONLY.has(key)) && dashed(live, budget, view, key, p)) {
        values[key] = null;
        dashes.push(key);
      } else {
        const money = view === 'difference_value' && figureKind(key) === 'money';
        values[key] = money ? shownMoney(value) : value;
      }
    }
    const shape = template[i] as GridColumn;
    const comment =
      p.kind === 'month'
        ? (comments.find((c) => c.year === year && c.column_name === p.month && c.section === 'difference')?.content ??
          null)
        : null;
    return {
      column: columnName(p),
      monthType: shape.monthType,
      month: shape.month,
      t: shape.t,
      isQuarter: shape.isQuarter,
      status: live.status(p),
      comment,
      values,
      ...(dashes.length > 0 ? { dashes } : {}),
    };
  });
  if (view === 'difference_value') {
    const of = (cs: GridColumn[], kind: GridColumn['monthType']) =>
      cs.filter((c) => c.monthType === kind).map((c) => c.values);
    const shownActual = of(template, 'month');
    const shownBudget = of(monthlyGrid(record.workbook, record.caseIndex, year, 'estimate'), 'month');
    footDifferences(of(columns, 'month'), of(columns, 'quarter'), of(columns, 'cy')[0], shownActual, shownBudget);
  }
  return columns;
}

/** The 17 columns of a plan year in a view compared with the snapshot; a figure not computed is blank. */
export function snapshotGrid(
  wb: WorkbookFigures,
  caseIndex: number,
  record: PlanOfRecord,
  year: number,
  view: SnapshotView,
): GridColumn[] {
  return snapshotColumns(wb, caseIndex, record, year, view).map((column) => flagBroken(column, []));
}

/** Where each view sits in a year of the monthly P&L answer. */
const VIEW_PATHS: Record<SnapshotView, string> = {
  progress: 'progress',
  difference_value: 'difference.value',
  difference_rate: 'difference.rate',
};

function toRecords(columns: GridColumn[]): ViewRecords {
  const record = (c: GridColumn) => ({ ...c.values, month: c.month, status: c.status, comment: c.comment });
  return {
    monthly: columns.filter((c) => c.monthType === 'month').map(record),
    quarterly: columns.filter((c) => c.monthType === 'quarter').map(record),
    yearly: record(columns.find((c) => c.monthType === 'cy') ?? (columns[0] as GridColumn)),
  };
}

/** A year of the monthly P&L answer, as `monthlyPl` builds it: the parts this module replaces. */
interface MonthlyYear {
  year: number;
  progress: ViewRecords;
  difference: { rate: ViewRecords; value: ViewRecords };
  dashes?: string[];
  broken?: { figures: string[]; inputs: string[] };
}

/**
 * A year of the monthly P&L answer with the snapshot as the budget: its progress and difference views (and their
 * dashes and broken figures) replaced by the comparison with the snapshot's estimate; the other views stay the live
 * plan's.
 */
export function againstSnapshot<Y extends MonthlyYear>(
  wb: WorkbookFigures,
  caseIndex: number,
  record: PlanOfRecord,
  answer: Y,
): Y {
  const views = Object.fromEntries(
    SNAPSHOT_VIEWS.map((view) => [view, snapshotColumns(wb, caseIndex, record, answer.year, view)]),
  ) as Record<SnapshotView, GridColumn[]>;
  const compared = {
    progress: toRecords(views.progress),
    difference: { rate: toRecords(views.difference_rate), value: toRecords(views.difference_value) },
  };
  const flagged = flagBroken(compared, []);
  const replaced = (path: string) => path.startsWith('progress.') || path.startsWith('difference.');
  const dashes = [
    ...(answer.dashes ?? []).filter((path) => !replaced(path)),
    ...SNAPSHOT_VIEWS.flatMap((view) => dashPaths(VIEW_PATHS[view], views[view])),
  ];
  const figures = [
    ...(answer.broken?.figures ?? []).filter((path) => !replaced(path)),
    ...(flagged.broken?.figures ?? []),
  ];
  const inputs = answer.broken?.inputs ?? [];
  const { dashes: _d, broken: _b, ...rest } = answer;
  return {
    ...rest,
    progress: flagged.progress,
    difference: flagged.difference,
    ...(dashes.length > 0 ? { dashes } : {}),
    ...(figures.length > 0 || inputs.length > 0 ? { broken: { figures, inputs } } : {}),
  } as unknown as Y;
}
