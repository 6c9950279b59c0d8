/**
 * The Actual sheet of a case (the actual view, MODEL.md sections 5 and 6): ACT months from the entered values, revised
 * months from the revised MRR, other months from the estimate.
 */
import { yearOf } from '../calendar';
import { rowsFor } from '../rows';
import { type ActualInputs, CASH_KEYS, PLAN_MONTHS, type PlanCase, type Template } from '../schema';
import type { Assumptions } from './assumptions';
import { type CaseInputs, fillDerivedMonth, fillPlannedMonth, type MonthContext } from './estimate';
import { type Cell, type Input, inputPath, PeriodSheet, refOrBlank } from './grid';
import { aggregateAllPeriods } from './periodRules';

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

/**
 * The Actual sheet: each month entered, revised or forecast, then (unless `periods` is false) their quarters and
 * years.
 */
export function compileActual(
  name: string,
  c: PlanCase,
  template: Template,
  assumptions: Assumptions,
  estimate: PeriodSheet,
  start: { year: number; month: number },
  daily: DailySums,
  inputs: CaseInputs,
  periods = true,
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
      fillActualMonth(ctx, t, entered, estimate, daily, inputs.caseIndex);
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
  if (periods) aggregateAllPeriods(sheet);
  return sheet;
}

/**
 * An EST month outside any revision shows the estimate. Only the chains run on from the actual figures before it, so
 * that cash, cumulative figures and the cash-out month follow from what really happened (engine/DECISIONS.md).
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
  estimate: PeriodSheet,
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
  // A value the user did not enter is the month's forecast (the estimate: an ACT month is never revised), never 0;
  // a count with daily entries from the home screen takes their sum instead (engine/DECISIONS.md).
  const forecast = (key: string): Cell => refOrBlank(estimate, key, t) ?? 0;
  for (const key of ['session', 'lead', 'meeting', 'registration', 'order', 'churn'] as const) {
    if (!s.has(key)) continue;
    const dailySum = key === 'session' || key === 'lead' || key === 'churn' ? undefined : daily(key, t);
    s.setInput(key, t, input(key), dailySum ? `=${dailySum}` : forecast(key));
  }
  for (const key of ['professional_service', 'cogs', 'sm', 'rd', 'ga', 'arpa', 'employees'] as const) {
    s.setInput(key, t, input(key), forecast(key));
  }
  set('cumulative_prev', t > 1 ? `=${s.at('cumulative', t - 1)}` : 0);
  set('cumulative', `=${at('cumulative_prev')}+${at('order')}-${at('churn')}`);
  set('mrr', `=${at('cumulative')}*${at('arpa')}`);
  set('arr', `=${at('mrr')}*12`);
  set('revenue', `=${at('mrr')}+${at('professional_service')}`);
  const cashKeys = new Set<string>(CASH_KEYS);
  fillDerivedMonth(ctx, t, (key) => {
    if (!cashKeys.has(key)) return null;
    const source = input(key as keyof ActualInputs);
    // An unentered beginning balance continues the chain (month 1: the plan's opening balance).
    if (key === 'beginning_cash_balance')
      return t === 1 ? { ...source, fallback: `=${estimate.at(key, t, true)}` } : source;
    return { ...source, fallback: forecast(key) };
  });
}
