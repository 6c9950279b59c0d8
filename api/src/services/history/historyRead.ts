/**
 * The read side of a plan's history (contract/src/history.ts): a page of changes, the plan as it stood right after a
 * change, and two moments compared, each showing only what the caller may see (historyVisibility.ts).
 *
 * The inputs right after a change are the current rows with every row changed since put back as it was before its
 * first later change (its `old_row`), then built by the engine like any plan.
 */
import {
  asOfMonth,
  HISTORY_ITEMS_SHOWN,
  HISTORY_PAGE_SIZE,
  type HistoryChange,
  type HistoryPoint,
  noPermission,
  notFound,
} from '@topline/contract';
import type { Db } from '../../db';
import { type AccessPlan, levelFor, PLAN_COLUMNS, type PlanAccess } from '../access/access';
import { type PlanRows, planFileOf, readPlanRows } from '../plans/planFile';
import { buildWorkbook } from '../workbooks/build';
import { caseIdOf, entriesOf, ITEM_COUNT_SQL, itemsOf } from './historyItems';
import {
  changeOf,
  isoOf,
  keyOf,
  netChanges,
  parseRow,
  type Row,
  type RowChange,
  rowChangeOf,
  rowsBetween,
  same,
} from './historyRows';
import { hiddenAreas, mayReadHistory, mayRestore, rowHidden, visibleSql } from './historyVisibility';

/** Case names by id: the plan's cases as they are, and those gone as they last were. */
async function caseNamesOf(db: Db, planId: number, wanted: Iterable<number>): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (const c of await db('cases').where({ plan_id: planId }).select('id', 'name')) names.set(c.id, c.name);
  const gone = [...new Set(wanted)].filter((id) => !names.has(id));
  if (gone.length > 0) {
    const rows = await db('plan_change_rows as r')
      .join('plan_changes as c', 'c.id', 'r.change_id')
      .where({ 'c.plan_id': planId, 'r.table_name': 'cases' })
      .whereIn(db.raw("(coalesce(r.old_row, r.new_row) ->> 'id')::int") as unknown as string, gone)
      .orderBy('r.id', 'desc')
      .select(db.raw('coalesce(r.old_row, r.new_row) AS row'));
    for (const r of rows) {
      const row = parseRow(r.row) as Row;
      if (!names.has(Number(row.id))) names.set(Number(row.id), String(row.name));
    }
  }
  return names;
}

const caseIdsOf = (rows: RowChange[]) => rows.flatMap((r) => caseIdOf(r) ?? []);

/**
 * A page of the plan's changes, newest first, from `cursor` (exclusive) on. Every caller pages the same changes;
 * what they may not see is one hidden entry of its change, counted and read in SQL like the rest.
 */
export async function historyPage(db: Db, access: PlanAccess, cursor: number | undefined) {
  if (!mayReadHistory(access)) throw noPermission();
  const planId = access.plan.id;
  const visible = visibleSql(hiddenAreas(access));
  const heads: Row[] = await db('plan_changes as c')
    .leftJoin('users as u', 'u.id', 'c.user_id')
    .where('c.plan_id', planId)
    .modify((q) => {
      if (cursor !== undefined) q.where('c.id', '<', cursor);
    })
    .orderBy('c.id', 'desc')
    .limit(HISTORY_PAGE_SIZE + 1)
    .select('c.id', 'c.action', 'c.restored_from', 'c.created_at', 'u.name', 'u.email');
  const page = heads.slice(0, HISTORY_PAGE_SIZE);
  const ids = page.map((h) => Number(h.id));
  const [counts, firstRows] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          db('plan_change_rows')
            .whereIn('change_id', ids)
            .groupBy('change_id')
            .select(
              'change_id',
              db.raw(`sum(CASE WHEN ${visible} THEN ${ITEM_COUNT_SQL} ELSE 0 END) AS items`),
              db.raw(`bool_or(NOT (${visible})) AS hidden`),
            ),
          db
            .with(
              'ranked',
              db('plan_change_rows')
                .whereIn('change_id', ids)
                .whereRaw(visible)
                .select('*', db.raw('row_number() OVER (PARTITION BY change_id ORDER BY id) AS n')),
            )
            .from('ranked')
            .where('n', '<=', HISTORY_ITEMS_SHOWN)
            .orderBy('id'),
        ]);
  const rows = (firstRows as Row[]).map(rowChangeOf);
  const names = await caseNamesOf(db, planId, caseIdsOf(rows));
  const countOf = new Map((counts as Row[]).map((c) => [Number(c.change_id), c]));
  const changes: HistoryChange[] = page.map((h) => {
    const id = Number(h.id);
    const items = rows.filter((r) => r.change_id === id).flatMap((r) => itemsOf(r, names));
    const count = countOf.get(id);
    const visibleCount = count ? Number(count.items) : 0;
    const anyHidden = count?.hidden === true;
    const { entries, count: itemCount } = entriesOf(items, visibleCount, anyHidden, HISTORY_ITEMS_SHOWN);
    // Of a change the caller may see nothing of, neither the call (`/authority/add` names what changed) nor who made
    // it (a new member's acceptance would give their name or e-mail).
    const unseen = anyHidden && visibleCount === 0;
    return {
      id,
      at: isoOf(h.created_at),
      by: unseen ? null : (h.name as string | null) || (h.email as string | null) || null,
      action: unseen ? null : String(h.action),
      restored_from: h.restored_from === null ? null : Number(h.restored_from),
      item_count: itemCount,
      items: entries,
    };
  });
  const last = changes.at(-1);
  return {
    changes,
    next_cursor: heads.length > HISTORY_PAGE_SIZE && last ? last.id : null,
    can_restore: mayRestore(access),
  };
}

/** The plan's settings row and input rows as they stand now. */
async function currentRows(db: Db, planId: number): Promise<{ plan: Row; rows: PlanRows }> {
  const plan = await db('business_plans')
    .where({ id: planId })
    .first(...PLAN_COLUMNS);
  if (!plan) throw notFound('the business plan');
  return { plan, rows: await readPlanRows(db, planId) };
}

/** Which list of `PlanRows` holds a table's rows (the settings row is apart; members and colours are no input). */
const ROW_LISTS: Readonly<Record<string, keyof PlanRows>> = {
  cases: 'cases',
  case_year_inputs: 'years',
  monthly_inputs: 'monthly',
  monthly_status: 'statuses',
  revisions: 'revisions',
  cost_items: 'costItems',
  comments: 'comments',
  daily_entries: 'daily',
};

/** The settings row and input rows as they stood right after change `at`. */
async function rowsAt(db: Db, planId: number, at: number): Promise<{ plan: Row; rows: PlanRows }> {
  const now = await currentRows(db, planId);
  const net = netChanges(await rowsBetween(db, planId, at, null));
  let plan = now.plan;
  const lists = new Map<keyof PlanRows, Map<string, Row>>();
  for (const [table, list] of Object.entries(ROW_LISTS)) {
    lists.set(list, new Map((now.rows[list] as Row[]).map((row) => [keyOf(table, row), row])));
  }
  for (const [key, { table, before }] of net) {
    if (table === 'business_plans') {
      if (before) plan = { ...plan, ...before };
      continue;
    }
    const list = ROW_LISTS[table];
    if (!list) continue;
    const rows = lists.get(list) as Map<string, Row>;
    if (before) rows.set(key, before);
    else rows.delete(key);
  }
  const rows = Object.fromEntries([...lists].map(([list, map]) => [list, [...map.values()]])) as unknown as PlanRows;
  return { plan, rows };
}

/** The plan as it stood right after change `at`: its settings and every case's annual P&L, built by the engine. */
async function pointAt(db: Db, planId: number, at: number, today: Date): Promise<HistoryPoint> {
  const change = await changeOf(db, planId, at);
  const { plan, rows } = await rowsAt(db, planId, at);
  const loaded = planFileOf(plan as unknown as AccessPlan, rows);
  const workbook = await buildWorkbook(loaded.file, asOfMonth(today));
  try {
    return {
      at,
      committed_at: isoOf(change.created_at),
      business_plan_name: String(plan.name),
      currency: String(plan.currency),
      start_year: Number(plan.start_year),
      start_month: Number(plan.start_month),
      values: loaded.caseIds.map((caseId, index) => {
        const c = workbook.plan.cases[index];
        return {
          case_id: caseId,
          case_name: c?.case_name ?? '',
          case_rate: c?.case_rate ?? 1,
          pl: workbook.annualPl(index),
        };
      }),
    };
  } finally {
    workbook.destroy();
  }
}

function requirePl(access: PlanAccess) {
  if (!mayReadHistory(access) || levelFor(access, 'pl') === 'no_access') throw noPermission();
}

/** GET /history/plan: the annual P&L of every case right after change `at`. */
export async function historyPoint(db: Db, access: PlanAccess, at: number, today: Date): Promise<HistoryPoint> {
  requirePl(access);
  return pointAt(db, access.plan.id, at, today);
}

/**
 * GET /history/compare: the inputs that differ between two moments (old at the earlier) the caller may see, one
 * hidden entry for any they may not, and both P&Ls.
 */
export async function historyCompare(db: Db, access: PlanAccess, from: number, to: number, today: Date) {
  requirePl(access);
  const planId = access.plan.id;
  const [fromPoint, toPoint] = [await pointAt(db, planId, from, today), await pointAt(db, planId, to, today)];
  const [early, late] = from <= to ? [from, to] : [to, from];
  const net = netChanges(await rowsBetween(db, planId, early, late));
  const hidden = hiddenAreas(access);
  const differing: Pick<RowChange, 'table_name' | 'old_row' | 'new_row'>[] = [];
  let anyHidden = false;
  for (const { table, before, after } of net.values()) {
    if (same(before, after)) continue;
    if (rowHidden(hidden, table, before, after)) {
      anyHidden = true;
      continue;
    }
    // Old is the value at `from`, new the value at `to`, whichever came first.
    const [oldRow, newRow] = from <= to ? [before, after] : [after, before];
    differing.push({ table_name: table, old_row: oldRow, new_row: newRow });
  }
  const names = await caseNamesOf(
    db,
    planId,
    differing.flatMap((r) => caseIdOf(r) ?? []),
  );
  const items = differing.flatMap((r) => itemsOf(r, names));
  const { entries } = entriesOf(items, items.length, anyHidden, Number.POSITIVE_INFINITY);
  return { from: fromPoint, to: toPoint, inputs: entries };
}
