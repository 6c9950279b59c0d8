/** What the signed-in user may do in a plan's areas: the owner edits everything, members as their roles say. */
import { type Area, type Level, levelFor, type PlanListItem } from '@topline/contract';

/** The caller's level in an area: the owner edits everything; members as the plan's roles say. */
export const levelOf = (plan: PlanListItem, area: Area): Level =>
  plan.is_owner ? 'can_edit' : levelFor(plan.role, area);

export const canEdit = (plan: PlanListItem, area: Area): boolean => levelOf(plan, area) === 'can_edit';
