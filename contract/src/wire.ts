/**
 * The wire's primitive fields. A JSON body carries numbers as JSON numbers and nothing else (not `true`, not `[5]`,
 * not `"0x10"`); a query string or a multipart form carries text, where a number is plain decimal digits. Text is
 * storable (no NUL, no broken UTF-16) and within its column. Every refusal names the field and the real problem.
 */
import { isStorableText } from '@topline/engine/schema';
import { z } from 'zod';
import { badRequest } from './errors';

/** Plain decimal notation: an optional minus, digits, an optional fraction. No hex, exponent, blank or spaces. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

export interface NumberBounds {
  /** Whole numbers only. */
  int?: boolean;
  min?: number;
  max?: number;
  /** Strictly above this value. */
  above?: number;
  /** Values other than 0 are at least this in size (an amount of money is 0 or at least a cent). */
  smallest?: number;
}

/** "case_rate must be above 0 and at most 99.99": the bounds in words. */
export function boundsText(field: string, b: NumberBounds): string {
  const kind = b.int ? 'a whole number' : 'a number';
  const low = b.above !== undefined ? `above ${b.above}` : b.min !== undefined ? `at least ${b.min}` : null;
  const high = b.max !== undefined ? `at most ${b.max}` : null;
  if (b.int && b.min !== undefined && b.max !== undefined)
    return `${field} must be a whole number from ${b.min} to ${b.max}`;
  const floor = b.smallest !== undefined ? ` (0, or at least ${b.smallest} in size)` : '';
  if (low && high) return `${field} must be ${kind} ${low} and ${high}${floor}`;
  if (low || high) return `${field} must be ${kind} ${low ?? high}${floor}`;
  return `${field} must be ${kind}${floor}`;
}

/** "{field} is required" when the field is missing, the bounds in words otherwise. */
const missingOr =
  (field: string, message: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? `${field} is required` : message;

function bounded(field: string, b: NumberBounds): z.ZodType<number, number> {
  const message = boundsText(field, b);
  return z
    .number({ error: missingOr(field, message) })
    .refine(
      (n) =>
        Number.isFinite(n) &&
        (!b.int || Number.isInteger(n)) &&
        (b.min === undefined || n >= b.min) &&
        (b.max === undefined || n <= b.max) &&
        (b.above === undefined || n > b.above) &&
        (b.smallest === undefined || n === 0 || Math.abs(n) >= b.smallest),
      message,
    );
}

/** A number in a JSON body. */
export const jsonNumber = (field: string, b: NumberBounds = {}) => bounded(field, b);

/** A number sent as text (query string, multipart field): decimal digits, read as the number they write. */
export const textNumber = (field: string, b: NumberBounds = {}) =>
  z
    .union([z.number(), z.string().regex(DECIMAL, boundsText(field, b))], {
      error: missingOr(field, boundsText(field, b)),
    })
    .transform((v) => (typeof v === 'number' ? v : Number(v)))
    .pipe(bounded(field, b));

/**
 * The largest id of the wire: PostgreSQL's `integer`, the type of every id column but the history's. A larger one can
 * name nothing, and would fail in the database rather than as a refusal.
 */
export const ID_MAX = 2_147_483_647;
/** The history's change ids are `bigint`: every whole number JavaScript holds exactly. */
export const CHANGE_ID_MAX = Number.MAX_SAFE_INTEGER;
/** The bounds of an id (and of the row versions an edit names, kept in `integer` columns too). */
export const ID_BOUNDS = { int: true, min: 1, max: ID_MAX } as const satisfies NumberBounds;
export const CHANGE_ID_BOUNDS = { int: true, min: 1, max: CHANGE_ID_MAX } as const satisfies NumberBounds;

/** An id in a JSON body: a whole number from 1 to ID_MAX. Every `*_id` of a request is one of these two. */
export const idField = (field: string, bounds: NumberBounds = ID_BOUNDS) => jsonNumber(field, bounds);
/** An id in a query string or a multipart form: its decimal digits. */
export const idText = (field: string, bounds: NumberBounds = ID_BOUNDS) => textNumber(field, bounds);

/** A JSON number that may be cleared: `null` clears it. */
export const clearableNumber = (field: string, b: NumberBounds = {}) =>
  z.union([z.null(), jsonNumber(field, b)], {
    error: missingOr(field, `${boundsText(field, b)}, or null to clear it`),
  });

/** Text a column can hold: no NUL character, no lone surrogate. */
export const storable = isStorableText;

/** A text field of at most `max` characters, trimmed; required ones may not be blank. */
export function textField(field: string, max: number, options: { required?: boolean; trim?: boolean } = {}) {
  const { required = true, trim = true } = options;
  let text = z.string(`${field} is required`);
  if (trim) text = text.trim();
  text = text.max(max, `${field} may not be greater than ${max} characters`);
  if (required) text = text.min(1, `${field} is required`);
  return text.refine(storable, `${field} holds a character that cannot be stored`);
}

/** A calendar date YYYY-MM-DD that exists (no 2025-13-45, no 2025-02-30). */
export const dateField = (field: string) =>
  z
    .string(`${field} must be a date YYYY-MM-DD`)
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date YYYY-MM-DD`)
    .refine((v) => {
      const date = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === v;
    }, `${field} is not a date of the calendar`);

/**
 * The most values a request may hold, counting every key of every object and every item of every array, however
 * nested. The largest request is a plan file's import (`/business-plan/import`): three cases, each with six years of
 * assumptions, 72 months of cash inputs and actuals, four daily counts for every day of the six years, every memo and
 * a hundred cost items, holds about 45,000. A body past the bound is refused before it is validated.
 */
export const REQUEST_VALUES_MAX = 100_000;

/** A request body of exactly these fields: an unknown field is refused by its name. */
export const body = <Shape extends z.core.$ZodLooseShape>(shape: Shape) => z.strictObject(shape);

/**
 * The header naming a plan version: on an answer, the version the answer reflects at least (a screen read: the
 * version it was read at); on a request, a version the caller saw acknowledged, which the answer must reflect at least
 * (read-your-writes across API processes). Either way a read reflects every write committed before it.
 */
export const PLAN_VERSION_HEADER = 'Plan-Version';

/**
 * The header naming the plan a request is about (its `business_plan_id`), which the web sends on every plan call: a
 * load balancer routes on it to the process that has the plan's workbook, as it cannot read a JSON body or a form.
 */
export const PLAN_ID_HEADER = 'X-Plan-Id';

/**
 * The header naming one write (a POST) for as long as `IDEMPOTENCY_KEY_HOURS`: the client makes a new key for each
 * write and sends the same key again when it retries that write after no answer came (a dropped connection, a process
 * that stopped, a 502 or 503 of a load balancer). The API applies a write under a key once: a retry answers what the
 * first answered. Honoured for signed-in callers; a key is the caller's own.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_HOURS = 24;

/**
 * The key a request's `Idempotency-Key` header names: null without one.
 * @throws ApiError 400 naming the header when it is not 1 to 255 visible ASCII characters
 */
export function idempotencyKeyOf(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(raw)) {
    throw badRequest({
      [IDEMPOTENCY_KEY_HEADER]: `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 visible ASCII characters`,
    });
  }
  return raw;
}

/**
 * The version a request's `Plan-Version` header names: null without one.
 * @throws ApiError 400 naming the header when it is not a plan version
 */
export function planVersionOf(raw: string | null | undefined): number | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (!/^[1-9]\d{0,14}$/.test(raw)) {
    throw badRequest({ [PLAN_VERSION_HEADER]: `${PLAN_VERSION_HEADER} must be a plan version from an earlier answer` });
  }
  return Number(raw);
}
