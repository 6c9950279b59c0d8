/**
 * The bounds of every value a plan file stores: the plan's length, the sizes of its numbers and the text a database
 * column can hold. `schema.ts` re-exports the constants and field schemas; the contract's request schemas reuse them.
 */
import { z } from 'zod';

export const PLAN_YEARS = 6;
export const PLAN_MONTHS = 72;

/**
 * Bounds of every stored number (engine/DECISIONS.md, "Bounds of the stored numbers"). They are wide enough for any
 * start-up's plan and narrow enough that every figure the workbook derives from them stays a finite number: every
 * stored number has a largest size and, unless it is zero, a smallest one. Counts are whole and amounts are zero or at
 * least a cent, so that differences of entered figures are zero or of a size the ratios can divide by. The contract's
 * request schemas reuse these constants and field schemas.
 */
/** The largest amount of money, in the plan's currency, either way (1,000,000,000,000). */
export const MONEY_MAX = 1e12;
/** The smallest amount other than zero: a cent. Amounts are zero or at least this in size. */
export const MONEY_MIN = 0.01;
/** The smallest target ARR (the plan's and a year's override). */
export const ARR_MIN = MONEY_MIN;
/** Monthly revenue per account: at least a cent, at most 1,000,000,000. */
export const ARPA_MIN = MONEY_MIN;
export const ARPA_MAX = 1e9;
/** Counts of a month or a day (sessions, leads, meetings, registrations, orders, churned customers): whole numbers. */
export const COUNT_MAX = 1e9;
/** Head count (an override of the plan's, or an actual): a whole number. */
export const HEADCOUNT_MAX = 1_000_000;
/** The smallest rate other than zero: 0.01%. Rates that may be zero are zero or at least this. */
export const RATE_MIN = 0.0001;
/** Funnel conversion rates and the recurring share of revenue: from 0.01% to 100%. */
export const FUNNEL_RATE_MIN = RATE_MIN;
export const FUNNEL_RATE_MAX = 1;
/** Cost budgets as a share of revenue (COGS, S&M, R&D, G&A): 0, or from 0.01% to 1000%. */
export const COST_RATE_MAX = 10;
/** The monthly churn rate: 0, or from 0.01% to 100%. */
export const CHURN_RATE_MAX = 1;
/** The upselling step of ARPA within a year: from -99% to +1000%. */
export const UPSELLING_RATE_MIN = -0.99;
export const UPSELLING_RATE_MAX = 10;
/** The case rate and the growth multiples m1..m5: from 0.01 to 100 times. */
export const MULTIPLE_MIN = 0.01;
export const MULTIPLE_MAX = 100;

/** An amount of money in the plan's currency: within ±MONEY_MAX, zero or at least MONEY_MIN in size. */
export const moneySchema = z
  .number()
  .min(-MONEY_MAX)
  .max(MONEY_MAX)
  .refine((n) => n === 0 || Math.abs(n) >= MONEY_MIN, {
    message: `must be 0 or at least ${MONEY_MIN} in size`,
  });
/** A price or other amount that cannot be negative. */
export const priceSchema = moneySchema.refine((n) => n >= 0, { message: 'must not be negative' });
/** A target ARR: from ARR_MIN to MONEY_MAX. */
export const arrSchema = z.number().min(ARR_MIN).max(MONEY_MAX);
/** A monthly ARPA: from ARPA_MIN to ARPA_MAX. */
export const arpaSchema = z.number().min(ARPA_MIN).max(ARPA_MAX);
/** A count of a month or a day: a whole number from 0 to COUNT_MAX. */
export const countSchema = z.number().int().min(0).max(COUNT_MAX);
/** A head count: a whole number from 0 to HEADCOUNT_MAX. */
export const headcountSchema = z.number().int().min(0).max(HEADCOUNT_MAX);
/** A funnel conversion rate or the recurring share of revenue, as a fraction. */
export const funnelRateSchema = z.number().min(FUNNEL_RATE_MIN).max(FUNNEL_RATE_MAX);
const zeroOrAtLeast = (min: number) => (n: number) => n === 0 || n >= min;
/** A cost budget as a share of revenue, as a fraction. */
export const costRateSchema = z
  .number()
  .min(0)
  .max(COST_RATE_MAX)
  .refine(zeroOrAtLeast(RATE_MIN), { message: `must be 0 or at least ${RATE_MIN}` });
/** A monthly churn rate, as a fraction. */
export const churnRateSchema = z
  .number()
  .min(0)
  .max(CHURN_RATE_MAX)
  .refine(zeroOrAtLeast(RATE_MIN), { message: `must be 0 or at least ${RATE_MIN}` });
/** An upselling step of ARPA, as a fraction. */
export const upsellingRateSchema = z.number().min(UPSELLING_RATE_MIN).max(UPSELLING_RATE_MAX);
/** A case rate or a growth multiple. */
export const multipleSchema = z.number().min(MULTIPLE_MIN).max(MULTIPLE_MAX);

/** Text a database column can hold: no NUL character and no lone UTF-16 surrogate. */
export const isStorableText = (value: string): boolean => !value.includes('\u0000') && !LONE_SURROGATE.test(value);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const textSchema = (min: number, max: number) =>
  z.string().min(min).max(max).refine(isStorableText, { message: 'holds a character that cannot be stored' });

export const yearNumber = z.number().int().min(1900).max(2200);
export const monthNumber = z.number().int().min(1).max(12);
