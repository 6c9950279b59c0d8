/**
 * The residue rule (engine/DECISIONS.md, "Residue"): what the read models show of a figure that is zero up to
 * floating-point residue, and of a rate taken over such a figure. One rule for the screens, the CSV and explain, all of
 * which read the read models.
 *
 * - A money figure within half a cent of zero is 0 (never -0, ▲0 or 1e-12).
 * - A rate (a percentage row, progress, a difference rate, a dashboard or budget rate) whose base is zero up to residue
 *   (exactly zero included) is blank and named in the object's `dashes`: the screens show a dash titled with why, the
 *   CSV an empty cell.
 *
 * A base is zero up to residue when it shows as zero at the precision it is shown in, by its kind: money within half a
 * cent, a count below half of one, a rate below half of the 0.1% step percentages are shown in, a multiple (LTV / CAC,
 * burn multiple) below half of its 0.01 step. The workbook and the spreadsheet exports keep their formulas as they are.
 */
import { z } from 'zod';
import { monthColumn, type Period, periodColumn, previousPeriod } from '../layout';
import { MONEY_KEYS, RATE_KEYS, ROWS, rowsFor } from '../rows';
import type { Template } from '../schema';
import type { CaseReader, NumberRecord } from './cells';

export type FigureKind = 'money' | 'count' | 'rate' | 'multiple';

/** Below these sizes a base is zero up to residue (see the module's comment). */
export const RESIDUE: Readonly<Record<FigureKind, number>> = {
  money: 0.005,
  count: 0.5,
  rate: 0.0005,
  multiple: 0.005,
};

const MULTIPLE_KEYS = new Set(['ltv_cac', 'burn_multiple']);

/** The kind of a row of the period sheets, by its key. */
export function figureKind(key: string): FigureKind {
  if (RATE_KEYS.has(key)) return 'rate';
  if (MONEY_KEYS.has(key)) return 'money';
  return MULTIPLE_KEYS.has(key) ? 'multiple' : 'count';
}

/** A figure that is zero up to residue for its kind (a blank or a figure that could not be computed is not). */
export function isResidue(value: number | null | undefined, kind: FigureKind): boolean {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < RESIDUE[kind];
}

/** A money figure as shown: 0 within half a cent of zero (and never -0). */
export function shownMoney(value: number | null): number | null {
  return value !== null && Math.abs(value) < RESIDUE.money ? 0 : value;
}

/** The paths (or keys) of figures shown as a dash because their base is zero up to residue. */
export const dashesSchema = z.array(z.string());

/** Rows whose month cells are blank whatever their base. */
const PERIODS_ONLY = new Set(ROWS.filter((row) => row.periodsOnly).map((row) => row.key));

/** Revenue growth divides by the previous period's revenue, not a row of its own column. */
const PREVIOUS_REVENUE = 'previous revenue';

/** The row each rate row of a template divides by, read from the row's own formula (`IFERROR(a/b,"")`). */
const rateBases = new Map<Template, Map<string, string>>();
export function rateBase(template: Template, key: string): string | undefined {
  let bases = rateBases.get(template);
  if (!bases) {
    bases = new Map([['revenue_rate', PREVIOUS_REVENUE]]);
    for (const row of rowsFor(template)) {
      if (!row.rate || !row.same) continue;
      const divisor = /\/\{(\w+)\},""\)$/.exec(row.same((k) => `{${k}}`))?.[1];
      if (divisor) bases.set(row.key, divisor);
    }
    rateBases.set(template, bases);
  }
  return bases.get(key);
}

/** Whether a rate row of a sheet's period column is taken over a base that is zero up to residue. */
export function rateOverResidue(r: CaseReader, sheet: string, key: string, p: Period): boolean {
  const base = rateBase(r.wb.plan.template, key);
  if (base === undefined) return false;
  if (base === PREVIOUS_REVENUE) {
    const previous = previousPeriod(p);
    return previous !== undefined && isResidue(r.cell(sheet, 'revenue', periodColumn(previous)), 'money');
  }
  // A period's churn rate is over the sum of its months' starting customers (MODEL.md section 4).
  if (key === 'churn_cvr' && p.kind !== 'month') {
    const starts = p.months.map((t) => r.cell(sheet, base, monthColumn(t)) ?? 0);
    return isResidue(
      starts.reduce((sum, v) => sum + v, 0),
      'count',
    );
  }
  return isResidue(r.cell(sheet, base, periodColumn(p)), figureKind(base));
}

/** The sheets a view of a period column is read from: the view's own, or the two sides a comparison divides. */
export interface ViewSheets {
  /** The sheet of the figures shown (estimate or actual view). */
  own?: string;
  /** A comparison's sides: the actual and the estimate restricted to the ACT months, and the sheets they mask. */
  compared?: { actual: string; estimate: string; actualSource: string; estimateSource: string };
}

/**
 * Applies the rule to a period column's values in place and answers the keys shown as a dash. `ratio` is set for the
 * views whose every figure is a rate of the estimate (progress, difference rate); the difference value is money where
 * its row is.
 */
export function applyResidueRule(
  r: CaseReader,
  sheets: ViewSheets,
  p: Period,
  values: NumberRecord,
  ratio: boolean,
): string[] {
  const dashes: string[] = [];
  const column = periodColumn(p);
  for (const key in values) {
    const value = values[key];
    if (value === undefined || (p.kind === 'month' && PERIODS_ONLY.has(key))) continue;
    // A rate the workbook leaves blank over a base of exactly 0 is a dash too: its base is zero.
    if (dashedAt(r, sheets, key, p, column, ratio)) {
      values[key] = null;
      dashes.push(key);
    } else if (!ratio && figureKind(key) === 'money') values[key] = shownMoney(value);
  }
  return dashes;
}

function dashedAt(r: CaseReader, sheets: ViewSheets, key: string, p: Period, column: number, ratio: boolean) {
  if (sheets.own !== undefined) return rateOverResidue(r, sheets.own, key, p);
  const c = sheets.compared;
  if (!c) return false;
  // A rate compared whose own base is residue on either side is no figure to compare.
  const sideDashed = (sheet: string, source: string) =>
    rateOverResidue(r, key === 'revenue_rate' ? source : sheet, key, p);
  if (sideDashed(c.actual, c.actualSource) || sideDashed(c.estimate, c.estimateSource)) return true;
  return ratio && isResidue(r.cell(c.estimate, key, column), figureKind(key));
}
