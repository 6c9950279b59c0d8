import {
  badRequest,
  conflict,
  editorLimit,
  fullRoles,
  hasEdit,
  limitReached,
  notFound,
  type Roles,
  TIER_POLICY,
  tierLock,
} from '@topline/contract';
import type { Db } from '../../db';
import { type PlanAccess, rolesOf } from '../access/access';
import { findUserByEmail, normalizeEmail } from '../accounts/users';
import { audit, planWrite } from '../plans/planWrites';

export interface MemberView {
  name: string;
  email: string;
  is_owner: boolean;
  status: MemberStatus;
  roles: Roles;
}

/** joined; invited while the member's newest link is live; expired once it is not (the owner may resend). */
type MemberStatus = 'invited' | 'joined' | 'expired';

/** GET /authority/retrieve: the owner first, then members in invitation order, with what the tier allows. */
export async function memberList(db: Db, access: PlanAccess, now: Date) {
  const owner = await db('users').where({ id: access.plan.owner_id }).first();
  const rows = await db('plan_members')
    .leftJoin('users', 'users.id', 'plan_members.user_id')
    .where({ plan_id: access.plan.id })
    .orderBy('plan_members.id')
    .select('plan_members.*', 'users.name as user_name');
  const live = new Set(
    (
      await db('plan_invitations')
        .whereIn(
          'member_id',
          rows.map((r) => r.id as number),
        )
        .whereNull('used_at')
        .andWhere('expires_at', '>', now)
        .select('member_id')
    ).map((r: { member_id: number }) => r.member_id),
  );
  const statusOf = (r: { id: number; status: string }): MemberStatus =>
    r.status === 'received' ? 'joined' : live.has(r.id) ? 'invited' : 'expired';
  const members: MemberView[] = [
    { name: owner?.name ?? '', email: owner?.email ?? '', is_owner: true, status: 'joined', roles: fullRoles() },
    ...rows.map((r) => ({
      name: (r.user_name as string | null) ?? '',
      email: r.email as string,
      is_owner: false,
      status: statusOf(r),
      roles: rolesOf(r),
    })),
  ];
  const tier = access.ownerTier.tier;
  return {
    role: members,
    tier: access.ownerTier.plan,
    can_add_member: TIER_POLICY[tier].members,
    can_grant_edit: editorLimit(tier) > 0,
    editor_limit: editorLimit(tier),
    editor_count: members.filter((m) => !m.is_owner && hasEdit(m.roles)).length,
  };
}

/**
 * Checks the tier rules for a member with these roles: members only where the tier has them, can_edit only where
 * it has editors and for at most its editor limit (not counting the member being edited).
 */
async function checkTierRules(db: Db, access: PlanAccess, email: string, roles: Roles): Promise<void> {
  const tier = access.ownerTier.tier;
  if (!TIER_POLICY[tier].members) throw tierLock('inviting members');
  if (!hasEdit(roles)) return;
  const max = editorLimit(tier);
  if (max === 0) throw tierLock('giving members can_edit');
  const others = await db('plan_members').where({ plan_id: access.plan.id }).whereNot({ email });
  const editors = others.filter((r) => hasEdit(rolesOf(r))).length;
  if (editors >= max) {
    throw limitReached('email', `at most ${max} members may have can_edit on this plan`, {
      name: 'editors',
      max,
      value: editors + 1,
    });
  }
}

async function refuseOwner(db: Db, access: PlanAccess, email: string): Promise<void> {
  const owner = await findUserByEmail(db, email);
  if (owner && owner.id === access.plan.owner_id) {
    throw badRequest({ email: 'the business plan owner cannot be invited, edited or deleted' });
  }
}

/**
 * Adds an invited e-mail (status yet until it joins); the link that lets it join is `invitations.ts`'s, sent by the
 * route once the member exists.
 */
/**
 * Adds a member to the plan. `beforeAdding` runs in the same transaction once the address is known to be new and the
 * tier allows it (the invitation mail's limits: a duplicate is refused as one, never as too many mails), and may
 * refuse, which adds nothing.
 */
export async function addMember(
  db: Db,
  access: PlanAccess,
  actorId: number,
  rawEmail: string,
  roles: Roles,
  beforeAdding: (trx: Db) => Promise<void> = async () => {},
) {
  const email = normalizeEmail(rawEmail);
  await refuseOwner(db, access, email);
  await planWrite(db, access, async (trx) => {
    const existing = await trx('plan_members').where({ plan_id: access.plan.id, email }).first();
    if (existing) throw conflict('this e-mail address is already a member of the business plan');
    await checkTierRules(trx, access, email, roles);
    await beforeAdding(trx);
    await trx('plan_members').insert({ plan_id: access.plan.id, email, status: 'yet', ...roles });
    await audit(trx, actorId, access.plan.id, 'member.add', { email });
  });
}

export async function editMember(db: Db, access: PlanAccess, actorId: number, rawEmail: string, roles: Roles) {
  const email = normalizeEmail(rawEmail);
  await refuseOwner(db, access, email);
  await planWrite(db, access, async (trx) => {
    const existing = await trx('plan_members').where({ plan_id: access.plan.id, email }).first();
    if (!existing) throw notFound('the member');
    await checkTierRules(trx, access, email, roles);
    await trx('plan_members').where({ id: existing.id }).update(roles);
    await audit(trx, actorId, access.plan.id, 'member.edit', { email });
  });
}

export async function deleteMember(db: Db, access: PlanAccess, actorId: number, rawEmail: string) {
  const email = normalizeEmail(rawEmail);
  await refuseOwner(db, access, email);
  await planWrite(db, access, async (trx) => {
    const deleted = await trx('plan_members').where({ plan_id: access.plan.id, email }).delete();
    if (deleted === 0) throw notFound('the member');
    await audit(trx, actorId, access.plan.id, 'member.delete', { email });
  });
}
