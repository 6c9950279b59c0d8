import {
  editorLimit,
  hasEdit,
  isPlanReadOnly,
  type Standing,
  type TierDownReason,
  type TierNotice,
} from '@topline/contract';
import type { Db } from '../../db';
import { rolesOf } from '../access/access';
import { tierFrom } from '../accounts/users';
import type { SubscriptionRow } from './billingTypes';
import { iso, rankOf } from './subscriptionStatus';

/**
 * What a lower tier changed, for GET /user/me (`tierNotice`): why and since when, the owned plans now read-only,
 * and the members whose can_edit now reads as can_view. Null when the tier has not gone down (or went back up).
 */
export async function tierNoticeFor(db: Db, userId: number, today: Date): Promise<TierNotice | null> {
  const row = await db<SubscriptionRow>('subscriptions').where({ user_id: userId }).first();
  if (!row) return null;
  const info = tierFrom(row, today);
  let down: Pick<TierNotice, 'reason' | 'from' | 'at'> | null = null;
  if (row.down_from && rankOf(info.tier) < rankOf(row.down_from)) {
    down = {
      reason: (row.down_reason as TierDownReason | null) ?? 'subscription_ended',
      from: row.down_from as Standing,
      at: iso(row.down_at) ?? '',
    };
  } else if (row.trial_end && !info.isTrial && info.tier === 'free') {
    // The trial's last day is trial_end; Free began the day after.
    const day = new Date(Date.parse(`${row.trial_end}T00:00:00Z`) + 86_400_000);
    down = { reason: 'trial_ended', from: 'trial', at: day.toISOString() };
  }
  if (!down) return null;
  const owned: number[] = await db('business_plans').where({ owner_id: userId }).orderBy('id').pluck('id');
  let viewers = 0;
  if (editorLimit(info.tier) === 0 && owned.length > 0) {
    const members = await db('plan_members').whereIn('plan_id', owned);
    viewers = members.filter((m) => hasEdit(rolesOf(m))).length;
  }
  return {
    ...down,
    to: info.plan,
    read_only_plans: owned.filter((_, older) => isPlanReadOnly(info.tier, older)),
    viewer_only_members: viewers,
  };
}
