/**
 * Who may read a plan's history and restore it, and which recorded rows a reader may see. A row of an area the reader
 * cannot see (no access, or the owner's tier locks it) and a member change (the owner's business) is shown to them
 * only as "something changed that you may not see": no name, title, detail or value of it, and not how many.
 */
import { AREAS, type Area, costAreaOf, YEAR_KEY_AREAS } from '@topline/contract';
import { isTierLocked, levelFor, type PlanAccess } from '../access/access';
import type { Row } from './historyRows';

/** What a recorded row belongs to: an area, or the plan's members (the owner's only). */
export type RowArea = Area | 'members';

/** Who may read the history: the owner, or a member with can_edit on some area. */
export const mayReadHistory = (access: PlanAccess) =>
  access.isOwner || AREAS.some((area) => access.roles[area] === 'can_edit');

/** Who may restore: the owner, or a member with can_edit on every area. */
export const mayRestore = (access: PlanAccess) =>
  !access.readOnly && (access.isOwner || AREAS.every((area) => access.roles[area] === 'can_edit'));

/**
 * The area of a recorded row; null for what every member sees (the plan's name, start and theme, shown in every
 * member's plan list, and the daily entries of Home, open to every member). `areaSql` is the same in SQL.
 */
export function areaOf(table: string, row: Row): RowArea | null {
  switch (table) {
    case 'cases':
    case 'plan_colors':
      return 'pl';
    case 'case_year_inputs': {
      const key = String(row.key);
      return key in YEAR_KEY_AREAS ? YEAR_KEY_AREAS[key as keyof typeof YEAR_KEY_AREAS] : 'pl';
    }
    case 'monthly_inputs':
      return row.layer === 'actual' ? 'actuals' : 'monthly_pl';
    case 'monthly_status':
      return 'actuals';
    case 'comments':
    case 'revisions':
      return 'monthly_pl';
    case 'cost_items':
      return costAreaOf(String(row.item_title));
    case 'plan_members':
      return 'members';
    default:
      return null;
  }
}

/** `areaOf` of a JSON row column of plan_change_rows (null when the row is). Built from constants only. */
function areaSql(row: 'old_row' | 'new_row'): string {
  const otherKeys = Object.entries(YEAR_KEY_AREAS)
    .filter(([, area]) => area !== 'pl')
    .map(([key, area]) => `WHEN '${key}' THEN '${area}'`)
    .join(' ');
  return `CASE WHEN ${row} IS NULL THEN NULL ELSE CASE table_name
    WHEN 'cases' THEN 'pl'
    WHEN 'plan_colors' THEN 'pl'
    WHEN 'case_year_inputs' THEN CASE ${row} ->> 'key' ${otherKeys} ELSE 'pl' END
    WHEN 'monthly_inputs' THEN CASE WHEN ${row} ->> 'layer' = 'actual' THEN 'actuals' ELSE 'monthly_pl' END
    WHEN 'monthly_status' THEN 'actuals'
    WHEN 'comments' THEN 'monthly_pl'
    WHEN 'revisions' THEN 'monthly_pl'
    WHEN 'cost_items' THEN split_part(${row} ->> 'item_title', '_', 1)
    WHEN 'plan_members' THEN 'members'
  END END`;
}

/** The areas whose rows the caller may not see: those without access or locked by the owner's tier; the members. */
export function hiddenAreas(access: PlanAccess): ReadonlySet<RowArea> {
  const hidden = new Set<RowArea>(
    AREAS.filter((area) => isTierLocked(access, area) || levelFor(access, area) === 'no_access'),
  );
  if (!access.isOwner) hidden.add('members');
  return hidden;
}

/** Whether a recorded row is hidden: either side in a hidden area (a cost item moved out of one counts in both). */
export function rowHidden(hidden: ReadonlySet<RowArea>, table: string, oldRow: Row | null, newRow: Row | null) {
  return [oldRow, newRow].some((row) => {
    const area = row === null ? null : areaOf(table, row);
    return area !== null && hidden.has(area);
  });
}

/** `rowHidden` in SQL, over a row of plan_change_rows: true where the caller may see it. */
export function visibleSql(hidden: ReadonlySet<RowArea>): string {
  if (hidden.size === 0) return 'true';
  const list = [...hidden].map((area) => `'${area}'`).join(', ');
  return `NOT (coalesce((${areaSql('old_row')}) IN (${list}), false) OR coalesce((${areaSql('new_row')}) IN (${list}), false))`;
}
