/**
 * The Plan sheet (the wizard's inputs, each a named expression) and each case's Assumptions sheet: one row per
 * assumption, one column per plan year. A cell holds the user's value where one is stored, else its default formula
 * (MODEL.md section 2), so a person editing the exported file sees the same chain of defaults.
 */
import { a1 } from '../layout';
import { PLAN_YEARS, type PlanCase, type PlanFile, type YearKey } from '../schema';
import { type Cell, emptyGrid, type Grid, setCell } from './grid';

/** Plan-level inputs and constants, in Plan sheet order; each is also a workbook-level named expression. */
export const PLAN_NAMES = [
  'template',
  'currency',
  'target_arr',
  'period',
  'plan_arpa',
  'start_year',
  'start_month',
  'as_of_month',
  'arr_per_head',
  'churn_band_low',
  'churn_band_high',
  'cash_tolerance',
] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const PLAN_SHEET = 'Plan';

export function planRef(name: PlanName): string {
  return a1(PLAN_NAMES.indexOf(name) + 1, 1, PLAN_SHEET, true);
}

export function compilePlanSheet(plan: PlanFile, asOfMonth: number): Grid {
  const values: Record<PlanName, [string, Cell]> = {
    template: ['Template', plan.template],
    currency: ['Currency', plan.currency],
    target_arr: ['Target ARR', plan.arr],
    period: ['Months to reach the target ARR', plan.period],
    plan_arpa: ['ARPA (monthly)', plan.arpa],
    start_year: ['Start year', plan.start_year],
    start_month: ['Start month', plan.start_month],
    as_of_month: ['Plan month of today', asOfMonth],
    // MODEL.md section 2: ARR per head for the head-count rule, and the ARPA bands of the default churn.
    arr_per_head: ['ARR per head', '=IF(currency="USD",50000,5000000)'],
    churn_band_low: ['ARPA band: up to', '=IF(currency="USD",500,50000)'],
    churn_band_high: ['ARPA band: up to (mid-market)', '=IF(currency="USD",2000,200000)'],
    // A balance short of zero by less than half a cent is floating-point residue, not a cash-out.
    cash_tolerance: ['Cash-out tolerance', 0.005],
  };
  const grid = emptyGrid(PLAN_NAMES.length + 1, 2);
  setCell(grid, 0, 0, 'Input');
  setCell(grid, 0, 1, 'Value');
  PLAN_NAMES.forEach((name, i) => {
    setCell(grid, i + 1, 0, values[name][0]);
    setCell(grid, i + 1, 1, values[name][1]);
  });
  return grid;
}

export type AssumptionKey =
  | 'case_rate'
  | 'growth_multiple'
  | 'arr'
  | 'mrr_target'
  | Exclude<YearKey, 'arr'>
  | 'employees';

/** Assumption rows in sheet order (row index = position + 1). */
export const ASSUMPTION_ROWS: { key: AssumptionKey; label: string }[] = [
  { key: 'case_rate', label: 'Case rate (x base case)' },
  { key: 'growth_multiple', label: 'Growth multiple to next year' },
  { key: 'arr', label: 'Target ARR' },
  { key: 'mrr_target', label: 'Target MRR' },
  { key: 'arpa', label: 'ARPA (monthly, from the start of the year)' },
  { key: 'upselling_rate', label: 'Upselling rate' },
  { key: 'upselling_month', label: 'Upselling from month' },
  { key: 'churn_rate', label: 'Churn rate (monthly)' },
  { key: 'lead_rate', label: 'Lead / session' },
  { key: 'meeting_rate', label: 'Meeting / lead' },
  { key: 'order_rate', label: 'Order / meeting' },
  { key: 'registration_rate', label: 'Registration / session' },
  { key: 'billing_rate', label: 'Paid / registration' },
  { key: 'recurring_revenue_rate', label: 'Recurring revenue / revenue' },
  { key: 'cogs_rate', label: 'COGS / revenue' },
  { key: 'sm_rate', label: 'S&M / revenue' },
  { key: 'rd_rate', label: 'R&D / revenue' },
  { key: 'ga_rate', label: 'G&A / revenue' },
  { key: 'employees', label: 'Employees (override)' },
];

/** Constant defaults of MODEL.md section 2. */
const CONSTANT_DEFAULTS: Partial<Record<AssumptionKey, number>> = {
  upselling_rate: 0,
  upselling_month: 1,
  lead_rate: 0.07,
  meeting_rate: 0.36,
  order_rate: 0.27,
  registration_rate: 0.1,
  billing_rate: 0.25,
  recurring_revenue_rate: 1,
  cogs_rate: 0.3,
  sm_rate: 0.38,
  rd_rate: 0.21,
  ga_rate: 0.11,
};

export function assumptionRow(key: AssumptionKey): number {
  return ASSUMPTION_ROWS.findIndex((r) => r.key === key) + 1;
}

export class Assumptions {
  constructor(readonly sheet: string) {}

  /** Absolute, qualified reference to an assumption of plan year y (column B = year 1). */
  ref(key: AssumptionKey, year: number): string {
    return a1(assumptionRow(key), year, this.sheet, true);
  }

  /** The target ARR row of all six years, for INDEX. */
  arrRange(): string {
    const row = assumptionRow('arr');
    return `${a1(row, 1, this.sheet, true)}:${a1(row, PLAN_YEARS, undefined, true)}`;
  }
}

export function caseRateName(caseIndex: number): string {
  return `case${caseIndex + 1}_rate`;
}

export function compileAssumptions(c: PlanCase, caseIndex: number): Grid {
  const grid = emptyGrid(ASSUMPTION_ROWS.length + 1, PLAN_YEARS + 1);
  setCell(grid, 0, 0, 'Assumption');
  for (let y = 1; y <= PLAN_YEARS; y++) setCell(grid, 0, y, `Y${y}`);
  const local = (key: AssumptionKey, y: number) => a1(assumptionRow(key), y);
  for (const { key, label } of ASSUMPTION_ROWS) {
    const row = assumptionRow(key);
    setCell(grid, row, 0, label);
    for (let y = 1; y <= PLAN_YEARS; y++) {
      const stored = key in (c.years[String(y)] ?? {}) ? c.years[String(y)]?.[key as YearKey] : undefined;
      setCell(grid, row, y, stored ?? defaultCell(c, caseIndex, key, y, local));
    }
  }
  return grid;
}

function defaultCell(
  c: PlanCase,
  caseIndex: number,
  key: AssumptionKey,
  y: number,
  local: (key: AssumptionKey, y: number) => string,
): Cell {
  switch (key) {
    case 'case_rate':
      return y === 1 ? c.case_rate : null;
    case 'growth_multiple':
      return y <= 5 ? (c.model.model_rate[y - 1] ?? null) : null;
    case 'arr':
      // T_1 = A x r; T_{y+1} = T_y x m_y (MODEL.md section 3).
      return y === 1
        ? `=target_arr*${caseRateName(caseIndex)}`
        : `=${local('arr', y - 1)}*${local('growth_multiple', y - 1)}`;
    case 'mrr_target':
      return `=${local('arr', y)}/12`;
    case 'arpa':
      // Later years carry the previous year's ARPA after its upselling step.
      return y === 1 ? '=plan_arpa' : `=${local('arpa', y - 1)}*(1+${local('upselling_rate', y - 1)})`;
    case 'churn_rate':
      return `=IF(${local('arpa', y)}<churn_band_low,0.03,IF(${local('arpa', y)}<=churn_band_high,0.02,0.01))`;
    case 'employees':
      return null;
    default:
      return CONSTANT_DEFAULTS[key] ?? null;
  }
}
