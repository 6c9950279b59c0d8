/**
 * The cost screen's read model (MODEL.md section 7, working-screens.md section 3): per plan year and cost group the
 * budget, the items' spending, budgetary averages and remaining budget, with each item's months.
 */
import { z } from 'zod';
import { monthsOfYear } from '../calendar';
import type { SummaryRow } from '../compile/costs';
import { costGroupOf } from '../compile/costs';
import { monthColumn, yearColumn } from '../layout';
import { COST_GROUPS, type CostGroup, PLAN_YEARS } from '../schema';
import { brokenSchema, figureSchema as figure, flagBroken, refusedInputs } from './cells';
import { dashesSchema, isResidue, shownMoney } from './residue';
import type { WorkbookFigures } from './source';

export const costItemYearSchema = z.strictObject({
  cost_id: z.union([z.string(), z.number()]).nullable(),
  item_title: z.string(),
  item_name: z.string(),
  price: z.number(),
  start_year: z.int(),
  start_month: z.int(),
  end_year: z.int(),
  end_month: z.int(),
  total: figure,
  /** The item's spending in each month of the year. */
  monthly: z.array(figure),
});
export type CostItemYear = z.infer<typeof costItemYearSchema>;

export const costGroupYearSchema = z.strictObject({
  detail: z.array(costItemYearSchema),
  total: figure,
  monthly: z.array(figure),
  budget: figure,
  budgetary_averages: figure,
  remaining_budget: figure,
  over_budget: z.boolean(),
  /** Items of the group named for the over-budget warning. */
  over_budget_items: z.array(z.string()),
});
export type CostGroupYear = z.infer<typeof costGroupYearSchema>;

export const costYearSchema = z.strictObject({
  year: z.int(),
  total_cost: figure,
  groups: z.strictObject({
    cogs: costGroupYearSchema,
    sm: costGroupYearSchema,
    rd: costGroupYearSchema,
    ga: costGroupYearSchema,
    all: costGroupYearSchema,
  } satisfies Record<CostGroup | 'all', typeof costGroupYearSchema>),
  /** Paths of figures blank because their base is zero up to residue (`groups.rd.budgetary_averages`): a dash. */
  dashes: dashesSchema.optional(),
  broken: brokenSchema.optional(),
});
export type CostYear = z.infer<typeof costYearSchema>;

export function costs(wb: WorkbookFigures, caseIndex: number): CostYear[] {
  const layout = wb.caseLayout(caseIndex);
  const sheet = layout.sheets.costs;
  const items = wb.plan.cases[caseIndex]?.cost_items ?? [];
  const at = (row: number, column: number) => wb.figure(sheet, row, column);
  return Array.from({ length: PLAN_YEARS }, (_, i) => {
    const year = i + 1;
    const cy = yearColumn(year);
    const months = monthsOfYear(year);
    const itemYears: (CostItemYear & { group: CostGroup })[] = items.map((item, n) => {
      const row = layout.costs.itemRows[n] ?? 0;
      return {
        group: costGroupOf(item),
        cost_id: item.cost_id ?? null,
        item_title: item.item_title,
        item_name: item.item_name,
        price: item.price,
        start_year: item.start_year,
        start_month: item.start_month,
        end_year: item.end_year,
        end_month: item.end_month,
        total: at(row, cy),
        monthly: months.map((t) => at(row, monthColumn(t))),
      };
    });
    const dashes: string[] = [];
    const group = (scope: CostGroup | 'all'): CostGroupYear => {
      const rows = layout.costs.summaryRow[scope];
      const summary = (key: SummaryRow) => at(rows[key], cy);
      const detail = itemYears.filter((x) => scope === 'all' || x.group === scope).map(({ group: _g, ...x }) => x);
      const budget = shownMoney(summary('budget'));
      // Items over a budget that is zero up to residue are no percentage of it (read/residue.ts).
      const overResidue = isResidue(budget, 'money') && (summary('total') ?? 0) !== 0;
      if (overResidue) dashes.push(`groups.${scope}.budgetary_averages`);
      const averages = overResidue ? null : summary('budgetary_averages');
      const over = averages !== null && averages > 100;
      return {
        detail,
        total: summary('total'),
        monthly: months.map((t) => at(rows.total, monthColumn(t))),
        budget,
        budgetary_averages: averages,
        remaining_budget: shownMoney(summary('remaining_budget')),
        over_budget: over,
        over_budget_items: over ? detail.filter((d) => (d.total ?? 0) > 0).map((d) => d.item_name) : [],
      };
    };
    const groups = Object.fromEntries(
      [...COST_GROUPS, 'all'].map((g) => [g, group(g as CostGroup | 'all')]),
    ) as CostYear['groups'];
    const costYear: CostYear = { year, total_cost: groups.all.total, groups, ...(dashes.length > 0 ? { dashes } : {}) };
    return flagBroken(costYear, refusedInputs(wb, caseIndex, year));
  });
}
