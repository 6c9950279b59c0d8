/**
 * The Costs sheet of a case (MODEL.md section 7): one row per cost item with its monthly amount over its term, then
 * per group (COGS, S&M, R&D, G&A) and for all four: items total, budget (the estimate's cost), budgetary average and
 * remaining budget. Each item's price and term sit in cells at the right, so the exported file recomputes.
 */
import { ALL_PERIODS, a1, columnLetter, monthColumn, PERIOD_COLUMNS, periodColumn, quarterColumn } from '../layout';
import { COST_GROUPS, type CostGroup, type CostItem, PLAN_MONTHS } from '../schema';
import { type Cell, emptyGrid, type Grid, type PeriodSheet, periodLabel, setCell, textCell } from './grid';

export const SUMMARY_ROWS = ['total', 'budget', 'budgetary_averages', 'remaining_budget'] as const;
export type SummaryRow = (typeof SUMMARY_ROWS)[number];
export type CostScope = CostGroup | 'all';

/** Input columns to the right of the period columns. */
const META = ['item_title', 'price', 'start_year', 'start_month', 'end_year', 'end_month', 'start_t', 'end_t'] as const;
const metaColumn = (key: (typeof META)[number]) => PERIOD_COLUMNS + 1 + META.indexOf(key);
/** Row of the plan month index that item formulas compare with their term. */
const T_ROW = 1;
const FIRST_ITEM_ROW = 2;

export interface CostLayout {
  /** Row of each item, in the order of the plan file's cost_items. */
  itemRows: number[];
  summaryRow: Record<CostScope, Record<SummaryRow, number>>;
}

export function costGroupOf(item: Pick<CostItem, 'item_title'>): CostGroup {
  return item.item_title.split('_')[0] as CostGroup;
}

export function compileCosts(
  items: CostItem[],
  estimate: PeriodSheet,
  start: { year: number; month: number },
): { grid: Grid; layout: CostLayout } {
  const order = COST_GROUPS.flatMap((g) =>
    items.map((item, i) => ({ item, i })).filter((x) => costGroupOf(x.item) === g),
  );
  const scopes: CostScope[] = [...COST_GROUPS, 'all'];
  const rows = FIRST_ITEM_ROW + order.length + scopes.length * SUMMARY_ROWS.length;
  const grid = emptyGrid(rows, metaColumn('end_t') + 1);
  setCell(grid, 0, 0, 'Cost items');
  for (const p of ALL_PERIODS) setCell(grid, 0, periodColumn(p), periodLabel(p, start.year, start.month));
  for (const key of META) setCell(grid, 0, metaColumn(key), key);
  setCell(grid, T_ROW, 0, 'Plan month');
  for (let t = 1; t <= PLAN_MONTHS; t++) setCell(grid, T_ROW, monthColumn(t), t);

  const itemRows = new Array<number>(items.length).fill(0);
  const rowsOfGroup: Record<CostGroup, number[]> = { cogs: [], sm: [], rd: [], ga: [] };
  order.forEach(({ item, i }, n) => {
    const r = FIRST_ITEM_ROW + n;
    itemRows[i] = r;
    rowsOfGroup[costGroupOf(item)].push(r);
    fillItem(grid, r, item);
  });

  const summaryRow = {} as CostLayout['summaryRow'];
  let r = FIRST_ITEM_ROW + order.length;
  for (const scope of scopes) {
    summaryRow[scope] = {} as Record<SummaryRow, number>;
    for (const key of SUMMARY_ROWS) summaryRow[scope][key] = r++;
  }
  for (const scope of scopes) {
    const at = summaryRow[scope];
    setCell(grid, at.total, 0, `${scope} items total`);
    setCell(grid, at.budget, 0, `${scope} budget`);
    setCell(grid, at.budgetary_averages, 0, `${scope} items / budget (%)`);
    setCell(grid, at.remaining_budget, 0, `${scope} remaining budget`);
    for (const p of ALL_PERIODS) {
      const column = periodColumn(p);
      const itemRowsOfScope = scope === 'all' ? COST_GROUPS.flatMap((g) => rowsOfGroup[g]) : rowsOfGroup[scope];
      setCell(grid, at.total, column, sumOf(itemRowsOfScope, column));
      // Budgets are read by quarter and year; months carry the items only.
      if (p.kind === 'month') continue;
      const budget =
        scope === 'all'
          ? `=${COST_GROUPS.map((g) => a1(summaryRow[g].budget, column)).join('+')}`
          : `=${estimate.ref(scope, column, true)}`;
      setCell(grid, at.budget, column, budget);
      const total = a1(at.total, column);
      const budgetRef = a1(at.budget, column);
      setCell(grid, at.budgetary_averages, column, `=IFERROR(${total}/${budgetRef}*100,"")`);
      setCell(grid, at.remaining_budget, column, `=${budgetRef}-${total}`);
    }
  }
  return { grid, layout: { itemRows, summaryRow } };
}

/**
 * The sum of item rows, which are consecutive (items sit grouped, and the groups in order): one range, so that the
 * formula, its parsing and its dependencies stay the same size whatever the item count.
 */
function sumOf(rows: number[], column: number): Cell {
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first === undefined || last === undefined) return 0;
  if (last - first + 1 !== rows.length) throw new Error('cost item rows must be consecutive');
  return `=SUM(${a1(first, column)}:${a1(last, column)})`;
}

function fillItem(grid: Grid, r: number, item: CostItem): void {
  setCell(grid, r, 0, textCell(item.item_name));
  setCell(grid, r, metaColumn('item_title'), item.item_title);
  setCell(grid, r, metaColumn('price'), item.price);
  setCell(grid, r, metaColumn('start_year'), item.start_year);
  setCell(grid, r, metaColumn('start_month'), item.start_month);
  setCell(grid, r, metaColumn('end_year'), item.end_year);
  setCell(grid, r, metaColumn('end_month'), item.end_month);
  const m = (key: (typeof META)[number]) => a1(r, metaColumn(key), undefined, true);
  setCell(grid, r, metaColumn('start_t'), `=(${m('start_year')}-start_year)*12+${m('start_month')}-start_month+1`);
  setCell(grid, r, metaColumn('end_t'), `=(${m('end_year')}-start_year)*12+${m('end_month')}-start_month+1`);
  // The price in every month of the term (MODEL.md section 7).
  for (let t = 1; t <= PLAN_MONTHS; t++) {
    const ti = `${columnLetter(monthColumn(t))}$${T_ROW + 1}`;
    setCell(grid, r, monthColumn(t), `=IF(AND(${ti}>=${m('start_t')},${ti}<=${m('end_t')}),${m('price')},0)`);
  }
  for (const p of ALL_PERIODS) {
    if (p.kind === 'month') continue;
    const sum =
      p.kind === 'quarter'
        ? `${a1(r, monthColumn(p.months[0] ?? 1))}:${a1(r, monthColumn(p.months[2] ?? 1))}`
        : [1, 2, 3, 4].map((q) => a1(r, quarterColumn(p.year, q))).join(',');
    setCell(grid, r, periodColumn(p), `=SUM(${sum})`);
  }
}
