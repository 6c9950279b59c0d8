import { createHash } from 'node:crypto';
import type { Db } from '../db';

/** At most `max` counts per key in a window of `windowMs` that opens at the key's first count. */
export interface Limit {
  /** What is counted; a key is counted apart in each scope. */
  scope: string;
  max: number;
  windowMs: number;
}

const MINUTES_15 = 15 * 60_000;

/**
 * The limits of the public account calls, counted in the database so that every API process shares them:
 * - sign-in: 10 failures per account (e-mail) in 15 minutes, enough for a person who mistypes and far too few to
 *   guess a password; then the account's sign-ins are refused until the window passes, unless its password is reset
 *   through the e-mailed link, which clears the count (the owner is never locked out of their own account);
 * - sign-in: 50 failures per client address in 15 minutes, so that one client cannot try one password against many
 *   accounts; larger than the account limit because an office or a mobile carrier puts many people behind one address;
 * - `email-signup-auth` tells whether an address has an account, so it is counted per client address, every call:
 *   60 in 15 minutes, about one sign-in step a quarter minute, which an office signing in at once does not reach;
 * - reset mails: 5 per account in 15 minutes (nobody needs more links; a stranger cannot flood an inbox), 20 per
 *   client address.
 * Sign-in counts failures only: a successful sign-in takes its count back and clears the account's failures.
 */
export const LIMITS = {
  signinPerAccount: { scope: 'signin-account', max: 10, windowMs: MINUTES_15 },
  signinPerClient: { scope: 'signin-client', max: 50, windowMs: MINUTES_15 },
  lookupPerClient: { scope: 'lookup-client', max: 60, windowMs: MINUTES_15 },
  resetMailPerAccount: { scope: 'reset-account', max: 5, windowMs: MINUTES_15 },
  resetMailPerClient: { scope: 'reset-client', max: 20, windowMs: MINUTES_15 },
} as const satisfies Record<string, Limit>;

const LONGEST_WINDOW_MS = Math.max(...Object.values(LIMITS).map((limit) => limit.windowMs));
/** Rows of closed windows are deleted after this many counts by one process. */
const SWEEP_EVERY = 500;

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts attempts per key in the `throttle_counts` table (migrations/004_throttle_counts.ts). Keys are stored only
 * as their SHA-256: an e-mail field sometimes holds a mistyped password.
 */
export class Throttle {
  private counted = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /**
   * Counts one attempt against each limit and key, unless one of them is already at its limit: then nothing is
   * counted and the answer is the longest wait. The count is taken before the attempt is made, so attempts sent at
   * once cannot slip past the limit between a check and a count.
   */
  async take(...counts: ReadonlyArray<readonly [Limit, string]>): Promise<Verdict> {
    const now = this.now();
    const stored = await this.db('throttle_counts')
      .select('scope', 'key_hash', 'window_start', 'count')
      .where((q) => {
        for (const [limit, key] of counts) q.orWhere({ scope: limit.scope, key_hash: hashKey(key) });
      });
    let wait = 0;
    for (const [limit, key] of counts) {
      const row = stored.find((r) => r.scope === limit.scope && r.key_hash === hashKey(key));
      if (row && row.count >= limit.max) wait = Math.max(wait, waitMs(limit, row.window_start, now));
    }
    if (wait > 0) return refused(wait);

    for (const [limit, key] of counts) {
      const windowOpen = new Date(now.getTime() - limit.windowMs);
      const [row] = await this.db('throttle_counts')
        .insert({ scope: limit.scope, key_hash: hashKey(key), window_start: now, count: 1 })
        .onConflict(['scope', 'key_hash'])
        .merge({
          count: this.db.raw('CASE WHEN throttle_counts.window_start <= ? THEN 1 ELSE throttle_counts.count + 1 END', [
            windowOpen,
          ]),
          window_start: this.db.raw(
            'CASE WHEN throttle_counts.window_start <= ? THEN excluded.window_start ELSE throttle_counts.window_start END',
            [windowOpen],
          ),
        })
        .returning(['count', 'window_start']);
      if (row && row.count > limit.max) wait = Math.max(wait, waitMs(limit, row.window_start, now));
    }
    if (++this.counted % SWEEP_EVERY === 0) await this.sweep(now);
    return wait > 0 ? refused(wait) : { allowed: true };
  }

  /** Takes back one count of the key: the attempt succeeded, and the limit counts failures. */
  async giveBack(limit: Limit, key: string): Promise<void> {
    await this.db('throttle_counts')
      .where({ scope: limit.scope, key_hash: hashKey(key) })
      .andWhere('count', '>', 0)
      .decrement('count', 1);
  }

  /** Forgets every count of the key. */
  async clear(limit: Limit, key: string): Promise<void> {
    await this.db('throttle_counts')
      .where({ scope: limit.scope, key_hash: hashKey(key) })
      .delete();
  }

  private async sweep(now: Date): Promise<void> {
    await this.db('throttle_counts')
      .where('window_start', '<=', new Date(now.getTime() - LONGEST_WINDOW_MS))
      .delete();
  }
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

function waitMs(limit: Limit, windowStart: Date | string, now: Date): number {
  return new Date(windowStart).getTime() + limit.windowMs - now.getTime();
}

const refused = (ms: number): Verdict => ({ allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) });
