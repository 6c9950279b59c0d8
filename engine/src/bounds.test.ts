/**
 * The proof of the plan file's bounds (engine/DECISIONS.md, "Bounds"): every fixture plan, with every stored number pushed
 * to the ends of its bounds, computes every figure of every read model as a finite number (or a blank), and no cell
 * of its workbook overflows.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calendarOf } from './calendar';
import { VIEWS } from './read/cells';
import {
  ARPA_MAX,
  ARPA_MIN,
  ARR_MIN,
  CHURN_RATE_MAX,
  COST_ITEM_TITLES,
  COST_RATE_MAX,
  COUNT_MAX,
  FUNNEL_RATE_MAX,
  FUNNEL_RATE_MIN,
  HEADCOUNT_MAX,
  MONEY_MAX,
  MONEY_MIN,
  MULTIPLE_MAX,
  MULTIPLE_MIN,
  PLAN_MONTHS,
  PLAN_YEARS,
  type PlanFile,
  type PlanFileInput,
  parsePlanFile,
  RATE_MIN,
  UPSELLING_RATE_MAX,
  UPSELLING_RATE_MIN,
} from './schema';
import { FIXTURES, loadFixture, seededRandom } from './testing';
import { PlanWorkbook } from './workbook';

/** The ends of each kind of stored number: its bounds, zero where it is allowed, and the smallest size but zero. */
const ENDS = {
  money: [MONEY_MAX, -MONEY_MAX, MONEY_MIN, -MONEY_MIN, 0],
  price: [MONEY_MAX, MONEY_MIN, 0],
  arr: [MONEY_MAX, ARR_MIN],
  arpa: [ARPA_MAX, ARPA_MIN],
  count: [COUNT_MAX, 1, 0],
  headcount: [HEADCOUNT_MAX, 1, 0],
  funnel: [FUNNEL_RATE_MAX, FUNNEL_RATE_MIN],
  churn: [CHURN_RATE_MAX, RATE_MIN, 0],
  cost: [COST_RATE_MAX, RATE_MIN, 0],
  upselling: [UPSELLING_RATE_MAX, UPSELLING_RATE_MIN, 0],
  multiple: [MULTIPLE_MAX, MULTIPLE_MIN],
  month: [12, 1],
} as const satisfies Record<string, readonly number[]>;
type Kind = keyof typeof ENDS;

/** How a variant picks each stored number from the ends of its kind. */
type Pick = (kind: Kind, slot: number) => number;

const first = (kind: Kind) => ENDS[kind][0];
const last = (kind: Kind) => ENDS[kind][ENDS[kind].length - 1] as number;

/** The ends that make the most customers, and of them the most sessions: the rest at their largest. */
const MOST_CUSTOMERS: Partial<Record<Kind, number>> = {
  arpa: ARPA_MIN,
  funnel: FUNNEL_RATE_MIN,
  upselling: UPSELLING_RATE_MIN,
};

/**
 * The variants: every number at its largest end, at its smallest, alternating between them, at random ends, and two
 * built to be hard: the most customers and funnel (huge ARR, the smallest ARPA and rates, everything churning), and
 * the steepest ratios (a year's ARR at its least before one at its most, downward revisions from tiny estimates).
 */
const VARIANTS: Record<string, { pick: Pick; overrides: 'none' | 'all' | 'alternate' | 'random' }> = {
  largest: { pick: (kind) => first(kind), overrides: 'none' },
  smallest: { pick: (kind) => last(kind), overrides: 'none' },
  alternating: { pick: (kind, slot) => (slot % 2 === 0 ? first(kind) : last(kind)), overrides: 'alternate' },
  ...Object.fromEntries(
    [1, 2, 3].map((seed) => {
      const next = seededRandom(seed);
      const pick: Pick = (kind) => ENDS[kind][Math.floor(next() * ENDS[kind].length)] as number;
      return [`random ${seed}`, { pick, overrides: 'random' as const }];
    }),
  ),
  'most customers': { pick: (kind) => MOST_CUSTOMERS[kind] ?? first(kind), overrides: 'none' },
  'steepest ratios': { pick: (kind, slot) => (slot % 3 === 0 ? last(kind) : first(kind)), overrides: 'all' },
};

/** The plan with every stored number of every case chosen by `pick`, over a full set of inputs. */
function extreme(plan: PlanFile, variant: (typeof VARIANTS)[string]): PlanFileInput {
  const { pick, overrides } = variant;
  let slot = 0;
  const v = (kind: Kind) => pick(kind, slot++);
  const start = { year: plan.start_year, month: plan.start_month };
  const dateOf = (t: number, day: number) => {
    const c = calendarOf(start.year, start.month, t);
    return `${c.year}-${String(c.month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  };
  const end = calendarOf(start.year, start.month, PLAN_MONTHS);
  const cases = plan.cases.map((c) => {
    const years: Record<string, Record<string, number>> = {};
    for (let y = 1; y <= PLAN_YEARS; y++) {
      const override =
        overrides === 'all' ||
        (overrides === 'alternate' && y % 2 === 0) ||
        (overrides === 'random' && v('month') === 12);
      years[y] = {
        // The steepest variant puts each year's ARR at its least, then the last one at its most.
        ...(override ? { arr: overrides === 'all' ? (y === PLAN_YEARS ? MONEY_MAX : ARR_MIN) : v('arr') } : {}),
        arpa: v('arpa'),
        upselling_rate: v('upselling'),
        upselling_month: v('month'),
        churn_rate: v('churn'),
        lead_rate: v('funnel'),
        meeting_rate: v('funnel'),
        order_rate: v('funnel'),
        registration_rate: v('funnel'),
        billing_rate: v('funnel'),
        recurring_revenue_rate: v('funnel'),
        cogs_rate: v('cost'),
        sm_rate: v('cost'),
        rd_rate: v('cost'),
        ga_rate: v('cost'),
        ...(y % 3 === 0 ? { employees: v('headcount') } : {}),
      };
    }
    const cash: Record<string, Record<string, number>> = {};
    const actuals: Record<string, Record<string, number | string>> = {};
    const revisions: Record<string, { pattern: 'upward' | 'downward'; month: number }> = {};
    for (let t = 1; t <= PLAN_MONTHS; t++) {
      cash[t] = {
        ...(t === 1 || t % 13 === 0 ? { beginning_cash_balance: v('money') } : {}),
        equity_raised: v('money'),
        debt_raised: v('money'),
        debt_payment: v('money'),
        other: v('money'),
      };
      const k = t - 12 * (Math.ceil(t / 12) - 1);
      // Months 1 to 6 of each year are ACT (month 2 without counts, so its daily entries count), month 7 holds
      // values but is EST; the rest is forecast or revised.
      if (k > 7) continue;
      const counts: Record<string, number> =
        k === 2
          ? {}
          : {
              session: v('count'),
              lead: v('count'),
              meeting: v('count'),
              registration: v('count'),
              order: v('count'),
              churn: v('count'),
            };
      actuals[t] = {
        status: k === 7 ? 'EST' : 'ACT',
        ...counts,
        arpa: v('arpa'),
        professional_service: v('money'),
        cogs: v('money'),
        sm: v('money'),
        rd: v('money'),
        ga: v('money'),
        employees: v('headcount'),
        ...(k === 4 ? { beginning_cash_balance: v('money'), equity_raised: v('money'), other: v('money') } : {}),
      };
    }
    for (let y = 1; y <= PLAN_YEARS; y++) {
      revisions[y] = {
        pattern: v('month') === 1 || variant.overrides === 'all' ? 'downward' : 'upward',
        month: 12 * (y - 1) + 6,
      };
    }
    const daily: Record<string, Record<string, number>> = {};
    for (let t = 1; t <= PLAN_MONTHS; t++) {
      for (let day = 1; day <= (t <= 2 ? 28 : 1); day++) {
        daily[dateOf(t, day)] = {
          meeting: v('count'),
          order: v('count'),
          registration: v('count'),
          billing: v('count'),
        };
      }
    }
    const cost_items = COST_ITEM_TITLES.map((item_title, i) => ({
      cost_id: i + 1,
      item_title,
      item_name: `${item_title} item`,
      price: v('price'),
      start_year: start.year,
      start_month: start.month,
      end_year: end.year,
      end_month: end.month,
    }));
    return {
      case_name: c.case_name,
      case_rate: v('multiple'),
      model: { model_name: 'custom' as const, model_rate: [1, 2, 3, 4, 5].map(() => v('multiple')) },
      years,
      cash,
      actuals,
      daily,
      revisions,
      cost_items,
    };
  });
  return { ...plan, arr: v('arr'), arpa: v('arpa'), period: v('month') === 12 ? 12 : 1, cases };
}

/**
 * How far below the largest double (about 1.8e308) every figure stays: the bounds leave room, rather than just fit. A
 * guarded ratio that overflowed would be blank; this makes sure none comes near.
 */
const HEADROOM = 1e100;

/** The size of the largest number in a read model. */
function largest(value: unknown): number {
  if (typeof value === 'number') return Math.abs(value);
  if (typeof value !== 'object' || value === null) return 0;
  return Math.max(0, ...Object.values(value).map(largest));
}

/** Paths of every number that is not finite, and of every `broken` flag, in a read model. */
function unfinished(value: unknown, path = ''): string[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [path];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === 'broken' ? [`${path}.broken`] : unfinished(v, path ? `${path}.${key}` : key),
  );
}

const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));
const cases = fixtures.flatMap((fixture) => Object.keys(VARIANTS).map((variant) => [fixture, variant] as const));

describe('the bounds of the plan file', () => {
  it('hold the fixture plans as they are', () => {
    for (const fixture of fixtures) expect(() => parsePlanFile(loadFixture(fixture))).not.toThrow();
  });

  it.each(cases)('keep every figure of %s finite with its inputs at their ends (%s)', (fixture, name) => {
    const variant = VARIANTS[name];
    if (!variant) throw new Error(`no variant ${name}`);
    const input = extreme(parsePlanFile(loadFixture(fixture)), variant);
    // Every input is within the bounds: the plan parses as it is.
    expect(() => parsePlanFile(input)).not.toThrow();
    const wb = PlanWorkbook.build(input, { asOf: { year: 2027, month: 3 } });
    try {
      expect(wb.refused).toEqual([]);
      expect(wb.brokenCells()).toEqual([]);
      for (let c = 0; c < wb.plan.cases.length; c++) {
        const models: Record<string, unknown> = {
          annualPl: wb.annualPl(c),
          kpi: wb.kpi(c),
          revenue: wb.revenue(c),
          costs: wb.costs(c),
          dashboard: wb.dashboard(c),
          monthlyPl: wb.monthlyPl(c),
        };
        for (let year = 1; year <= PLAN_YEARS; year++) {
          for (const view of VIEWS) models[`monthlyGrid ${year} ${view}`] = wb.monthlyGrid(c, year, view);
        }
        expect(unfinished(models)).toEqual([]);
        expect(largest(models)).toBeLessThan(HEADROOM);
      }
    } finally {
      wb.destroy();
    }
  });
});
