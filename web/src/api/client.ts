/**
 * The HTTP client for /api/v1. Every request carries the XMLHttpRequest header and the bearer token kept in
 * localStorage; a token handed back in a header or as `app_token` in a body is stored. A 401, or a 403 that is not a
 * tier lock or a refusal by role (`reason: 'no_access'`), clears the token and sends the user to Login. Failed calls
 * raise an `ApiError` holding the `{title, message}` to show, and are announced to the notice listener (a tier lock
 * is not: the screen shows the upgrade placeholder instead).
 */

export const TOKEN_KEY = 'topline.app_token';
const API_BASE = '/api/v1';

export type ApiErrorKind = 'bad_request' | 'unauthorized' | 'tier_lock' | 'no_access' | 'server' | 'network' | 'other';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number,
    readonly title: string,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

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

export interface ApiResponse<T> {
  status: number;
  data: T;
  body: Record<string, unknown>;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  /** Do not announce failures in the notice area (the caller shows its own message). */
  quiet?: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textField(body: unknown, key: string): string | null {
  if (!isRecord(body)) return null;
  const value = body[key];
  if (typeof value === 'string' && value !== '') return value;
  if (isRecord(body.error)) return textField(body.error, key);
  return null;
}

function refusalReason(body: unknown): string | null {
  return isRecord(body) && typeof body.reason === 'string' ? body.reason : null;
}

/** Per-field messages of a 400, keyed by the wire field name. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !isRecord(error.body) || !isRecord(error.body.errors)) return {};
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(error.body.errors)) if (typeof value === 'string') fields[key] = value;
  return fields;
}

function storeTokenFrom(headers: Headers, body: unknown): void {
  const headerToken = headers.get('app-token') ?? headers.get('x-app-token');
  const fromBody = isRecord(body) ? (body.app_token ?? (isRecord(body.data) ? body.data.app_token : undefined)) : null;
  const token = typeof fromBody === 'string' && fromBody !== '' ? fromBody : headerToken;
  if (token) setToken(token);
}

/** Maps a failed answer to the error catalogue of spec section 8. */
export function errorFor(status: number, method: string, body: unknown, t: Translate): ApiError {
  const serverTitle = textField(body, 'title');
  const serverMessage = textField(body, 'message');
  if (status === 403 && refusalReason(body) === 'tier_lock') {
    return new ApiError('tier_lock', status, serverTitle ?? t('errors.tierLock.title'), serverMessage ?? '', body);
  }
  if (status === 403 && refusalReason(body) === 'no_access') {
    return new ApiError('no_access', status, serverTitle ?? t('errors.title'), t('errors.noPermission'), body);
  }
  if (status === 401 || status === 403) {
    return new ApiError('unauthorized', status, serverTitle ?? '', serverMessage ?? '', body);
  }
  if (status === 400) {
    return new ApiError(
      'bad_request',
      status,
      serverTitle ?? t('errors.badRequest.title'),
      serverMessage ?? t('errors.badRequest.message'),
      body,
    );
  }
  if (status >= 500 && method === 'GET') {
    return new ApiError(
      'server',
      status,
      serverTitle ?? t('errors.internal.title'),
      serverMessage ?? t('errors.internal.message'),
      body,
    );
  }
  return new ApiError('other', status, serverTitle ?? t('errors.title'), serverMessage ?? t('errors.unexpected'), body);
}

async function send<T>(method: 'GET' | 'POST', path: string, payload: unknown, options: RequestOptions = {}) {
  const url = new URL(API_BASE + path, window.location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let requestBody: BodyInit | undefined;
  if (payload instanceof FormData) {
    requestBody = payload;
  } else if (payload !== undefined) {
    headers['Content-Type'] = 'application/json';
    requestBody = JSON.stringify(payload);
  }
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: requestBody ?? null });
  } catch {
    const error = new ApiError('network', 0, hooks.translate('errors.title'), hooks.translate('errors.unexpected'));
    if (!options.quiet) hooks.onNotice({ kind: 'error', title: error.title, message: error.message });
    throw error;
  }
  const text = await response.text();
  let body: unknown = null;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok) {
    const error = errorFor(response.status, method, body, hooks.translate);
    if (error.kind === 'unauthorized') {
      clearToken();
      hooks.onUnauthorized();
    } else if (!options.quiet && error.kind !== 'tier_lock') {
      hooks.onNotice({ kind: 'error', title: error.title, message: error.message });
    }
    throw error;
  }
  storeTokenFrom(response.headers, body);
  const record = isRecord(body) ? body : {};
  const result: ApiResponse<T> = {
    status: response.status,
    data: ('data' in record ? record.data : body) as T,
    body: record,
  };
  return result;
}

export const api = {
  get<T>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
    return send<T>('GET', path, undefined, options);
  },
  post<T>(path: string, payload?: unknown, options?: RequestOptions): Promise<ApiResponse<T>> {
    return send<T>('POST', path, payload ?? {}, options);
  },
};
