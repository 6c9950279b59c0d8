import { badRequest, REQUEST_VALUES_MAX } from '@topline/contract';
import type { z } from 'zod';

/**
 * Parses a request payload; on failure throws a 400 whose `errors` holds one message per wire field (the first
 * `ERROR_FIELDS_MAX`). A payload of more than REQUEST_VALUES_MAX values is refused before it is validated.
 * @throws ApiError 400
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  if (holdsMoreThan(input, REQUEST_VALUES_MAX)) {
    throw badRequest({ body: `a request may hold at most ${REQUEST_VALUES_MAX} fields and items` });
  }
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const at = issue.path.join('.');
    if (issue.code === 'unrecognized_keys') {
      // Refused by name: a misspelt or unexpected field is never silently dropped.
      for (const key of issue.keys) errors[at ? `${at}.${key}` : key] = `${key} is not a field of this request`;
      continue;
    }
    const field = at || 'body';
    if (!(field in errors)) errors[field] = messageFor(field, issue);
  }
  throw badRequest(errors);
}

/**
 * Whether `value` holds more than `max` keys and array items, nested ones included. Walked without recursion, and
 * stops as soon as the count passes `max`: a deeply nested or very wide body costs no more than the bound.
 */
export function holdsMoreThan(value: unknown, max: number): boolean {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    const children = Array.isArray(next) ? next : Object.values(next);
    count += children.length;
    if (count > max) return true;
    for (const child of children) if (typeof child === 'object' && child !== null) pending.push(child);
  }
  return false;
}

function messageFor(field: string, issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null || issue.input === '')) {
    return `${field} is required`;
  }
  if (issue.code === 'too_small' && issue.origin === 'string') {
    return Number(issue.minimum) <= 1
      ? `${field} is required`
      : `${field} must be at least ${issue.minimum} characters`;
  }
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return `${field} may not be greater than ${issue.maximum} characters`;
  }
  if (issue.code === 'invalid_format' && issue.format === 'email') return 'enter in email format';
  return issue.message;
}

/** Parsed query strings by schema: the same query string always parses to the same (frozen) input. */
const parsedQueries = new WeakMap<z.ZodType, Map<string, unknown>>();
const MAX_PARSED_QUERIES = 1000;

/** The valid query strings of `schema` parsed so far. */
function parsedOf(schema: z.ZodType): Map<string, unknown> {
  let known = parsedQueries.get(schema);
  if (!known) {
    known = new Map();
    parsedQueries.set(schema, known);
  }
  return known;
}

function remember<T>(known: Map<string, unknown>, querystring: string, parsed: T): Readonly<T> {
  const frozen = Object.freeze(parsed);
  if (known.size >= MAX_PARSED_QUERIES) known.clear();
  known.set(querystring, frozen);
  return frozen;
}

/**
 * Parses a GET request's query string like `parseInput`, remembering valid ones: a screen asks for the same few
 * query strings over and over, and a warm read should cost no more than a lookup. `query` (the query string as an
 * object, which Koa builds anew for every request) is asked for only when the query string is not remembered.
 * Invalid ones answer 400 each time.
 * @throws ApiError 400
 */
export function parseQuery<S extends z.ZodType>(
  schema: S,
  querystring: string,
  query: () => unknown,
): Readonly<z.infer<S>> {
  const known = parsedOf(schema);
  const hit = known.get(querystring);
  if (hit !== undefined) return hit as z.infer<S>;
  return remember(known, querystring, parseInput(schema, query()));
}

/** `parseQuery` without the 400: undefined when the query string is not valid for `schema`. */
export function validQuery<S extends z.ZodType>(
  schema: S,
  querystring: string,
  query: () => unknown,
): Readonly<z.infer<S>> | undefined {
  const known = parsedOf(schema);
  const hit = known.get(querystring);
  if (hit !== undefined) return hit as z.infer<S>;
  const result = schema.safeParse(query() ?? {});
  return result.success ? remember(known, querystring, result.data) : undefined;
}
