/**
 * Which tables the statements of this process may write, from the statements knex reports:
 * - `writesAccess`: whether a statement changes what access decisions are made of (the tables of
 *   migrations/002_change_notifications.ts), so that the process drops its kept decisions at once instead of waiting
 *   for the database's notification, and only then: writes to a plan's inputs, and the version bump that goes with
 *   them (`PLAN_VERSION_ONLY`), leave them in place.
 * - `mayWrite`: whether a statement may write a given table (the group commit's check that a write may have added or
 *   removed a plan's cases, `access.ts`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { NOTIFYING_TABLES } from '../../../migrations/002_change_notifications';

/** The knex query context of a statement that changes nothing of a plan but its version (`bumpVersion`). */
export const PLAN_VERSION_ONLY = Object.freeze({ planVersionOnly: true });

/** Per request: whether it has written a row that decides access (set by `writesAccess`'s caller). */
export const accessWrites = new AsyncLocalStorage<{ wrote: boolean }>();

const TRANSACTION_CONTROL = /^\s*(?:begin|commit|rollback|savepoint|release)\b/i;
const WRITTEN_TABLE =
  /^\s*(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:only\s+)?(?:(?:"[^"]+"|\w+)\.)?("[^"]+"|\w+)/i;

/** A statement as knex reports it (`query`, `query-response` events). */
interface Statement {
  method?: string;
  sql?: string;
}

/**
 * The table a statement writes, lower case: null for reads and transaction control, undefined when its shape does
 * not say (a statement that may write anything).
 */
function writtenTable(query: Statement): string | null | undefined {
  if (query.method === 'select' || query.method === 'first' || query.method === 'pluck') return null;
  const sql = query.sql ?? '';
  if (query.method === 'raw' && /^\s*select\b/i.test(sql)) return null;
  if (TRANSACTION_CONTROL.test(sql)) return null;
  return WRITTEN_TABLE.exec(sql)?.[1]?.replaceAll('"', '').toLowerCase();
}

/**
 * Whether a statement that ran may have changed a row that decides access: any statement but reads, transaction
 * control, the version bump, and plain writes to other tables (a statement of another shape counts, to be safe).
 */
export function writesAccess(query: Statement, builder?: { queryContext?: () => unknown }): boolean {
  if (typeof builder?.queryContext === 'function' && builder.queryContext() === PLAN_VERSION_ONLY) return false;
  const table = writtenTable(query);
  return table === undefined || (table !== null && (NOTIFYING_TABLES as readonly string[]).includes(table));
}

/** Whether a statement may write to `table`: a plain write to it, or a statement of a shape that does not say. */
export function mayWrite(query: Statement, table: string): boolean {
  const written = writtenTable(query);
  return written === undefined || written === table;
}
