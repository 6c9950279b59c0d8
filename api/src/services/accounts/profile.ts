import {
  AREAS,
  type Area,
  clampRoles,
  fullRoles,
  isTierLocked,
  ownedPlanLimit,
  type PlanListItem,
  type ProfileEdit,
  type Roles,
  type Standing,
  type UserView,
} from '@topline/contract';
import type { Db } from '../../db';
import { type PlanRow, rolesOf } from '../access/access';
import { tierNoticeFor } from '../billing/tierNotice';
import { iconUrl } from '../plans/icons';
import { tierOf, type UserRow } from './users';

/** GET /user/me: the user with tier and trial, and every plan they own or were received into. */
export async function meView(db: Db, user: UserRow, today: Date) {
  const tier = await tierOf(db, user.id, today);
  const owned = await db<PlanRow>('business_plans').where({ owner_id: user.id }).orderBy('id');
  const memberRows = await db('plan_members')
    .join('business_plans', 'business_plans.id', 'plan_members.plan_id')
    .where({ 'plan_members.user_id': user.id, 'plan_members.status': 'received' })
    .whereNot('business_plans.owner_id', user.id)
    .select('business_plans.*', ...AREAS.map((a) => `plan_members.${a} as role_${a}`))
    .orderBy('business_plans.id');
  const planIds = [...owned.map((p) => p.id), ...memberRows.map((p) => p.id as number)];
  const cases = planIds.length
    ? await db('cases').whereIn('plan_id', planIds).orderBy(['plan_id', 'position', 'id'])
    : [];
  const casesOf = (planId: number) =>
    cases.filter((c) => c.plan_id === planId).map((c) => ({ case_id: c.id as number, case_name: c.name as string }));
  const limit = ownedPlanLimit(tier.tier);
  // Areas the plan owner's tier locks, for the upgrade placeholders.
  const locked = (ownerTier: Standing) => AREAS.filter((area) => isTierLocked(ownerTier, area));

  const items: PlanListItem[] = [];
  for (const plan of owned) items.push(listItem(plan, true, fullRoles(), locked(tier.tier), casesOf(plan.id)));
  for (const row of memberRows) {
    const ownerTier = await tierOf(db, row.owner_id, today);
    const roles = clampRoles(rolesOf(Object.fromEntries(AREAS.map((a) => [a, row[`role_${a}`]]))), ownerTier.tier);
    items.push(listItem(row as PlanRow, false, roles, locked(ownerTier.tier), casesOf(row.id)));
  }
  const userView: UserView = {
    email: user.email,
    name: user.name,
    picture: user.picture,
    auth_provider: user.auth_provider,
    company: {
      company_name: user.company_name,
      position: user.position,
      employees: user.employees,
      stage: user.stage,
    },
    plan: {
      plan: tier.plan,
      is_trial: tier.isTrial,
      trial_end: tier.trialEnd,
      trial_days_left: tier.trialDaysLeft,
      owned_plan_limit: limit,
      can_create_plan: owned.length < limit,
    },
  };
  return { user: userView, business_plans: items, notice: await tierNoticeFor(db, user.id, today) };
}

function listItem(
  plan: PlanRow,
  isOwner: boolean,
  role: Roles,
  locked: Area[],
  cases: PlanListItem['cases'],
): PlanListItem {
  return {
    business_plan_id: plan.id,
    business_plan_name: plan.name,
    business_plan_icon: iconUrl(plan.id, plan.icon_hash),
    is_owner: isOwner,
    template: plan.template,
    currency: plan.currency,
    start_year: plan.start_year,
    start_month: plan.start_month,
    theme_color: plan.theme_color,
    role,
    locked,
    cases,
    version: plan.version,
  };
}

export async function editProfile(db: Db, user: UserRow, input: ProfileEdit): Promise<void> {
  await db('users')
    .where({ id: user.id })
    .update({ ...input, updated_at: db.fn.now() });
}
