/**
 * Writes applied once under an `Idempotency-Key` (contract `wire.ts`). A keyed write claims its key in its own
 * transaction (`claimIdempotencyKey`, called by every transaction a write opens), so the key is taken exactly when the
 * write committed: a retry finds it and is answered what the first answered, or waits for that answer a moment; two
 * retries at once wait for each other at the key's row. A write that opens no transaction of its own (one statement
 * that sets values, so that applying it twice leaves the same state) records its key after it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { badRequest, conflict, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_HOURS } from '@topline/contract';
import type { Db } from '../../db';
import { sweepSpentLinks } from './spentRows';

export interface KeyedWrite {
  userId: number;
  key: string;
  /** The route's name and the SHA-256 of its parsed request: a key sent again with another request is refused. */
  route: string;
  hash: string;
}

/** What a retry is answered: the first answer's status, its JSON body and the headers a client reads. */
export interface StoredAnswer {
  status: number;
  /** Undefined for a body that is not JSON (a file): not repeated. */
  body: unknown;
  headers: Record<string, string>;
}

/** The keyed write of the request being handled, and whether one of its transactions has claimed the key. */
const current = new AsyncLocalStorage<KeyedWrite & { claimed: boolean }>();

/** The first try under the key committed meanwhile: the request is answered as a retry (`answered`). */
export class KeyTaken extends Error {
  override readonly name = 'KeyTaken';
}

/** The largest answer kept for a retry; a larger one is not repeated (the retry learns that the write was applied). */
const ANSWER_MAX_CHARS = 1_000_000;
/** How long a retry waits for the answer of a first try that has committed and is about to record it. */
const ANSWER_WAIT_MS = 3_000;

const live = `created_at > now() - interval '${IDEMPOTENCY_KEY_HOURS} hours'`;

export function keyedWrite(userId: number, key: string, route: string, input: unknown): KeyedWrite {
  const hash = createHash('sha256').update(route).update('\n').update(JSON.stringify(input)).digest('hex');
  return { userId, key, route, hash };
}

/** Runs a request's handler as the keyed write `write`: its transactions claim the key. */
export const runKeyed = <T>(write: KeyedWrite, handler: () => Promise<T>): Promise<T> =>
  current.run({ ...write, claimed: false }, handler);

/**
 * Takes the request's key in the transaction of its write (nothing outside a keyed request, or once it is taken). A
 * key of the same user that expired is taken afresh.
 * @throws KeyTaken when the key is taken already: a try of the same write has committed
 */
export async function claimIdempotencyKey(trx: Db): Promise<void> {
  const write = current.getStore();
  if (!write || write.claimed) return;
  const { rows } = (await trx.raw(
    `INSERT INTO idempotency_keys (user_id, key, route, request_hash) VALUES (?, ?, ?, ?)
     ON CONFLICT (user_id, key) DO UPDATE
       SET route = excluded.route, request_hash = excluded.request_hash, answer = NULL, created_at = now()
       WHERE NOT (idempotency_keys.${live})
     RETURNING key`,
    [write.userId, write.key, write.route, write.hash],
  )) as { rows: unknown[] };
  if (rows.length === 0) throw new KeyTaken();
  write.claimed = true;
}

/**
 * The answer of an earlier try of this keyed write: null when no try has committed within the key's hours. Waits a
 * moment for a try that has committed and not yet recorded its answer.
 * @throws ApiError 400 naming the header when the key was used for another request; 409 when the write was applied
 * and its answer is not kept (lost with the process that applied it, or too large to keep)
 */
export async function answered(db: Db, write: KeyedWrite): Promise<StoredAnswer | null> {
  const until = Date.now() + ANSWER_WAIT_MS;
  for (;;) {
    const row = (await db('idempotency_keys')
      .where({ user_id: write.userId, key: write.key })
      .whereRaw(live)
      .first('route', 'request_hash', 'answer')) as
      | { route: string; request_hash: string; answer: string | null }
      | undefined;
    if (!row) return null;
    if (row.route !== write.route || row.request_hash !== write.hash) {
      throw badRequest({
        [IDEMPOTENCY_KEY_HEADER]: `this ${IDEMPOTENCY_KEY_HEADER} was used for another request; make a new key for each write`,
      });
    }
    if (row.answer !== null) {
      const stored = JSON.parse(row.answer) as StoredAnswer & { kept: boolean };
      if (stored.kept) return stored;
      break;
    }
    if (Date.now() >= until) break;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw conflict('this change was saved already, but its answer is not kept; reload to see it');
}

/** Sweeps expired keys (and spent links, `spentRows.ts`) at most this often per process. */
const SWEEP_EVERY_MS = 3_600_000;
const swept = new WeakMap<Db, number>();

/**
 * Keeps the answer of a keyed write that succeeded, for its retries. A write whose transactions did not claim the
 * key (one that opens none) records it now.
 */
export async function recordAnswer(db: Db, write: KeyedWrite, answer: StoredAnswer): Promise<void> {
  const kept = answer.body !== undefined && JSON.stringify(answer.body).length <= ANSWER_MAX_CHARS;
  const text = JSON.stringify({ ...answer, body: kept ? answer.body : null, kept });
  const updated = await db('idempotency_keys')
    .where({ user_id: write.userId, key: write.key, route: write.route, request_hash: write.hash })
    .whereNull('answer')
    .update({ answer: text });
  if (updated === 0) {
    await db.raw(
      `INSERT INTO idempotency_keys (user_id, key, route, request_hash, answer) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (user_id, key) DO NOTHING`,
      [write.userId, write.key, write.route, write.hash, text],
    );
  }
  const last = swept.get(db) ?? 0;
  if (Date.now() - last > SWEEP_EVERY_MS) {
    swept.set(db, Date.now());
    await db('idempotency_keys').whereRaw(`NOT (${live})`).delete();
    await sweepSpentLinks(db, new Date());
  }
}
