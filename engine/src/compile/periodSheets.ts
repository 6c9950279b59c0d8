/**
 * The Estimate sheet (the plan, MODEL.md section 3) and the Actual sheet (the actual view, sections 5 and 6): ACT
 * months from the entered values, revised months from the revised MRR, other months from the estimate.
 */
import { ALL_PERIODS, monthWithinYear, yearOf } from '../layout';
import { rowsFor } from '../rows';
import { type ActualInputs, CASH_KEYS, PLAN_MONTHS, type PlanCase, type Template } from '../schema';
import type { Assumptions } from './assumptions';
import {
  aggregatePeriod,
  burnMultiple,
  type Cell,
  type Input,
  type InputCells,
  inputPath,
  isInput,
  PeriodSheet,
  refOrBlank,
} from './grid';

export interface MonthContext {
  sheet: PeriodSheet;
  assumptions: Assumptions;
  template: Template;
}

/** A month's cash item: a formula, or an input of the plan file (a literal when present). */
type CashSource = (key: string) => Cell | Input;

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
function fillPlannedMonth(ctx: MonthContext, t: number, mrr: string, cash: CashSource): void {
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
function fillDerivedMonth(ctx: MonthContext, t: number, cash: CashSource): void {
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
  set('burn_multiple', burnMultiple(at('arr'), t > 1 ? prev('arr') : '0', at('operating_income')));
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

/** Quarter and CY columns of a full period sheet. */
function aggregateAll(sheet: PeriodSheet): void {
  for (const p of ALL_PERIODS) {
    if (p.kind === 'month') continue;
    aggregatePeriod(sheet, p, {
      months: p.months,
      monthRef: (key, t) => sheet.at(key, t),
      baseMonthRef: (key, t) => sheet.at(key, t),
    });
  }
}

export function compileEstimate(
  name: string,
  c: PlanCase,
  template: Template,
  assumptions: Assumptions,
  start: { year: number; month: number },
  inputs: CaseInputs,
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
  aggregateAll(sheet);
  return sheet;
}

/** Months whose status is ACT: a month with saved actuals, unless reversed (MODEL.md section 5). */
export function actMonths(c: PlanCase): number[] {
  return Object.entries(c.actuals)
    .filter(([, a]) => (a.status ?? 'ACT') === 'ACT')
    .map(([t]) => Number(t))
    .sort((x, y) => x - y);
}

/** Revised ranges: year y's revision applies to months L < t <= 12y while its month L is ACT (MODEL.md section 6). */
export function revisedMonths(c: PlanCase, act: Set<number>): Map<number, { pattern: string; from: number }> {
  const revised = new Map<number, { pattern: string; from: number }>();
  for (const [y, rev] of Object.entries(c.revisions)) {
    if (!act.has(rev.month)) continue;
    for (let t = rev.month + 1; t <= 12 * Number(y); t++) {
      if (!act.has(t)) revised.set(t, { pattern: rev.pattern, from: rev.month });
    }
  }
  return revised;
}

/** Formula summing the daily entries of a metric in month t, or undefined when there are none. */
export type DailySums = (metric: 'meeting' | 'order' | 'registration', t: number) => string | undefined;

export function compileActual(
  name: string,
  c: PlanCase,
  template: Template,
  assumptions: Assumptions,
  estimate: PeriodSheet,
  start: { year: number; month: number },
  daily: DailySums,
  inputs: CaseInputs,
): PeriodSheet {
  const sheet = new PeriodSheet(name, rowsFor(template), 'Actual (ACT) and forecast (EST)', start.year, start.month);
  sheet.yearTarget = (year) => assumptions.ref('arr', year);
  sheet.inputs = inputs.cells;
  const ctx: MonthContext = { sheet, assumptions, template };
  const act = new Set(actMonths(c));
  const revised = revisedMonths(c, act);
  const est = (key: string, t: number) => estimate.at(key, t, true);
  for (let t = 1; t <= PLAN_MONTHS; t++) {
    const entered = c.actuals[String(t)];
    const revision = revised.get(t);
    if (act.has(t) && entered) {
      fillActualMonth(ctx, t, entered, est, daily, inputs.caseIndex);
    } else if (revision) {
      sheet.setMonth('segment', t, null);
      const y = yearOf(t);
      const L = revision.from;
      const actL = sheet.at('mrr', L);
      const mrr =
        revision.pattern === 'downward'
          ? `=${est('mrr', t)}*(${actL}/${est('mrr', L)})`
          : `=${actL}+(${est('mrr', 12 * y)}-${actL})*(${t}-${L})/(${12 * y}-${L})`;
      const stored: Record<string, number | undefined> = c.cash[String(t)] ?? {};
      fillPlannedMonth(ctx, t, mrr, (key) =>
        key === 'beginning_cash_balance'
          ? { path: inputPath(inputs.caseIndex, 'cash', t, key), value: stored[key] }
          : `=${est(key, t)}`,
      );
    } else {
      fillForecastMonth(sheet, t, estimate, c.cash[String(t)]?.beginning_cash_balance !== undefined);
    }
  }
  aggregateAll(sheet);
  return sheet;
}

/**
 * An EST month outside any revision shows the estimate. Only the chains run on from the actual figures before it, so
 * that cash, cumulative figures and the cash-out month follow from what really happened (engine/README.md).
 */
function fillForecastMonth(s: PeriodSheet, t: number, estimate: PeriodSheet, plannedBeginning: boolean): void {
  const est = (key: string, t: number) => estimate.at(key, t, true);
  const chained = new Set([
    'beginning_cash_balance',
    'ending_cash_balance',
    'cumulative_operating_income',
    'cumulative_revenue',
    'cash_out_month',
  ]);
  for (const row of s.rows) if (!chained.has(row.key)) s.setMonth(row.key, t, refOrBlank(estimate, row.key, t));
  const at = (key: string) => s.at(key, t);
  const prev = (key: string) => s.at(key, t - 1);
  if (t === 1) {
    s.setMonth('beginning_cash_balance', t, `=${est('beginning_cash_balance', t)}`);
    s.setMonth('cumulative_operating_income', t, `=${at('operating_income')}`);
    s.setMonth('cumulative_revenue', t, `=${at('revenue')}`);
    s.setMonth('cash_out_month', t, `=IF(${at('ending_cash_balance')}<-cash_tolerance,1,0)`);
  } else {
    // A beginning balance the plan stores for this month replaces the chain here too.
    s.setMonth(
      'beginning_cash_balance',
      t,
      plannedBeginning ? `=${est('beginning_cash_balance', t)}` : `=${prev('ending_cash_balance')}`,
    );
    s.setMonth('cumulative_operating_income', t, `=${prev('cumulative_operating_income')}+${at('operating_income')}`);
    s.setMonth('cumulative_revenue', t, `=${prev('cumulative_revenue')}+${at('revenue')}`);
    s.setMonth(
      'cash_out_month',
      t,
      `=IF(${prev('cash_out_month')}>0,${prev('cash_out_month')},IF(${at('ending_cash_balance')}<-cash_tolerance,${at('t')},0))`,
    );
  }
  s.setMonth('ending_cash_balance', t, `=${at('beginning_cash_balance')}+${at('net_cash_movement')}`);
}

/** An ACT month: entered figures, and what MODEL.md section 5 derives from them. */
function fillActualMonth(
  ctx: MonthContext,
  t: number,
  entered: ActualInputs,
  est: (key: string, t: number) => string,
  daily: DailySums,
  caseIndex: number,
): void {
  const s = ctx.sheet;
  const at = (key: string) => s.at(key, t);
  const set = (key: string, value: Cell) => s.setMonth(key, t, value);
  const input = (key: keyof ActualInputs): Input => ({
    path: inputPath(caseIndex, 'actuals', t, key),
    value: entered[key] as number | undefined,
  });
  set('segment', null);
  for (const key of ['session', 'lead', 'meeting', 'registration', 'order', 'churn'] as const) {
    if (!s.has(key)) continue;
    const dailySum = key === 'session' || key === 'lead' || key === 'churn' ? undefined : daily(key, t);
    s.setInput(key, t, input(key), dailySum ? `=${dailySum}` : 0);
  }
  for (const key of ['professional_service', 'cogs', 'sm', 'rd', 'ga'] as const) s.setInput(key, t, input(key), 0);
  // Without an entered ARPA or head count the month keeps the plan's.
  s.setInput('arpa', t, input('arpa'), `=${est('arpa', t)}`);
  s.setInput('employees', t, input('employees'), `=${est('employees', t)}`);
  set('cumulative_prev', t > 1 ? `=${s.at('cumulative', t - 1)}` : 0);
  set('cumulative', `=${at('cumulative_prev')}+${at('order')}-${at('churn')}`);
  set('mrr', `=${at('cumulative')}*${at('arpa')}`);
  set('arr', `=${at('mrr')}*12`);
  set('revenue', `=${at('mrr')}+${at('professional_service')}`);
  const cashKeys = new Set<string>(CASH_KEYS);
  fillDerivedMonth(ctx, t, (key) => {
    if (!cashKeys.has(key)) return null;
    const source = input(key as keyof ActualInputs);
    return key === 'beginning_cash_balance' && t === 1 ? { ...source, fallback: `=${est(key, t)}` } : source;
  });
}
