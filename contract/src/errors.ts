/**
 * The one error of the wire: every refusal leaves the API as `{title, message}` (the spec's error body), with
 * per-field messages for bad input and a code that says why. A call refused by a limit also names the limit, its
 * maximum and the value it would have reached, so the web shows that instead of a copy of the number.
 */
import { z } from 'zod';

export const ERROR_CODES = [
  /** Bad input; `errors` holds one message per wire field. */
  'invalid',
  'unauthorized',
  /** The caller's role (or an owner-only call). */
  'no_access',
  /** The plan owner's tier does not include this. */
  'tier_lock',
  /** A limit of the plan or the tier; `limit` says which. */
  'limit',
  'not_found',
  /** The item changed since the caller read it, or already exists. */
  'conflict',
  'too_many_requests',
  /** A service the call needs is not configured or not reachable. */
  'unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Counts of the plan or the tier, and the mail limits (per plan, per recipient address, per sender: a signed-in user or
 * a client address), which refuse with a 429 until `retry_after_seconds` have passed.
 */
export const LIMIT_NAMES = [
  'owned_plans',
  'editors',
  'cases',
  'members',
  'mail_per_plan',
  'mail_per_address',
  'mail_per_sender',
  // The XLSX import's bounds (`XLSX_IMPORT_LIMITS` of policy.ts) and its imports running at once.
  'xlsx_bytes',
  'xlsx_uncompressed_bytes',
  'xlsx_cells',
  'xlsx_rows',
  'xlsx_string_length',
  'xlsx_read_ms',
  'xlsx_memory_mb',
  'imports_per_plan',
  'imports_per_user',
  'imports_running',
  // What a user can grow in a plan (`COLLECTION_LIMITS` of policy.ts).
  'cost_items',
  'todos',
  'comments',
  // A plan's snapshots (`SNAPSHOT_LIMIT` of snapshots.ts).
  'snapshots',
] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

export const limitSchema = z.object({
  name: z.enum(LIMIT_NAMES),
  max: z.number(),
  value: z.number(),
  /** A limit counted over a window: the seconds until it lifts (also the answer's Retry-After). */
  retry_after_seconds: z.number().int().positive().optional(),
});
export type Limit = z.infer<typeof limitSchema>;

export const errorBodySchema = z.object({
  title: z.string(),
  message: z.string(),
  code: z.enum(ERROR_CODES),
  /** Per-field messages, keyed by the wire field name (`item.price`, `Actuals!E7`...). */
  errors: z.record(z.string(), z.string()).optional(),
  limit: limitSchema.optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** A refused call: its HTTP status and the body the client sees. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }

  get title(): string {
    return this.body.title;
  }

  get code(): ErrorCode {
    return this.body.code;
  }
}

/**
 * The most fields an error body names: enough for any form, and a request of a thousand bad fields is answered with a
 * body of the same small size rather than one as large as the request.
 */
export const ERROR_FIELDS_MAX = 20;

/** @returns a 400 with one message per field, the first ERROR_FIELDS_MAX of them */
export const badRequest = (errors: Record<string, string>, message = 'invalid request, check your input') => {
  const fields = Object.entries(errors);
  if (fields.length <= ERROR_FIELDS_MAX) {
    return new ApiError(400, { title: 'Bad Request', message: firstOf(errors) ?? message, code: 'invalid', errors });
  }
  return new ApiError(400, {
    title: 'Bad Request',
    message: `${fields.length} fields are not valid; the first ${ERROR_FIELDS_MAX} are listed`,
    code: 'invalid',
    errors: Object.fromEntries(fields.slice(0, ERROR_FIELDS_MAX)),
  });
};

/** The cost-term rule (working-screens.md section 5) has its own title. */
export const inputError = (field: string, message: string) =>
  new ApiError(400, { title: 'Input Error', message, code: 'invalid', errors: { [field]: message } });

export const unauthorized = () =>
  new ApiError(401, { title: 'Unauthorized', message: 'sign in to continue', code: 'unauthorized' });

export const notFound = (what = 'the requested item') =>
  new ApiError(404, { title: 'Not Found', message: `${what} was not found`, code: 'not_found' });

export const noPermission = () =>
  new ApiError(403, {
    title: 'Forbidden',
    message: "You don't have permission to access this function / feature",
    code: 'no_access',
  });

export const ownerOnly = () =>
  new ApiError(403, {
    title: 'Forbidden',
    message: 'only the business plan owner can do this; ask the business plan owner',
    code: 'no_access',
  });

/** The owner's tier does not include `what`; with a limit when a count of the tier refused it. */
export const tierLock = (what: string, limit?: Limit) =>
  new ApiError(403, {
    title: 'Upgrade required',
    message: `${what} is not included in the current plan; upgrade to Basic or Team`,
    code: 'tier_lock',
    ...(limit ? { limit } : {}),
  });

/** A limit that no upgrade lifts (cases of a plan, editors of a Team plan), as a 400 on the field that hit it. */
export const limitReached = (field: string, message: string, limit: Limit) =>
  new ApiError(400, { title: 'Bad Request', message, code: 'limit', errors: { [field]: message }, limit });

export const conflict = (message: string) => new ApiError(409, { title: 'Conflict', message, code: 'conflict' });

/** A 429; with the limit when one of the limits named in `LIMIT_NAMES` refused it. */
export const tooManyRequests = (message: string, limit?: Limit) =>
  new ApiError(429, { title: 'Too Many Requests', message, code: 'too_many_requests', ...(limit ? { limit } : {}) });

export const unavailable = (message: string) =>
  new ApiError(503, { title: 'Service Unavailable', message, code: 'unavailable' });

/** One field's message reads as the whole refusal ("meeting must not be negative"); several get the summary. */
function firstOf(errors: Record<string, string>): string | undefined {
  const fields = Object.entries(errors);
  if (fields.length !== 1 || !fields[0]) return undefined;
  const [field, message] = fields[0];
  return message.startsWith(field) || field === 'body' ? message : `${field} ${message}`;
}
