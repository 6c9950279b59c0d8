import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { type DestinationStream, destination, pino, stdTimeFunctions } from 'pino';

/** Plain values a log line may carry beside its message; never a request body, a token, a password or an amount. */
export type LogFields = Record<string, string | number | boolean | null>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  error(message: string, error?: unknown, fields?: LogFields): void;
}

export type LogLevel = 'silent' | 'error' | 'info';

/** The id of the request being answered, which every line logged while answering it carries. */
export const requestIdStore = new AsyncLocalStorage<string>();

/** A caller's own id when it is a plain token a proxy or client might make (a UUID, a hex or base64url string). */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The request id to answer with: the incoming `X-Request-Id` when it is well-formed, else a new one. */
export function requestIdFrom(header: string | undefined): string {
  return header && WELL_FORMED_ID.test(header) ? header : randomUUID();
}

/** Plain console logging for a developer's terminal (`npm start`); request bodies, tokens and money never reach it. */
export function consoleLogger(level: LogLevel): Logger {
  return {
    // The message alone: a terminal reader has its fields in it already.
    info: (message) => {
      if (level === 'info') console.log(message);
    },
    error: (message, error) => {
      if (level === 'silent') return;
      console.error(message, error instanceof Error ? (error.stack ?? error.message) : (error ?? ''));
    },
  };
}

/**
 * Field names whose values are replaced before a line is written, wherever a caller's fields or an error's own
 * properties hold them: the messages themselves never carry them, and this keeps a careless field from doing so.
 */
export const REDACTED_PATHS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'authorization',
  'cookie',
  'amount',
  'price',
  'unit_amount',
  'err.password',
  'err.token',
  'err.amount',
  'err.config.headers.authorization',
  'err.request.headers.authorization',
  'err.raw',
];

/**
 * Structured logging for a service (`npm run serve`): one JSON object a line on stdout, with the request id of the
 * request being answered, readable by any log collector.
 */
export function jsonLogger(level: LogLevel, output?: DestinationStream): Logger {
  const log = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: () => {
        const requestId = requestIdStore.getStore();
        return requestId ? { requestId } : {};
      },
    },
    output ?? destination({ dest: 1, sync: true }),
  );
  return {
    info: (message, fields) => log.info(fields ?? {}, message),
    error: (message, error, fields) =>
      log.error({ ...fields, ...(error === undefined ? {} : { err: errorFields(error) }) }, message),
  };
}

/** An error as plain fields: its kind, message, code and stack, and none of what a library hung on it. */
function errorFields(error: unknown): LogFields {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: error.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    stack: error.stack ?? null,
  };
}
