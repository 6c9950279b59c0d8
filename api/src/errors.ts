/** Why a request was refused with 403: the caller's role (or owner-only call), or the plan owner's tier. */
export type RefusalReason = 'no_access' | 'tier_lock';

export interface ErrorBody {
  title: string;
  message: string;
  /** Per-field messages of a 400, keyed by the wire field name. */
  errors?: Record<string, string>;
  reason?: RefusalReason;
}

/** The one error type the API throws on purpose; the error middleware turns it into `{title, message}`. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly extra: Pick<ErrorBody, 'errors' | 'reason'> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return { title: this.title, message: this.message, ...this.extra };
  }
}

export const badRequest = (errors: Record<string, string>, message = 'invalid request, check your input') =>
  new ApiError(400, 'Bad Request', message, { errors });

/** The cost-term rule (working-screens.md section 5) has its own title. */
export const inputError = (field: string, message: string) =>
  new ApiError(400, 'Input Error', message, { errors: { [field]: message } });

export const unauthorized = () => new ApiError(401, 'Unauthorized', 'sign in to continue');

export const notFound = (what = 'the requested item') => new ApiError(404, 'Not Found', `${what} was not found`);

export const noPermission = () =>
  new ApiError(403, 'Forbidden', "You don't have permission to access this function / feature", {
    reason: 'no_access',
  });

export const ownerOnly = () =>
  new ApiError(403, 'Forbidden', 'only the business plan owner can do this; ask the business plan owner', {
    reason: 'no_access',
  });

export const tierLock = (what: string) =>
  new ApiError(403, 'Upgrade required', `${what} is not included in the current plan; upgrade to Basic or Team`, {
    reason: 'tier_lock',
  });

export const conflict = (message: string) => new ApiError(409, 'Conflict', message);
