import { createHash } from 'node:crypto';
import type { LimitName } from '@topline/contract';
import type { Db } from '../../db';

/** At most `max` counts per key in a window of `windowMs` that opens at the key's first count. */
export interface Limit {
  /** What is counted; a key is counted apart in each scope. */
  scope: string;
  max: number;
  windowMs: number;
  /** The name a refusal carries on the wire (`LIMIT_NAMES`), for the limits a caller is told about. */
  name?: LimitName;
}

const MINUTES_15 = 15 * 60_000;
const HOUR = 60 * 60_000;

/**
 * The limits of the public account calls, counted in the database so that every API process shares them:
 * - sign-in failures per account from one client address: 10 in 15 minutes, then 20 in 6 hours (a growing delay for
 *   one guesser), keyed with the account's token version so that a password reset starts them afresh;
 * - sign-in failures per account from anywhere: 10 in 15 minutes; once reached, only clients that have already failed
 *   on that account are refused. The right password from a client that has not failed is never refused, so nobody can
 *   lock the owner out by guessing, and a guesser spread over many addresses gets one guess per address;
 * - sign-in failures per client address: 50 in 15 minutes, whichever accounts they try (one password against many
 *   accounts); larger than the account limit because an office or a mobile carrier puts many people behind one address;
 * - `email-signup-auth` is counted per client address, every call: 60 in 15 minutes;
 * - reset mails: 5 per account in 15 minutes, 20 per client address.
 * Mail of any kind (sign-up confirmation, reset, invitation, resend) is also counted per recipient address (6 an hour,
 * whichever call sends it, so nobody's inbox can be flooded), per sender (a signed-in user: 30 invitations an hour;
 * an anonymous client address: 20 sign-up mails in 15 minutes) and per plan (20 invitations an hour).
 * Sign-in counts failures only: a successful sign-in takes its counts back.
 */
export const LIMITS = {
  signinPerAccountClient: { scope: 'signin-acct-client', max: 10, windowMs: MINUTES_15 },
  signinPerAccountClientLong: { scope: 'signin-acct-client-6h', max: 20, windowMs: 6 * HOUR },
  signinPerAccount: { scope: 'signin-account', max: 10, windowMs: MINUTES_15 },
  signinPerClient: { scope: 'signin-client', max: 50, windowMs: MINUTES_15 },
  lookupPerClient: { scope: 'lookup-client', max: 60, windowMs: MINUTES_15 },
  resetMailPerAccount: { scope: 'reset-account', max: 5, windowMs: MINUTES_15 },
  resetMailPerClient: { scope: 'reset-client', max: 20, windowMs: MINUTES_15 },
  mailPerAddress: { scope: 'mail-address', max: 6, windowMs: HOUR, name: 'mail_per_address' },
  signupMailPerClient: { scope: 'signup-mail-client', max: 20, windowMs: MINUTES_15, name: 'mail_per_sender' },
  inviteMailPerSender: { scope: 'invite-mail-sender', max: 30, windowMs: HOUR, name: 'mail_per_sender' },
  inviteMailPerPlan: { scope: 'invite-mail-plan', max: 20, windowMs: HOUR, name: 'mail_per_plan' },
} as const satisfies Record<string, Limit>;

const LONGEST_WINDOW_MS = Math.max(...Object.values(LIMITS).map((limit) => limit.windowMs));
/** Rows of closed windows are deleted after this many counts by one process. */
const SWEEP_EVERY = 500;

/** A refusal names the limit that refused (the one with the longest wait). */
export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number; limit: Limit };

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
    let by: Limit | undefined;
    for (const [limit, key] of counts) {
      const row = stored.find((r) => r.scope === limit.scope && r.key_hash === hashKey(key));
      const ms = row && row.count >= limit.max ? waitMs(limit, row.window_start, now) : 0;
      if (ms > wait) [wait, by] = [ms, limit];
    }
    if (by) return refused(wait, by);

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
      const ms = row && row.count > limit.max ? waitMs(limit, row.window_start, now) : 0;
      if (ms > wait) [wait, by] = [ms, limit];
    }
    if (++this.counted % SWEEP_EVERY === 0) await this.sweep(now);
    return by ? refused(wait, by) : { allowed: true };
  }

  /** The key's count in its open window (0 when none). */
  async count(limit: Limit, key: string): Promise<number> {
    const row = await this.db('throttle_counts')
      .where({ scope: limit.scope, key_hash: hashKey(key) })
      .andWhere('window_start', '>', new Date(this.now().getTime() - limit.windowMs))
      .first('count');
    return row ? Number(row.count) : 0;
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

const refused = (ms: number, limit: Limit): Verdict => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)),
  limit,
});
