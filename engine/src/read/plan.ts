/**
 * Read models of the budgeting screens: the annual P&L, KPI, revenue and cost budgets, shaped like the spec's answers
 * (working-screens.md section 3). Every number is a cell of the workbook.
 */
import { assumptionRow } from '../compile/assumptions';
import type { SummaryRow } from '../compile/costs';
import { costGroupOf } from '../compile/costs';
import { monthColumn, monthsOfYear, periodColumn, periodsOfYear, quarterColumn, yearColumn } from '../layout';
import { COST_GROUPS, type CostGroup, PLAN_YEARS } from '../schema';
import type { PlanWorkbook } from '../workbook';
import { CaseReader, monthLabel, type NumberRecord, num, type SpecRow } from './cells';

/** The spec's "P&L year row" plus required cash. */
export interface PlYearRow {
  year: number;
  arr: number | null;
  revenue: number | null;
  /** The spec's alias of revenue. */
  sales: number | null;
  cogs: number | null;
  cogs_rate: number | null;
  gross_profit: number | null;
  gross_profit_rate: number | null;
  operating_cost: number | null;
  operating_cost_rate: number | null;
  sm: number | null;
  sm_rate: number | null;
  rd: number | null;
  rd_rate: number | null;
  ga: number | null;
  ga_rate: number | null;
  operating_pl: number | null;
  operating_pl_rate: number | null;
  employees: number | null;
  arr_per_headcount: number | null;
  revenue_per_headcount: number | null;
  required_cash: number | null;
}

/** Spec name -> workbook row. */
const PL_FIELDS: Record<Exclude<keyof PlYearRow, 'year'>, string> = {
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

export function annualPl(wb: PlanWorkbook, caseIndex: number): PlYearRow[] {
  const r = new CaseReader(wb, caseIndex);
  return Array.from({ length: PLAN_YEARS }, (_, i) => {
    const year = i + 1;
    const row = { year } as PlYearRow;
    for (const [field, key] of Object.entries(PL_FIELDS)) {
      (row as unknown as Record<string, number | null>)[field] = r.estimateYear(key, year);
    }
    return row;
  });
}

const ASSUMPTION_FIELDS = [
  'arpa',
  'upselling_month',
  'upselling_rate',
  'churn_rate',
  'lead_rate',
  'meeting_rate',
  'order_rate',
  'registration_rate',
  'billing_rate',
  'recurring_revenue_rate',
  'cogs_rate',
  'sm_rate',
  'rd_rate',
  'ga_rate',
  'employees',
] as const;

/** Effective assumptions of a year: stored values and the defaults' results alike. */
export function assumptions(wb: PlanWorkbook, caseIndex: number, year: number): Record<string, number | null> {
  const sheet = wb.caseLayout(caseIndex).sheets.assumptions;
  const out: Record<string, number | null> = {};
  for (const key of [...ASSUMPTION_FIELDS, 'arr', 'mrr_target', 'growth_multiple', 'case_rate'] as const) {
    out[key] = num(wb.value(sheet, assumptionRow(key), key === 'case_rate' ? 1 : year));
  }
  return out;
}

function kpiKeys(template: string): string[] {
  const funnel = template === 'saas' ? ['session', 'lead', 'meeting', 'order'] : ['session', 'registration', 'order'];
  const rates = template === 'saas' ? ['lead_cvr', 'meeting_cvr', 'order_cvr'] : ['registration_cvr', 'order_cvr'];
  return [...funnel, 'churn', 'cumulative', 'mrr', 'arr', 'arpa', ...rates, 'churn_cvr'];
}

/** Self-serve plans call their paid conversions "billing" and "paid" as well as order. */
function withSelfServeAliases(template: string, record: NumberRecord): NumberRecord {
  return template === 'selfserve' ? { ...record, billing: record.order ?? null, paid: record.order ?? null } : record;
}

export interface KpiYear {
  year: number;
  arr: number | null;
  mrr: number | null;
  arpa: number | null;
  assumptions: Record<string, number | null>;
  yearly: NumberRecord;
  /** Per month: month ("YYYY-MM"), t, and the counts and rates. */
  monthly: SpecRow[];
  /** Per quarter: quarter (1..4), progress_rate, and the counts and rates. */
  quarterly: SpecRow[];
}

export function kpi(wb: PlanWorkbook, caseIndex: number): KpiYear[] {
  const r = new CaseReader(wb, caseIndex);
  const template = wb.plan.template;
  const keys = kpiKeys(template);
  const est = r.layout.sheets.estimate;
  const start = { year: wb.plan.start_year, month: wb.plan.start_month };
  return Array.from({ length: PLAN_YEARS }, (_, i) => {
    const year = i + 1;
    const a = assumptions(wb, caseIndex, year);
    return {
      year,
      arr: r.estimateYear('arr', year),
      mrr: r.estimateYear('mrr', year),
      arpa: a.arpa ?? null,
      assumptions: a,
      ...a,
      yearly: withSelfServeAliases(template, r.record(est, keys, yearColumn(year))),
      monthly: monthsOfYear(year).map((t) => ({
        month: monthLabel(start, t),
        t,
        ...withSelfServeAliases(template, r.record(est, keys, monthColumn(t))),
      })),
      quarterly: [1, 2, 3, 4].map((quarter) => ({
        quarter,
        // How far along the year's ARR target the plan is at the quarter's end.
        progress_rate: r.cell(est, 'arr_progress', quarterColumn(year, quarter)),
        ...withSelfServeAliases(template, r.record(est, keys, quarterColumn(year, quarter))),
      })),
    };
  });
}

export interface RevenueYear {
  year: number;
  mrr: number | null;
  revenue: number | null;
  professional_service: number | null;
  recurring_revenue_rate: number | null;
  professional_service_rate: number | null;
  monthly: {
    month: string;
    t: number;
    mrr: number | null;
    professional_service: number | null;
    revenue: number | null;
    sales: number | null;
    cumulative_revenue: number | null;
  }[];
}

export function revenue(wb: PlanWorkbook, caseIndex: number): RevenueYear[] {
  const r = new CaseReader(wb, caseIndex);
  const start = { year: wb.plan.start_year, month: wb.plan.start_month };
  return Array.from({ length: PLAN_YEARS }, (_, i) => {
    const year = i + 1;
    return {
      year,
      mrr: r.estimateYear('mrr', year),
      revenue: r.estimateYear('revenue', year),
      professional_service: r.estimateYear('professional_service', year),
      recurring_revenue_rate: assumptions(wb, caseIndex, year).recurring_revenue_rate ?? null,
      professional_service_rate: r.estimateYear('professional_service_rate', year),
      monthly: monthsOfYear(year).map((t) => ({
        month: monthLabel(start, t),
        t,
        mrr: r.estimateAt('mrr', t),
        professional_service: r.estimateAt('professional_service', t),
        revenue: r.estimateAt('revenue', t),
        sales: r.estimateAt('revenue', t),
        cumulative_revenue: r.estimateAt('cumulative_revenue', t),
      })),
    };
  });
}

export interface CostItemYear {
  cost_id: string | number | null;
  item_title: string;
  item_name: string;
  price: number;
  start_year: number;
  start_month: number;
  end_year: number;
  end_month: number;
  total: number | null;
  monthly: (number | null)[];
}

export interface CostGroupYear {
  detail: CostItemYear[];
  total: number | null;
  monthly: (number | null)[];
  budget: number | null;
  budgetary_averages: number | null;
  remaining_budget: number | null;
  over_budget: boolean;
  /** Items of the group named for the over-budget warning. */
  over_budget_items: string[];
}

export interface CostYear {
  year: number;
  total_cost: number | null;
  groups: Record<CostGroup | 'all', CostGroupYear>;
}

export function costs(wb: PlanWorkbook, caseIndex: number): CostYear[] {
  const layout = wb.caseLayout(caseIndex);
  const sheet = layout.sheets.costs;
  const items = wb.plan.cases[caseIndex]?.cost_items ?? [];
  const at = (row: number, column: number) => num(wb.value(sheet, row, column));
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
    const group = (scope: CostGroup | 'all'): CostGroupYear => {
      const rows = layout.costs.summaryRow[scope];
      const summary = (key: SummaryRow) => at(rows[key], cy);
      const detail = itemYears.filter((x) => scope === 'all' || x.group === scope).map(({ group: _g, ...x }) => x);
      const averages = summary('budgetary_averages');
      const over = averages !== null && averages > 100;
      return {
        detail,
        total: summary('total'),
        monthly: months.map((t) => at(rows.total, monthColumn(t))),
        budget: summary('budget'),
        budgetary_averages: averages,
        remaining_budget: summary('remaining_budget'),
        over_budget: over,
        over_budget_items: over ? detail.filter((d) => (d.total ?? 0) > 0).map((d) => d.item_name) : [],
      };
    };
    const groups = Object.fromEntries(
      [...COST_GROUPS, 'all'].map((g) => [g, group(g as CostGroup | 'all')]),
    ) as CostYear['groups'];
    return { year, total_cost: groups.all.total, groups };
  });
}

export { periodColumn, periodsOfYear };
