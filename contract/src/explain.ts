/**
 * Explain: where a number of the plan comes from (`GET /explain`). The request names one figure (a key of the
 * monthly record or the annual P&L in a period of a plan year and a view, a per-year assumption as
 * `assumption.<key>`, or a dashboard figure as `dashboard.<column>.<row>` or `dashboard.<scalar>`); the answer is its
 * formula in words and every input the formula reads. The key's area decides who may ask.
 */
import {
  ASSUMPTION_PREFIX,
  DASHBOARD_PREFIX,
  EXPLAIN_KEYS,
  EXPLAIN_PERIODS,
  EXPLAIN_VIEWS,
  PL_FIELD_ROWS,
} from '@topline/engine/shapes';
import { z } from 'zod';
import { caseIdText, planQuery, yearText } from './plans';
import { type Area, costAreaOf, type Scope, YEAR_KEY_AREAS } from './policy';
import type { Route } from './route';
import { snapshotIdText } from './snapshots';

export const EXPLAIN_SOURCES = ['formula', 'assumption', 'default', 'actual', 'cash input'] as const;
export type ExplainSourceName = (typeof EXPLAIN_SOURCES)[number];

export const explainQuery = planQuery.extend({
  case_id: caseIdText.optional(),
  year: yearText,
  period: z.enum(EXPLAIN_PERIODS, { error: 'period is a month 1..12, q1..q4 or cy' }),
  key: z.enum(EXPLAIN_KEYS as [string, ...string[]], { error: 'not a figure that can be explained' }),
  /**
   * The view of a row: `estimate` (the default), `actual`, the comparison of the ACT months (`progress`,
   * `difference_value`, `difference_rate`) or a side it compares (`actual_to_date`, `estimate_to_date`).
   */
  view: z.enum(EXPLAIN_VIEWS).optional(),
  /** The interface language of the labels and the formula; English unless `ja`. */
  lang: z.enum(['en', 'ja']).optional(),
  /**
   * With a comparison view (`progress`, `difference_value`, `difference_rate`): the snapshot of the plan whose
   * estimate is the budget compared with, as the monthly P&L reads it against one (`/pl/monthly/retrieve`). It needs
   * the monthly P&L area's read (Basic or Team); another plan's is a 404.
   */
  snapshot_id: snapshotIdText.optional(),
});
export type ExplainQuery = z.output<typeof explainQuery>;

const explainValue = z.union([z.number(), z.string(), z.null()]);

export const explainInputSchema = z.strictObject({
  label: z.string(),
  /** A row of the monthly record (`mrr`), `assumption.<key>`, `plan.<name>`, `daily.<metric>` or `dashboard.<figure>`. */
  key: z.string(),
  year: z.int().nullable(),
  period: z.string().nullable(),
  value: explainValue,
  source: z.enum(EXPLAIN_SOURCES),
  /** Whether the input has an explanation of its own that the caller may ask for. */
  explainable: z.boolean(),
  /**
   * Present when the input is read in another view than the figure explained (the estimate in the actual view, the
   * sides of a comparison, the months of a dashboard figure): the view to ask its explanation in.
   */
  view: z.enum(EXPLAIN_VIEWS).optional(),
});
export type ExplainInputAnswer = z.infer<typeof explainInputSchema>;

export const explainAnswer = z.strictObject({
  label: z.string(),
  value: explainValue,
  /**
   * The figure as the screens show it, when that is not `value`: counts (sessions, leads, meetings, registrations,
   * orders, churn) are shown as whole numbers whose quarters and year add up, so 2.38 orders may show as 3; money
   * within half a cent of zero as 0.
   */
  shown: z.number().optional(),
  /**
   * Present when the screens show the figure as a dash: a rate, progress or difference rate whose base is zero up to
   * floating-point residue (engine/DECISIONS.md, "Residue"), whatever `value` the workbook computes.
   */
  dash: z.literal('zero_base').optional(),
  formula: z.string(),
  inputs: z.array(explainInputSchema),
});
export type ExplainAnswer = z.infer<typeof explainAnswer>;

/** Rows of the KPI screen: customers, the funnel and the unit economics. */
const KPI_ROWS = new Set([
  't',
  'month_of_year',
  'segment',
  'mrr',
  'arr',
  'arr_progress',
  'arpa',
  'cumulative',
  'cumulative_prev',
  'session',
  'lead',
  'meeting',
  'registration',
  'order',
  'churn',
  'lead_cvr',
  'meeting_cvr',
  'registration_cvr',
  'order_cvr',
  'churn_cvr',
  'ltv',
  'cac',
  'ltv_cac',
  'burn_multiple',
]);
/** Cash-flow rows, entered on the monthly P&L. */
const CASH_ROWS = new Set([
  'beginning_cash_balance',
  'equity_raised',
  'debt_raised',
  'debt_payment',
  'other',
  'net_cash_movement',
  'ending_cash_balance',
  'cash_out_month',
]);
const COST_ROWS = new Set(['cogs', 'sm', 'rd', 'ga', 'cogs_rate', 'sm_rate', 'rd_rate', 'ga_rate']);
const SALES_ROWS = new Set(['professional_service', 'professional_service_rate']);

/**
 * The area a key belongs to, and so who may ask for its explanation: an assumption's is the area that edits it
 * (`YEAR_KEY_AREAS`; case rate and growth model: the P&L); a cost and its share of revenue, its cost group; the
 * funnel and unit economics, KPI; professional services, the sales detail; cash, the monthly P&L; a dashboard figure,
 * the dashboard; the rest, the P&L.
 */
export function explainArea(key: string): Area {
  if (key.startsWith(DASHBOARD_PREFIX)) return 'dashboard';
  if (key.startsWith(ASSUMPTION_PREFIX)) {
    const k = key.slice(ASSUMPTION_PREFIX.length);
    return k in YEAR_KEY_AREAS ? YEAR_KEY_AREAS[k as keyof typeof YEAR_KEY_AREAS] : 'pl';
  }
  const row = PL_FIELD_ROWS[key] ?? key;
  if (COST_ROWS.has(row)) return costAreaOf(row);
  if (KPI_ROWS.has(row)) return 'kpi';
  if (SALES_ROWS.has(row)) return 'sales_detail';
  if (CASH_ROWS.has(row)) return 'monthly_pl';
  return 'pl';
}

const explainNeeds = { kind: 'scope', scope: (input: ExplainQuery): Scope => explainArea(input.key) } as const;

/** The explain call, spread into the route table (typed as the table's `route` types its entries). */
export const explainRoutes = {
  explain: {
    method: 'GET',
    path: '/explain',
    request: explainQuery,
    answer: explainAnswer,
    needs: explainNeeds,
    body: undefined,
    file: undefined,
  } as Route<typeof explainQuery, typeof explainAnswer> & {
    method: 'GET';
    path: '/explain';
    needs: typeof explainNeeds;
    body: undefined;
    file: undefined;
  },
};
