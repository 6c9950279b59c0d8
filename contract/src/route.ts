/**
 * The shape of one /api/v1 call: method, path, request and answer schemas, and who may make it. The route table
 * (`routes.ts`) lists every call; the topic files whose calls it spreads in (`explain.ts`, `todos.ts`, ...) type their
 * entries with these, so they need not import the table itself.
 */
import type { z } from 'zod';
import type { Scope } from './policy';

/**
 * Who may make a call: anyone, any signed-in user, the plan's owner, the owner or a member who may see every area,
 * or a member with the level a scope needs (reads need can_view, writes can_edit). A scope may depend on the
 * request (an assumption's area, a cost item's group).
 */
export type Needs<Input> =
  | { kind: 'public' }
  | { kind: 'signed_in' }
  | { kind: 'owner' }
  | { kind: 'every_area' }
  /** The owner or a member with can_edit on some area (Home's to-dos, `todos.ts`). */
  | { kind: 'editor' }
  | { kind: 'scope'; scope: Scope | ((input: Input) => Scope) };

export interface Route<Request extends z.ZodType = z.ZodType, Answer extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  /** The query (GET) or body (POST); a function of today's date where a bound moves with the calendar. */
  request: Request | ((today: Date) => Request);
  /** `multipart` bodies carry text fields (numbers as text) and files. */
  body?: 'json' | 'multipart';
  answer: Answer;
  /** The HTTP status of a success, when it is not 200. */
  status?: number;
  /** The answer is a file (CSV, XLSX, an image) rather than JSON. */
  file?: 'csv' | 'xlsx' | 'image';
  needs: Needs<z.output<Request>>;
}
