import type { z } from 'zod';
import { badRequest } from '../errors';

/**
 * Parses a request payload; on failure throws a 400 whose `errors` holds one message per wire field.
 * @throws ApiError 400
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    if (!(field in errors)) errors[field] = messageFor(field, issue);
  }
  throw badRequest(errors);
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
