/**
 * Cases side by side (issue 40, working-screens.md section 3): every case's plan-year figures read from the CY columns
 * of its estimate, as the annual P&L reads them, and each case's difference from the base case (the first) as a value
 * and a rate. Runway comes from each case's dashboard, so the cases' cash and runway can be shown together.
 */
import { z } from 'zod';
import { PLAN_YEARS } from '../schema';
import { brokenSchema, CaseReader, figureSchema as figure, flagBroken, refusedInputs } from './cells';
import { forecastMonths } from './dashboard';
import { type FigureKind, figureKind, isResidue, RESIDUE, shownMoney } from './residue';
import type { WorkbookFigures } from './source';

/** The compared figures, by the answer's name, and the workbook row each is read from. */
export const COMPARE_ROWS = {
  revenue: 'revenue',
  gross_profit: 'gross_profit',
  gross_profit_rate: 'gross_profit_rate',
  sm: 'sm',
  rd: 'rd',
  ga: 'ga',
  operating_pl: 'operating_income',
  operating_pl_rate: 'operating_income_rate',
  arr: 'arr',
  customers: 'cumulative',
  employees: 'employees',
  ending_cash: 'ending_cash_balance',
  required_cash: 'required_cash',
  burn_multiple: 'burn_multiple',
} as const;
export type CompareKey = keyof typeof COMPARE_ROWS;
export const COMPARE_KEYS = Object.keys(COMPARE_ROWS) as CompareKey[];

/** The measures the comparison's chart can draw. */
export const COMPARE_MEASURES = ['arr', 'revenue', 'operating_pl', 'ending_cash'] as const;
export type CompareMeasure = (typeof COMPARE_MEASURES)[number];

const compareRecordSchema = z.strictObject(
  Object.fromEntries(COMPARE_KEYS.map((key) => [key, figure])) as Record<CompareKey, typeof figure>,
);
export type CompareRecord = z.infer<typeof compareRecordSchema>;

export const compareYearSchema = z.strictObject({
  year: z.int(),
  values: compareRecordSchema,
  /** This case's figure less the base case's; null in the base case itself. */
  difference: compareRecordSchema.nullable(),
  /** The difference over the base case's figure (its size); a figure is null where the base is zero (a dash). */
  difference_rate: compareRecordSchema.nullable(),
  broken: brokenSchema.optional(),
});
export type CompareYear = z.infer<typeof compareYearSchema>;

export const comparedCaseSchema = z.strictObject({
  case_index: z.int(),
  case_name: z.string(),
  /** Months of runway, as the case's dashboard counts them; null when cash never runs out within the plan. */
  forecast_monthes: figure,
  years: z.array(compareYearSchema),
});
export type ComparedCase = z.infer<typeof comparedCaseSchema>;

export const caseComparisonSchema = z.strictObject({ cases: z.array(comparedCaseSchema) });
/** Every case of the plan, the base case (index 0) first. */
export type CaseComparison = z.infer<typeof caseComparisonSchema>;

/** The residue rule's kind of a compared figure (read/residue.ts). */
const kindOf = (key: CompareKey): FigureKind => figureKind(COMPARE_ROWS[key]);

/** Below this size a compared figure is zero up to residue, as the residue rule (read/residue.ts) has it. */
export function zeroTolerance(key: CompareKey): number {
  return RESIDUE[kindOf(key)];
}

/** This case's figure less the base case's; money within half a cent of zero is 0, as the residue rule shows it. */
export function difference(key: CompareKey, value: number | null, base: number | null): number | null {
  if (value === null || base === null) return null;
  const d = value - base;
  return kindOf(key) === 'money' ? shownMoney(d) : d;
}

/**
 * The difference as a share of the base's size, so that a smaller loss reads as a rise: (case - base) / |base|.
 * Blank where either figure is blank or the base is zero up to residue (the screen's dash).
 */
export function differenceRate(key: CompareKey, value: number | null, base: number | null): number | null {
  const d = difference(key, value, base);
  if (d === null || base === null || base === 0 || isResidue(base, kindOf(key))) return null;
  return d / Math.abs(base);
}

export function yearValues(r: CaseReader, year: number): CompareRecord {
  const values = {} as CompareRecord;
  // Money as the annual P&L shows it: residue is 0 (read/residue.ts).
  for (const key of COMPARE_KEYS) {
    const value = r.estimateYear(COMPARE_ROWS[key], year);
    values[key] = kindOf(key) === 'money' ? shownMoney(value) : value;
  }
  return values;
}

/** Per key: `of(value, base)` over two records. */
export function combine(
  values: CompareRecord,
  base: CompareRecord,
  of: (key: CompareKey, value: number | null, base: number | null) => number | null,
): CompareRecord {
  const out = {} as CompareRecord;
  // A figure that could not be computed (NaN) makes its difference blank, not NaN.
  const clean = (v: number | null) => (v === null || Number.isFinite(v) ? v : null);
  for (const key of COMPARE_KEYS) out[key] = of(key, clean(values[key]), clean(base[key]));
  return out;
}

/** Every case's figures per plan year beside the base case's, with the differences. */
export function caseComparison(wb: WorkbookFigures): CaseComparison {
  const readers = wb.plan.cases.map((_, index) => new CaseReader(wb, index));
  const values = readers.map((r) => Array.from({ length: PLAN_YEARS }, (_, i) => yearValues(r, i + 1)));
  const baseValues = values[0] ?? [];
  const cases = wb.plan.cases.map((c, index) => ({
    case_index: index,
    case_name: c.case_name,
    forecast_monthes: forecastMonths(wb, index),
    years: (values[index] ?? []).map((record, i) => {
      const base = baseValues[i] as CompareRecord;
      const year = {
        year: i + 1,
        values: record,
        difference: index === 0 ? null : combine(record, base, difference),
        difference_rate: index === 0 ? null : combine(record, base, differenceRate),
      };
      return flagBroken(year, refusedInputs(wb, index, i + 1));
    }),
  }));
  for (const c of cases) {
    if (c.forecast_monthes !== null && !Number.isFinite(c.forecast_monthes)) c.forecast_monthes = null;
  }
  return { cases };
}
