/**
 * The annual P&L (working-screens.md section 3): the spec's "P&L year row" of each plan year, read from the CY columns
 * of the estimate, plus required cash.
 */
import { z } from 'zod';
import { type Period, periodsOfYear } from '../layout';
import { PLAN_YEARS } from '../schema';
import { brokenSchema, CaseReader, figureSchema as figure, flagBroken, refusedInputs } from './cells';
import { dashesSchema, figureKind, rateOverResidue, shownMoney } from './residue';
import type { WorkbookFigures } from './source';

export const plYearRowSchema = z.strictObject({
  year: z.int(),
  arr: figure,
  revenue: figure,
  /** The spec's alias of revenue. */
  sales: figure,
  cogs: figure,
  cogs_rate: figure,
  gross_profit: figure,
  gross_profit_rate: figure,
  operating_cost: figure,
  operating_cost_rate: figure,
  sm: figure,
  sm_rate: figure,
  rd: figure,
  rd_rate: figure,
  ga: figure,
  ga_rate: figure,
  operating_pl: figure,
  operating_pl_rate: figure,
  employees: figure,
  arr_per_headcount: figure,
  revenue_per_headcount: figure,
  required_cash: figure,
  /** Fields blank because their base is zero up to residue (`read/residue.ts`): the screens show a dash. */
  dashes: dashesSchema.optional(),
  broken: brokenSchema.optional(),
});
/** The spec's "P&L year row" plus required cash. */
export type PlYearRow = z.infer<typeof plYearRowSchema>;

/** Spec name -> workbook row. */
const PL_FIELDS: Record<Exclude<keyof PlYearRow, 'year' | 'broken' | 'dashes'>, string> = {
  arr: 'arr',
  revenue: 'revenue',
  sales: 'revenue',
  cogs: 'cogs',
  cogs_rate: 'cogs_rate',
  gross_profit: 'gross_profit',
  gross_profit_rate: 'gross_profit_rate',
  operating_cost: 'operating_expense',
  operating_cost_rate: 'operating_expense_rate',
  sm: 'sm',
  sm_rate: 'sm_rate',
  rd: 'rd',
  rd_rate: 'rd_rate',
  ga: 'ga',
  ga_rate: 'ga_rate',
  operating_pl: 'operating_income',
  operating_pl_rate: 'operating_income_rate',
  employees: 'employees',
  arr_per_headcount: 'arr_per_headcount',
  revenue_per_headcount: 'revenue_per_headcount',
  required_cash: 'required_cash',
};

export function annualPl(wb: WorkbookFigures, caseIndex: number): PlYearRow[] {
  const r = new CaseReader(wb, caseIndex);
  return Array.from({ length: PLAN_YEARS }, (_, i) => {
    const year = i + 1;
    const row = { year } as PlYearRow;
    const cy = periodsOfYear(year).find((p) => p.kind === 'year') as Period;
    const dashes: string[] = [];
    for (const [field, key] of Object.entries(PL_FIELDS)) {
      const value = r.estimateYear(key, year);
      const dashed = rateOverResidue(r, r.layout.sheets.estimate, key, cy);
      if (dashed) dashes.push(field);
      const shown = dashed ? null : figureKind(key) === 'money' ? shownMoney(value) : value;
      (row as unknown as Record<string, number | null>)[field] = shown;
    }
    if (dashes.length > 0) row.dashes = dashes;
    return flagBroken(row, refusedInputs(wb, caseIndex, year));
  });
}
