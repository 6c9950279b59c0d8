/**
 * The one reader of numbers typed into the working screens' cells: what a user types is read as the number it writes,
 * or refused with the reason and what the field takes. Nothing is stripped or guessed: `12abc`, `1e20`, `ten` and an
 * ambiguous comma (`1,5`) are refused, never read as 12, 120, 0 or 15.
 *
 * Read as written: thousands separators in their places (`12,000`), full-width digits, comma, point and minus as a
 * Japanese keyboard types them (`１２，０００`, `－５`), the minus sign U+2212 and the triangle of negatives (`▲5`), spaces
 * around the number, and a `%` after a percentage. Bounds are those of the wire (the contract's NumberBounds), on the
 * stored value; a percentage is typed in percent and stored as a fraction.
 */
import type { NumberBounds } from '@topline/contract';
import {
  ARPA_MAX,
  ARPA_MIN,
  CHURN_RATE_MAX,
  COST_RATE_MAX,
  COUNT_MAX,
  FUNNEL_RATE_MAX,
  FUNNEL_RATE_MIN,
  HEADCOUNT_MAX,
  MONEY_MAX,
  MONEY_MIN,
  MULTIPLE_MAX,
  MULTIPLE_MIN,
  RATE_MIN,
  UPSELLING_RATE_MAX,
  UPSELLING_RATE_MIN,
} from '@topline/engine/schema';

/** What a cell takes: the stored value's bounds, whether it is typed as a percentage, and its decimals as typed. */
export interface TypedRule {
  bounds: NumberBounds;
  /** Typed in percent ("2.5" or "2.5%"), stored as a fraction (0.025). */
  percent?: boolean;
  /** Most decimals typed (0 for whole numbers). */
  digits: number;
  /** An empty cell clears the value (returns it to its default or forecast). */
  clearable?: boolean;
}

export type Refusal =
  | { problem: 'format' }
  | { problem: 'required' }
  | { problem: 'negative' }
  | { problem: 'whole' }
  | { problem: 'digits' }
  | { problem: 'range' };

export type TypedResult = { ok: true; value: number | null } | ({ ok: false; text: string } & Refusal);

/** Plain decimal notation after normalising: a minus, digits (grouped by threes with commas, or not), a fraction. */
const NUMBER = /^(-)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;

/** Full-width and look-alike characters as the ASCII they stand for; spaces removed at the ends. */
function normalise(raw: string): string {
  return raw
    .normalize('NFKC')
    .replace(/[\u2212\u2012\u2013\u2014\u2015\ufe63▲△]/g, '-')
    .replace(/[\u3001]/g, ',')
    .replace(/[\u3002]/g, '.')
    .trim();
}

/** Rounds away the float residue of a division by 100, keeping every digit typed. */
const clean = (n: number, decimals: number): number => Number(n.toFixed(Math.min(decimals, 20)));

/** Reads what a user typed into a cell under a rule. */
export function readTyped(raw: string, rule: TypedRule): TypedResult {
  const text = raw;
  let body = normalise(raw);
  if (body === '') return rule.clearable ? { ok: true, value: null } : { ok: false, text, problem: 'required' };
  if (rule.percent && body.endsWith('%')) body = body.slice(0, -1).trimEnd();
  const match = NUMBER.exec(body);
  if (!match) return { ok: false, text, problem: 'format' };
  const [, minus, whole = '', fraction = ''] = match;
  const typed = Number(`${minus ?? ''}${whole.replaceAll(',', '')}${fraction ? `.${fraction}` : ''}`);
  if (!Number.isFinite(typed)) return { ok: false, text, problem: 'range' };
  const b = rule.bounds;
  const lowest = b.above ?? b.min;
  if (typed < 0 && lowest !== undefined && lowest >= 0) return { ok: false, text, problem: 'negative' };
  if (fraction.length > 0 && rule.digits === 0 && Number(fraction) !== 0) return { ok: false, text, problem: 'whole' };
  if (fraction.replace(/0+$/, '').length > rule.digits) return { ok: false, text, problem: 'digits' };
  const value = rule.percent ? clean(typed / 100, fraction.length + 2) : typed === 0 ? 0 : typed;
  if (!withinBounds(value, b)) return { ok: false, text, problem: 'range' };
  return { ok: true, value };
}

export function withinBounds(n: number, b: NumberBounds): boolean {
  return (
    Number.isFinite(n) &&
    (!b.int || Number.isInteger(n)) &&
    (b.min === undefined || n >= b.min) &&
    (b.max === undefined || n <= b.max) &&
    (b.above === undefined || n > b.above) &&
    (b.smallest === undefined || n === 0 || Math.abs(n) >= b.smallest)
  );
}

/** The number as the rule shows its bounds: percent for a percentage, with separators. */
export function boundText(n: number, rule: TypedRule): string {
  const shown = rule.percent ? clean(n * 100, 12) : n;
  const text = new Intl.NumberFormat('en-US', { maximumFractionDigits: 12 }).format(shown);
  return rule.percent ? `${text}%` : text;
}

/** What a cell takes, as message parameters: the kind, the low and high bounds and the smallest size. */
export interface RuleWords {
  kind: 'whole' | 'decimal' | 'percent';
  digits: number;
  min?: string;
  above?: string;
  max?: string;
  smallest?: string;
}

export function ruleWords(rule: TypedRule): RuleWords {
  const b = rule.bounds;
  return {
    kind: rule.percent ? 'percent' : b.int || rule.digits === 0 ? 'whole' : 'decimal',
    digits: rule.digits,
    ...(b.min !== undefined ? { min: boundText(b.min, rule) } : {}),
    ...(b.above !== undefined ? { above: boundText(b.above, rule) } : {}),
    ...(b.max !== undefined ? { max: boundText(b.max, rule) } : {}),
    ...(b.smallest !== undefined ? { smallest: boundText(b.smallest, rule) } : {}),
  };
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The refusal in words: why, then what the cell takes ("Not a number: “12abc”. Allowed: a whole number, from 0 to …"). */
export function refusalMessage(result: Extract<TypedResult, { ok: false }>, rule: TypedRule, t: Translate): string {
  const words = ruleWords(rule);
  const plural = words.digits === 1 ? '_one' : '_other';
  const kind = t(words.kind === 'whole' ? 'ws.typed.kind.whole' : `ws.typed.kind.${words.kind}${plural}`, {
    digits: words.digits,
  });
  const low = words.above ?? words.min;
  let range = '';
  if (low !== undefined && words.max !== undefined)
    range = t(words.above !== undefined ? 'ws.typed.aboveAtMost' : 'ws.typed.fromTo', { low, high: words.max });
  else if (words.above !== undefined) range = t('ws.typed.above', { value: words.above });
  else if (words.min !== undefined) range = t('ws.typed.atLeast', { value: words.min });
  else if (words.max !== undefined) range = t('ws.typed.atMost', { value: words.max });
  const smallest = words.smallest ? t('ws.typed.smallest', { value: words.smallest }) : '';
  const allowed = t('ws.typed.allowed', { kind, range, smallest });
  return `${t(`ws.typed.problem.${result.problem}`, { text: result.text.trim() })} ${allowed}`;
}

// ----- The rules of the editable cells -----

const MONEY: NumberBounds = { min: -MONEY_MAX, max: MONEY_MAX, smallest: MONEY_MIN };
const COUNT: NumberBounds = { int: true, min: 0, max: COUNT_MAX };

const money: TypedRule = { bounds: MONEY, digits: 2, clearable: true };
const count: TypedRule = { bounds: COUNT, digits: 0, clearable: true };
const headcount: TypedRule = { bounds: { int: true, min: 0, max: HEADCOUNT_MAX }, digits: 0, clearable: true };
const arpa: TypedRule = { bounds: { min: ARPA_MIN, max: ARPA_MAX }, digits: 2, clearable: true };
const percent = (bounds: NumberBounds, digits = 1): TypedRule => ({ bounds, digits, percent: true, clearable: true });
const funnel = percent({ min: FUNNEL_RATE_MIN, max: FUNNEL_RATE_MAX });
const costRate = percent({ min: 0, max: COST_RATE_MAX, smallest: RATE_MIN });

/**
 * The rule of each editable key: the per-year assumptions (MODEL.md section 2, the engine's schema), the cash items
 * and the actuals of a month (the contract's actuals request). Rates are typed with one decimal, churn with two
 * (working-screens.md section 9).
 */
export const TYPED_RULES: Record<string, TypedRule> = {
  // Per-year assumptions.
  arr: { bounds: { min: MONEY_MIN, max: MONEY_MAX }, digits: 2, clearable: true },
  arpa,
  upselling_rate: percent({ min: UPSELLING_RATE_MIN, max: UPSELLING_RATE_MAX }),
  upselling_month: { bounds: { int: true, min: 1, max: 12 }, digits: 0, clearable: true },
  churn_rate: percent({ min: 0, max: CHURN_RATE_MAX, smallest: RATE_MIN }, 2),
  lead_rate: funnel,
  meeting_rate: funnel,
  order_rate: funnel,
  registration_rate: funnel,
  billing_rate: funnel,
  recurring_revenue_rate: funnel,
  cogs_rate: costRate,
  sm_rate: costRate,
  rd_rate: costRate,
  ga_rate: costRate,
  employees: headcount,
  // Counts and amounts of a month.
  session: count,
  lead: count,
  meeting: count,
  registration: count,
  order: count,
  churn: count,
  professional_service: money,
  cogs: money,
  sm: money,
  rd: money,
  ga: money,
  beginning_cash_balance: money,
  equity_raised: money,
  debt_raised: money,
  debt_payment: money,
  other: money,
};

/** A case's rate (above 0, at most 99.99, the contract's) and a growth multiple (one decimal, working-screens.md). */
export const CASE_RATE_RULE: TypedRule = { bounds: { above: 0, max: 99.99 }, digits: 2 };
export const MULTIPLE_RULE: TypedRule = { bounds: { min: MULTIPLE_MIN, max: MULTIPLE_MAX }, digits: 1 };

/** The rule of a key; an unknown key is read as an amount of money. */
export const ruleOf = (key: string): TypedRule => TYPED_RULES[key] ?? money;
