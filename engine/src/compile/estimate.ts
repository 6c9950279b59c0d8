/**
 * The Estimate sheet of a case (the plan, MODEL.md section 3), and the section 3 formulas of a planned month that the
 * Actual sheet reuses for revised months.
 */
import { monthWithinYear, yearOf } from '../calendar';
import { rowsFor } from '../rows';
import { PLAN_MONTHS, type PlanCase, type Template } from '../schema';
import type { Assumptions } from './assumptions';
import { burnMultiple } from './formulas';
import { type Cell, type Input, type InputCells, inputPath, isInput, PeriodSheet } from './grid';
import { aggregateAllPeriods } from './periodRules';

export interface MonthContext {
  sheet: PeriodSheet;
  assumptions: Assumptions;
  template: Template;
}

/** A month's cash item: a formula, or an input of the plan file (a literal when present). */
export type CashSource = (key: string) => Cell | Input;

/** Where the sheets of a case record their input cells. */
export interface CaseInputs {
  caseIndex: number;
  cells: InputCells;
}

/** The plan's MRR at month t (MODEL.md section 3): a ramp to the first anchor, then steady growth between anchors. */
function estimateMrr(ctx: MonthContext, t: number): string {
  const { sheet, assumptions: a } = ctx;
  const seg = sheet.at('segment', t);
  const ti = sheet.at('t', t);
  const arr = a.arrRange();
  // Past the last anchor the fifth segment's growth continues: M_5 x (M_6/M_5)^((t-a_5)/12) = M_6 x (M_6/M_5)^((t-a_6)/12).
  return (
    `=IF(${seg}=0,${a.ref('arr', 1)}/12*${ti}/period,` +
    `INDEX(${arr},1,${seg})/12*POWER(INDEX(${arr},1,${seg}+1)/INDEX(${arr},1,${seg}),(${ti}-period-12*(${seg}-1))/12))`
  );
}

/**
 * Section 3 formulas of month t in `ctx.sheet`, given the MRR formula. Used by the estimate and, with the revised
 * MRR, by revised months of the actual view; `cash` supplies the month's cash items.
 */
export function fillPlannedMonth(ctx: MonthContext, t: number, mrr: string, cash: CashSource): void {
  const { sheet: s, assumptions: a, template } = ctx;
  const y = yearOf(t);
  const at = (key: string) => s.at(key, t);
  const prev = (key: string) => (t > 1 ? s.at(key, t - 1) : '0');
  const set = (key: string, value: Cell) => s.setMonth(key, t, value);
  set('mrr', mrr);
  set('arr', `=${at('mrr')}*12`);
  set(
    'arpa',
    `=${a.ref('arpa', y)}*(1+IF(${at('month_of_year')}>=${a.ref('upselling_month', y)},${a.ref('upselling_rate', y)},0))`,
  );
  set('cumulative', `=IFERROR(${at('mrr')}/${at('arpa')},0)`);
  set('cumulative_prev', t > 1 ? `=${prev('cumulative')}` : 0);
  set('churn', `=${at('cumulative_prev')}*${a.ref('churn_rate', y)}`);
  set('order', `=MAX(0,${at('cumulative')}-${at('cumulative_prev')}+${at('churn')})`);
  if (template === 'saas') {
    set('meeting', `=${at('order')}/${a.ref('order_rate', y)}`);
    set('lead', `=${at('meeting')}/${a.ref('meeting_rate', y)}`);
    set('session', `=${at('lead')}/${a.ref('lead_rate', y)}`);
  } else {
    set('registration', `=${at('order')}/${a.ref('billing_rate', y)}`);
    set('session', `=${at('registration')}/${a.ref('registration_rate', y)}`);
  }
  set('professional_service', `=${at('mrr')}*(1/${a.ref('recurring_revenue_rate', y)}-1)`);
  set('revenue', `=${at('mrr')}+${at('professional_service')}`);
  for (const cost of ['cogs', 'sm', 'rd', 'ga'])
    set(cost, `=${at('revenue')}*${a.ref(`${cost}_rate` as 'cogs_rate', y)}`);
  const override = a.ref('employees', y);
  // The nano-head allowance keeps 176.00000000000003 (binary residue of 176) from rounding up to 177, which
  // HyperFormula would do and Excel and LibreOffice would not.
  set('employees', `=IF(${override}="",MAX(1,ROUNDUP(${at('mrr')}*12/arr_per_head-0.000000001,0)),${override})`);
  fillDerivedMonth(ctx, t, cash);
}

/** Rows every layer computes the same way from the month's figures: P&L subtotals, cash, chains and ratios. */
export function fillDerivedMonth(ctx: MonthContext, t: number, cash: CashSource): void {
  const s = ctx.sheet;
  const at = (key: string) => s.at(key, t);
  const prev = (key: string) => s.at(key, t - 1);
  const set = (key: string, value: Cell) => s.setMonth(key, t, value);
  const put = (key: string, fallback: Cell) => {
    const source = cash(key);
    if (isInput(source)) s.setInput(key, t, source, fallback);
    else set(key, source ?? fallback);
  };
  set('t', t);
  set('month_of_year', monthWithinYear(t));
  set('operating_expense', `=${at('sm')}+${at('rd')}+${at('ga')}`);
  set('gross_profit', `=${at('revenue')}-${at('cogs')}`);
  set('operating_income', `=${at('gross_profit')}-${at('operating_expense')}`);
  set(
    'cumulative_operating_income',
    t > 1 ? `=${prev('cumulative_operating_income')}+${at('operating_income')}` : `=${at('operating_income')}`,
  );
  set('cumulative_revenue', t > 1 ? `=${prev('cumulative_revenue')}+${at('revenue')}` : `=${at('revenue')}`);
  set('revenue_rate', t > 1 ? `=IFERROR(${at('revenue')}/${prev('revenue')}-1,"")` : null);
  set(
    'burn_multiple',
    burnMultiple({ arr: at('arr'), operatingIncome: at('operating_income'), first: t, arrAt: (m) => s.at('arr', m) }),
  );
  // A stored beginning balance replaces the chain in its month (MODEL.md sections 3 and 5).
  put('beginning_cash_balance', t > 1 ? `=${prev('ending_cash_balance')}` : 0);
  for (const key of ['equity_raised', 'debt_raised', 'debt_payment', 'other']) put(key, 0);
  set(
    'net_cash_movement',
    `=${at('operating_income')}+${at('equity_raised')}+${at('debt_raised')}-${at('debt_payment')}+${at('other')}`,
  );
  set('ending_cash_balance', `=${at('beginning_cash_balance')}+${at('net_cash_movement')}`);
  set(
    'cash_out_month',
    t > 1
      ? `=IF(${prev('cash_out_month')}>0,${prev('cash_out_month')},IF(${at('ending_cash_balance')}<-cash_tolerance,${at('t')},0))`
      : `=IF(${at('ending_cash_balance')}<-cash_tolerance,1,0)`,
  );
  fillRatios(s, t);
}

function fillRatios(s: PeriodSheet, t: number): void {
  const column = (key: string) => s.at(key, t);
  for (const row of s.rows) {
    if (row.rule === 'same' && row.same && row.key !== 'arpa' && !row.periodsOnly) {
      s.setMonth(row.key, t, `=${row.same(column)}`);
    }
  }
}

/** The Estimate sheet: the 72 planned months, then (unless `periods` is false) their quarters and years. */
export function compileEstimate(
  name: string,
  c: PlanCase,
  template: Template,
  assumptions: Assumptions,
  start: { year: number; month: number },
  inputs: CaseInputs,
  periods = true,
): PeriodSheet {
  const sheet = new PeriodSheet(name, rowsFor(template), 'Estimate', start.year, start.month);
  sheet.yearTarget = (year) => assumptions.ref('arr', year);
  sheet.inputs = inputs.cells;
  const ctx: MonthContext = { sheet, assumptions, template };
  for (let t = 1; t <= PLAN_MONTHS; t++) {
    const ti = sheet.at('t', t);
    sheet.setMonth('segment', t, `=IF(${ti}<=period,0,MIN(5,ROUNDUP((${ti}-period)/12,0)))`);
    const stored: Record<string, number | undefined> = c.cash[String(t)] ?? {};
    fillPlannedMonth(ctx, t, estimateMrr(ctx, t), (key) => ({
      path: inputPath(inputs.caseIndex, 'cash', t, key),
      value: stored[key],
    }));
  }
  if (periods) aggregateAllPeriods(sheet);
  return sheet;
}
