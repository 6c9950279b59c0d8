/**
 * The HTTP client for /api/v1, typed by the contract's route table: a call names its path, and its request and answer
 * types come from the route at that path (`api.get('/pl/retrieve', { query })`, `api.post('/case/edit', body)`), so
 * an unknown path or a wrong field does not compile. The multipart routes (a plan's creation and Setting form) take
 * a FormData.
 *
 * Every request carries the XMLHttpRequest header and the bearer token kept in localStorage; a token handed back in a
 * header or as `app_token` in a body is stored. A 401, or a 403 that is neither a tier lock nor a refusal by role,
 * clears the token and sends the user to Login. A failed call raises the contract's `ApiError`, whose body is the
 * API's `{title, message, code, errors?, limit?}` with the title and message the web shows; it is announced to the
 * notice listener (a tier lock is not: the screen shows the upgrade placeholder instead).
 */
import {
  type AnswerOf,
  ApiError,
  type CsvPath,
  type DataOf,
  type ErrorBody,
  type ErrorCode,
  errorBodySchema,
  IDEMPOTENCY_KEY_HEADER,
  type Limit,
  type MultipartRoute,
  type PathsOf,
  PLAN_ID_HEADER,
  PLAN_VERSION_HEADER,
  type PlanChange,
  planChangesIn,
  type RequestOf,
  type RouteAt,
  type RouteName,
} from '@topline/contract';

export { ApiError };
export const TOKEN_KEY = 'topline.app_token';
const API_BASE = '/api/v1';

export interface Notice {
  kind: 'error' | 'success';
  title: string;
  message: string;
}

type Translate = (key: string) => string;

interface ClientHooks {
  onUnauthorized: () => void;
  onNotice: (notice: Notice) => void;
  translate: Translate;
}

const hooks: ClientHooks = {
  onUnauthorized: () => {
    window.location.assign('/login');
  },
  onNotice: () => {},
  translate: (key) => key,
};

/** Lets the app route 401s through the router and show notices in its own flash area. */
export function configureClient(next: Partial<ClientHooks>): void {
  Object.assign(hooks, next);
}

export function getToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  window.localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  window.localStorage.removeItem(TOKEN_KEY);
}

/** The paths of the GET and POST routes. */
export type GetPath = PathsOf<'GET'>;
export type PostPath = PathsOf<'POST'>;
export type { CsvPath };

/** The query of a GET route, as the wire carries it. */
export type QueryOf<P extends GetPath> = RequestOf<RouteAt<'GET', P>>;
/** The body of a POST route: its request, or a FormData for a multipart route. */
export type BodyOf<P extends PostPath> =
  RouteAt<'POST', P> extends MultipartRoute ? FormData : RequestOf<RouteAt<'POST', P>>;
/** The `data` of a GET route's answer. */
export type AnswerAt<P extends GetPath> = DataOf<RouteAt<'GET', P>>;

export interface ApiResponse<N extends RouteName> {
  status: number;
  /** The answer's `data`, or the whole answer when it has none (a 209 or 210 message). */
  data: DataOf<N>;
  body: AnswerOf<N>;
  /** The plan version the answer names (`Plan-Version`): for a write, the version it made. */
  version?: number;
  /** For a write to a plan's inputs, the change set it wrote (`plan_changes`), when its answer carries one. */
  changes?: PlanChange[];
}

export interface CallOptions {
  /** Do not announce failures in the notice area (the caller shows its own message). */
  quiet?: boolean;
}
type GetOptions<P extends GetPath> = CallOptions & { query: QueryOf<P> };
/** The options of a GET; they may be left out when the route takes no query. */
export type GetArgs<P extends GetPath> =
  Record<string, never> extends QueryOf<P>
    ? [options?: CallOptions & { query?: QueryOf<P> }]
    : [options: GetOptions<P>];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Per-field messages of a refused call, keyed by the wire field name. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  return error instanceof ApiError ? (error.body.errors ?? {}) : {};
}

/** The limit that refused a call (which one, its maximum and the value it would have reached), if one did. */
export function limitOf(error: unknown): Limit | null {
  return error instanceof ApiError ? (error.body.limit ?? null) : null;
}

/** The refusals that do not sign the user out: the screen shows the upgrade placeholder or the no-access panel. */
export const isPanelRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError && (error.code === 'tier_lock' || error.code === 'no_access');

function storeTokenFrom(headers: Headers, body: unknown): void {
  const headerToken = headers.get('app-token') ?? headers.get('x-app-token');
  const fromBody = isRecord(body) ? (body.app_token ?? (isRecord(body.data) ? body.data.app_token : undefined)) : null;
  const token = typeof fromBody === 'string' && fromBody !== '' ? fromBody : headerToken;
  if (token) setToken(token);
}

/** The code of an answer whose body is not the contract's error body (a proxy's page, an empty 502). */
function codeOfStatus(status: number): ErrorCode {
  if (status === 400) return 'invalid';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'too_many_requests';
  if (status === 503) return 'unavailable';
  return 'internal';
}

/**
 * Maps a failed answer to the error the web shows (the error catalogue of spec section 8): the API's error body with
 * the server's title and message, or the catalogue's where the body has none. A 403 that is neither a tier lock nor a
 * refusal by role counts as `unauthorized`, which signs the user out.
 */
export function errorFor(status: number, method: string, body: unknown, t: Translate): ApiError {
  const parsed = errorBodySchema.safeParse(body);
  const server: Partial<ErrorBody> = parsed.success ? parsed.data : {};
  const title = server.title || undefined;
  const message = server.message || undefined;
  const details = {
    ...(server.errors ? { errors: server.errors } : {}),
    ...(server.limit ? { limit: server.limit } : {}),
  };
  const code = server.code ?? codeOfStatus(status);
  const refused = (c: ErrorCode, shownTitle: string, shownMessage: string) =>
    new ApiError(status, { title: shownTitle, message: shownMessage, code: c, ...details });

  if (status === 403 && code === 'tier_lock')
    return refused('tier_lock', title ?? t('errors.tierLock.title'), message ?? '');
  if (status === 403 && code === 'no_access')
    return refused('no_access', title ?? t('errors.title'), t('errors.noPermission'));
  if (status === 401 || status === 403) return refused('unauthorized', title ?? '', message ?? '');
  if (status === 400) {
    return refused(code, title ?? t('errors.badRequest.title'), message ?? t('errors.badRequest.message'));
  }
  if (status >= 500 && method === 'GET') {
    return refused(code, title ?? t('errors.internal.title'), message ?? t('errors.internal.message'));
  }
  return refused(code, title ?? t('errors.title'), message ?? t('errors.unexpected'));
}

/**
 * The newest version of each plan this browser saw acknowledged (the API's `Plan-Version` answer header), sent back
 * with every call about that plan so that whichever API process answers reflects at least what this user saved.
 */
const planVersions = new Map<string, number>();

/** The plan a call is about: `business_plan_id` of its query, JSON body or form. */
function planIdOf(query: unknown, payload: unknown): string | null {
  const from = (value: unknown) => (value === undefined || value === null ? null : String(value));
  if (isRecord(query) && 'business_plan_id' in query) return from(query.business_plan_id);
  if (payload instanceof FormData) return from(payload.get('business_plan_id'));
  if (isRecord(payload) && 'business_plan_id' in payload) return from(payload.business_plan_id);
  return null;
}

/** The tries of a write that no API process answers, a second apart and more. */
const WRITE_TRIES = 3;

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Sends a request, and sends it again (up to `tries` in all) while no API process answered it: the connection failed,
 * or a proxy answered 502, 503 or 504 without the API's error body. A write is sent again under the same
 * Idempotency-Key, which the API applies once.
 * @throws TypeError when the last try could not connect
 */
async function deliver(url: URL, init: RequestInit, tries: number): Promise<{ response: Response; body: unknown }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, init);
      const body = await bodyOf(response);
      const unanswered = [502, 503, 504].includes(response.status) && !errorBodySchema.safeParse(body).success;
      if (!unanswered || attempt >= tries) return { response, body };
    } catch (error) {
      if (attempt >= tries) throw error;
    }
    await new Promise((done) => setTimeout(done, 1_000 * attempt));
  }
}

/** A request as `send` makes it: its address, its `fetch` options and the plan it is about. */
function requestOf(
  method: 'GET' | 'POST',
  path: string,
  payload: unknown,
  options: { query?: unknown },
): { url: URL; init: RequestInit & { headers: Record<string, string> }; planId: string | null } {
  const url = new URL(API_BASE + path, window.location.origin);
  if (isRecord(options.query)) {
    for (const [key, value] of Object.entries(options.query)) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
  }
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const planId = planIdOf(options.query, payload);
  if (planId !== null) headers[PLAN_ID_HEADER] = planId;
  const seen = planId === null ? undefined : planVersions.get(planId);
  if (seen !== undefined) headers[PLAN_VERSION_HEADER] = String(seen);
  let requestBody: BodyInit | undefined;
  if (payload instanceof FormData) {
    requestBody = payload;
  } else if (payload !== undefined) {
    headers['Content-Type'] = 'application/json';
    requestBody = JSON.stringify(payload);
  }
  // Each write goes under a key of its own, sent again with it when no API process answered (see `deliver`).
  if (method === 'POST') headers[IDEMPOTENCY_KEY_HEADER] = crypto.randomUUID();
  return { url, init: { method, headers, body: requestBody ?? null }, planId };
}

/**
 * GETs sent ahead of the code that reads them (`api.readAhead`): as a plan page starts, the session's and the
 * screen's answers are asked for while the code that reads them downloads. Keyed by the request (address and
 * headers, the plan version aside), so that only the same request takes an answer: the first `api.get` of it within
 * `READ_AHEAD_MS` of its sending takes the answer and handles it as its own (an error, a sign-out, the plan version
 * are dealt with then, under that call's options), provided the answer is of at least the plan version that call
 * asks for (one learnt meanwhile from another answer); a later one asks again.
 */
const readsAhead = new Map<string, { sent: number; delivered: Promise<Delivered> }>();
const READ_AHEAD_MS = 10_000;
type Delivered = { response: Response; body: unknown };

function aheadKey(url: URL, headers: Record<string, string>): string {
  const { [PLAN_VERSION_HEADER]: _version, ...rest } = headers;
  return `${url.href} ${JSON.stringify(rest)}`;
}

/** The answer read ahead for this request, if one was sent lately and is of at least the version it asks for. */
async function takeAhead(url: URL, headers: Record<string, string>): Promise<Delivered | undefined> {
  const key = aheadKey(url, headers);
  const found = readsAhead.get(key);
  readsAhead.delete(key);
  if (!found || performance.now() - found.sent > READ_AHEAD_MS) return undefined;
  const delivered = await found.delivered;
  const wanted = Number(headers[PLAN_VERSION_HEADER] ?? 0);
  return Number(delivered.response.headers.get(PLAN_VERSION_HEADER) ?? 0) >= wanted ? delivered : undefined;
}

async function send<N extends RouteName>(
  method: 'GET' | 'POST',
  path: string,
  payload: unknown,
  options: CallOptions & { query?: unknown } = {},
): Promise<ApiResponse<N>> {
  const { url, init, planId } = requestOf(method, path, payload, options);
  let delivered: Delivered;
  try {
    const ahead = method === 'GET' ? await takeAhead(url, init.headers) : undefined;
    delivered = ahead ?? (await deliver(url, init, method === 'POST' ? WRITE_TRIES : 1));
  } catch {
    const error = new ApiError(0, {
      title: hooks.translate('errors.title'),
      message: hooks.translate('errors.unexpected'),
      code: 'unavailable',
    });
    if (!options.quiet) hooks.onNotice({ kind: 'error', title: error.title, message: error.message });
    throw error;
  }
  const { response, body } = delivered;
  if (!response.ok) {
    const error = errorFor(response.status, method, body, hooks.translate);
    if (error.code === 'unauthorized') {
      clearToken();
      hooks.onUnauthorized();
    } else if (!options.quiet && error.code !== 'tier_lock') {
      hooks.onNotice({ kind: 'error', title: error.title, message: error.message });
    }
    throw error;
  }
  storeTokenFrom(response.headers, body);
  const version = Number(response.headers.get(PLAN_VERSION_HEADER));
  if (planId !== null && Number.isSafeInteger(version) && version > (planVersions.get(planId) ?? 0)) {
    planVersions.set(planId, version);
  }
  const record = isRecord(body) ? body : {};
  const changes = method === 'POST' ? planChangesIn(body) : undefined;
  return {
    status: response.status,
    data: ('data' in record ? record.data : body) as DataOf<N>,
    body: body as AnswerOf<N>,
    ...(Number.isSafeInteger(version) && version > 0 ? { version } : {}),
    ...(changes ? { changes } : {}),
  };
}

/**
 * An image the API serves only to the signed-in user (a plan's icon), fetched with the bearer token, which an <img>
 * does not send. The browser's HTTP cache keeps it as the answer's `Cache-Control` allows. A refusal is not announced
 * and signs no one out: the caller shows its placeholder.
 * @throws ApiError when the API refuses or cannot be reached
 */
export async function fetchImage(url: string): Promise<Blob> {
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(new URL(url, window.location.origin), { headers });
  if (!response.ok) throw errorFor(response.status, 'GET', null, hooks.translate);
  return response.blob();
}

export const api = {
  get<P extends GetPath>(path: P, ...[options]: GetArgs<P>): Promise<ApiResponse<RouteAt<'GET', P>>> {
    return send('GET', path, undefined, options);
  },
  /**
   * Sends a GET now for the `api.get` of the same request that comes later to take (see `readsAhead`). Resolves to
   * the answer's data, or null when it was refused or not reached, for reading further ahead from it; a refusal is
   * handled by the call that takes it, not here.
   */
  readAhead<P extends GetPath>(path: P, ...[options]: GetArgs<P>): Promise<AnswerAt<P> | null> {
    const { url, init } = requestOf('GET', path, undefined, options ?? {});
    const delivered = deliver(url, init, 1);
    readsAhead.set(aheadKey(url, init.headers), { sent: performance.now(), delivered });
    return delivered.then(
      ({ response, body }) => (response.ok && isRecord(body) && 'data' in body ? (body.data as AnswerAt<P>) : null),
      () => null,
    );
  },
  post<P extends PostPath>(
    path: P,
    payload: BodyOf<P>,
    options?: CallOptions,
  ): Promise<ApiResponse<RouteAt<'POST', P>>> {
    return send('POST', path, payload, options);
  },
};
