/**
 * Rows whose use has passed are not kept for ever: a sign-up confirmation, a plan invitation and a password reset are
 * deleted 30 days after they were used or expired. Until then a link's fate (used, voided, expired) stays readable for
 * support; after it nothing reads them. A member's status comes from the live invitations only, so an "expired"
 * member stays expired when the dead rows go. Swept with the expired idempotency keys (`idempotency.ts`), at most once
 * an hour per process.
 */
import type { Db } from '../../db';

/** How long a spent link's row is kept after it was used or expired. */
export const SPENT_ROWS_KEPT_DAYS = 30;

/** The tables of single-use, expiring links: each row has `expires_at` and `used_at`. */
const LINK_TABLES = ['signup_confirmations', 'plan_invitations', 'password_resets'] as const;

/** Deletes the link rows spent more than `SPENT_ROWS_KEPT_DAYS` before `now`; answers how many per table. */
export async function sweepSpentLinks(db: Db, now: Date): Promise<Record<(typeof LINK_TABLES)[number], number>> {
  const before = new Date(now.getTime() - SPENT_ROWS_KEPT_DAYS * 86_400_000);
  const deleted = { signup_confirmations: 0, plan_invitations: 0, password_resets: 0 };
  for (const table of LINK_TABLES) {
    deleted[table] = await db(table).where('expires_at', '<', before).orWhere('used_at', '<', before).delete();
  }
  return deleted;
}
