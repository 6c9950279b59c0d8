/**
 * A plan's history (contract/src/history.ts). The database records every row written to a plan's input tables, as
 * JSON before and after, in the transaction that writes it (migrations/010_plan_history.ts); this file reads that
 * record back:
 *
 * - a page of changes, each row turned into items (one per field that changed; an added or removed row is one item);
 * - the inputs as they stood right after a change: the current rows with every row changed since put back as it was
 *   before its first later change (its `old_row`), then built by the engine like any plan;
 * - a restore: those rows written back, recorded by the same trigger as one new change.
 */
import {
  AREAS,
  type Area,
  asOfMonth,
  badRequest,
  costAreaOf,
  HISTORY_ITEMS_SHOWN,
  HISTORY_PAGE_SIZE,
  type HistoryChange,
  type HistoryItem,
  type HistoryKind,
  type HistoryPoint,
  MAX_CASES,
  noPermission,
  notFound,
  YEAR_KEY_AREAS,
} from '@topline/contract';
import { PlanWorkbook } from '@topline/engine';
import { monthWithinYear, yearOf } from '@topline/engine/src/layout';
import type { Db } from '../db';
import {
  type AccessPlan,
  bumpVersion,
  committed,
  levelFor,
  PLAN_COLUMNS,
  type PlanAccess,
  planTransaction,
  requireWritable,
} from './access';
import { currentActor, nameChange } from './changes';
import { type PlanRows, planFileOf, readPlanRows } from './planFile';
import type { CaseRow } from './plans';

type Row = Record<string, unknown>;

interface RowChange {
  id: number;
  change_id: number;
  table_name: string;
  old_row: Row | null;
  new_row: Row | null;
}

/** The columns that name a row of each input table. */
const ROW_KEYS: Readonly<Record<string, readonly string[]>> = {
  business_plans: ['id'],
  cases: ['id'],
  case_year_inputs: ['case_id', 'year', 'key'],
  monthly_inputs: ['case_id', 'month', 'layer', 'key'],
  monthly_status: ['case_id', 'month'],
  daily_entries: ['plan_id', 'date', 'key'],
  comments: ['case_id', 'year', 'column_name', 'section'],
  revisions: ['case_id', 'year'],
  cost_items: ['id'],
  plan_colors: ['plan_id', 'set_index'],
  plan_members: ['id'],
};

/** Tables whose rows hold one input value (`value`) named by their `key` column. */
const VALUE_TABLES: Readonly<Record<string, HistoryKind>> = {
  case_year_inputs: 'assumption',
  monthly_inputs: 'monthly',
  daily_entries: 'daily',
};

const KINDS: Readonly<Record<string, HistoryKind>> = {
  ...VALUE_TABLES,
  business_plans: 'plan',
  cases: 'case',
  monthly_status: 'status',
  comments: 'comment',
  revisions: 'revision',
  cost_items: 'cost_item',
  plan_colors: 'color',
  plan_members: 'member',
};

/** Columns that tie a row to its plan or case rather than hold an input. */
const LINK_COLUMNS = new Set(['id', 'plan_id', 'case_id', 'owner_id', 'user_id']);

/**
 * What a restore writes back: every input table but the members (who may see a plan is the owner's member calls'
 * business), parents before children.
 */
const RESTORED_TABLES = [
  'business_plans',
  'cases',
  'case_year_inputs',
  'monthly_inputs',
  'monthly_status',
  'daily_entries',
  'comments',
  'revisions',
  'cost_items',
  'plan_colors',
] as const;

const keyOf = (table: string, row: Row): string =>
  `${table}:${(ROW_KEYS[table] ?? ['id']).map((column) => String(row[column])).join('|')}`;

const wireValue = (value: unknown): HistoryItem['old'] => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const parseRow = (value: unknown): Row | null =>
  value === null || value === undefined
    ? null
    : typeof value === 'string'
      ? (JSON.parse(value) as Row)
      : (value as Row);

const rowChangeOf = (r: Row): RowChange => ({
  id: Number(r.id),
  change_id: Number(r.change_id),
  table_name: String(r.table_name),
  old_row: parseRow(r.old_row),
  new_row: parseRow(r.new_row),
});

/** Who may read the history: the owner, or a member with can_edit on some area. */
export const mayReadHistory = (access: PlanAccess) =>
  access.isOwner || AREAS.some((area) => access.roles[area] === 'can_edit');

/** Who may restore: the owner, or a member with can_edit on every area. */
export const mayRestore = (access: PlanAccess) =>
  !access.readOnly && (access.isOwner || AREAS.every((area) => access.roles[area] === 'can_edit'));

/** The area whose role decides whether a caller sees an item's values; `owner` for members; null: everyone. */
function areaOf(table: string, row: Row): Area | 'owner' | null {
  switch (table) {
    case 'cases':
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
      return 'owner';
    default:
      return null;
  }
}

function hiddenFor(access: PlanAccess, area: Area | 'owner' | null): boolean {
  if (area === null) return false;
  if (area === 'owner') return !access.isOwner;
  return levelFor(access, area) === 'no_access';
}

/** Plan year and month of the year of a plan month 1..72. */
const yearMonthOf = (t: number) => ({ year: yearOf(t), month: monthWithinYear(t) });

/** The items of one recorded row: one per field an update changed; an added or removed row is one item. */
export function itemsOf(change: RowChange, caseNames: ReadonlyMap<number, string>, access: PlanAccess): HistoryItem[] {
  const { table_name: table, old_row: oldRow, new_row: newRow } = change;
  const row = (newRow ?? oldRow) as Row;
  const kind = KINDS[table] ?? 'plan';
  const op: HistoryItem['op'] = oldRow === null ? 'add' : newRow === null ? 'remove' : 'change';
  const caseId = table === 'cases' ? Number(row.id) : row.case_id === undefined ? null : Number(row.case_id);
  const hidden = hiddenFor(access, areaOf(table, row));
  const place = placeOf(table, row);
  const item = (key: string, oldValue: unknown, newValue: unknown): HistoryItem => ({
    kind,
    op,
    key,
    case_id: caseId,
    case_name: caseId === null ? null : (caseNames.get(caseId) ?? null),
    ...place,
    old: hidden ? null : wireValue(oldValue),
    new: hidden ? null : wireValue(newValue),
    hidden,
  });
  if (table in VALUE_TABLES) return [item(String(row.key), oldRow?.value, newRow?.value)];
  if (op !== 'change') {
    const field = ENTITY_FIELDS[table] ?? 'id';
    return [item(field, oldRow?.[field], newRow?.[field])];
  }
  const changed = Object.keys(newRow as Row).filter(
    (column) => !(ROW_KEYS[table] ?? []).includes(column) && !same(oldRow?.[column], newRow?.[column]),
  );
  // The inputs that changed; a row whose only change is a link (a member's account deleted) shows that link.
  const inputs = changed.filter((column) => !LINK_COLUMNS.has(column));
  return (inputs.length > 0 ? inputs : changed.slice(0, 1)).map((column) =>
    item(column, oldRow?.[column], newRow?.[column]),
  );
}

/** The field that stands for a whole row added or removed. */
const ENTITY_FIELDS: Readonly<Record<string, string>> = {
  business_plans: 'name',
  cases: 'name',
  monthly_status: 'status',
  comments: 'content',
  revisions: 'pattern',
  cost_items: 'price',
  plan_colors: 'arr',
  plan_members: 'email',
};

function placeOf(table: string, row: Row): Pick<HistoryItem, 'year' | 'month' | 'detail'> {
  switch (table) {
    case 'monthly_inputs':
      return { ...yearMonthOf(Number(row.month)), detail: String(row.layer) };
    case 'monthly_status':
      return { ...yearMonthOf(Number(row.month)), detail: null };
    case 'case_year_inputs':
      return { year: Number(row.year), month: null, detail: null };
    case 'revisions':
      return { year: Number(row.year), month: null, detail: null };
    case 'comments': {
      const column = String(row.column_name);
      const month = /^\d+$/.test(column) ? Number(column) : null;
      return { year: Number(row.year), month, detail: `${row.section}:${column}` };
    }
    case 'daily_entries':
      return { year: null, month: null, detail: String(row.date) };
    case 'cost_items':
      return { year: null, month: null, detail: `${row.item_title}: ${row.item_name}` };
    case 'plan_colors':
      return { year: null, month: null, detail: String(row.set_index) };
    case 'plan_members':
      return { year: null, month: null, detail: String(row.email) };
    default:
      return { year: null, month: null, detail: null };
  }
}

/** How many items a recorded row gives (`itemsOf`), counted in SQL so that a page need not read every row. */
const sqlList = (names: Iterable<string>) => [...names].map((name) => `'${name}'`).join(', ');
const ITEM_COUNT_SQL = `CASE WHEN old_row IS NULL OR new_row IS NULL OR table_name IN (${sqlList(Object.keys(VALUE_TABLES))}) THEN 1
  ELSE GREATEST(1, (SELECT count(*) FROM jsonb_each(new_row) AS e
    WHERE e.key NOT IN (${sqlList(LINK_COLUMNS)}) AND e.value IS DISTINCT FROM (old_row -> e.key))) END`;

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

const isoOf = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

/** A page of the plan's changes, newest first, from `cursor` (exclusive) on. */
export async function historyPage(db: Db, access: PlanAccess, cursor: number | undefined) {
  if (!mayReadHistory(access)) throw noPermission();
  const planId = access.plan.id;
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
            .select('change_id', db.raw(`sum(${ITEM_COUNT_SQL}) AS items`)),
          db
            .with(
              'ranked',
              db('plan_change_rows')
                .whereIn('change_id', ids)
                .select('*', db.raw('row_number() OVER (PARTITION BY change_id ORDER BY id) AS n')),
            )
            .from('ranked')
            .where('n', '<=', HISTORY_ITEMS_SHOWN)
            .orderBy('id'),
        ]);
  const rows = (firstRows as Row[]).map(rowChangeOf);
  const caseIds = rows.flatMap((r) => {
    const row = (r.new_row ?? r.old_row) as Row;
    return r.table_name === 'cases' ? [Number(row.id)] : row.case_id === undefined ? [] : [Number(row.case_id)];
  });
  const names = await caseNamesOf(db, planId, caseIds);
  const countOf = new Map((counts as Row[]).map((c) => [Number(c.change_id), Number(c.items)]));
  const changes: HistoryChange[] = page.map((h) => {
    const id = Number(h.id);
    const items = rows.filter((r) => r.change_id === id).flatMap((r) => itemsOf(r, names, access));
    return {
      id,
      at: isoOf(h.created_at),
      by: (h.name as string | null) || (h.email as string | null) || null,
      action: String(h.action),
      restored_from: h.restored_from === null ? null : Number(h.restored_from),
      item_count: countOf.get(id) ?? items.length,
      items: items.slice(0, HISTORY_ITEMS_SHOWN),
    };
  });
  const last = changes.at(-1);
  return {
    changes,
    next_cursor: heads.length > HISTORY_PAGE_SIZE && last ? last.id : null,
    can_restore: mayRestore(access),
  };
}

/** The change `at` of this plan. @throws ApiError 404 when it is not one */
async function changeOf(db: Db, planId: number, at: number) {
  const change = await db('plan_changes').where({ id: at, plan_id: planId }).first('id', 'created_at');
  if (!change) throw notFound('the change');
  return change as { id: number; created_at: unknown };
}

/** The rows changed after change `after` up to `upTo` (inclusive; all when null), oldest first. */
async function rowsBetween(db: Db, planId: number, after: number, upTo: number | null): Promise<RowChange[]> {
  const rows = await db('plan_change_rows as r')
    .join('plan_changes as c', 'c.id', 'r.change_id')
    .where('c.plan_id', planId)
    .andWhere('c.id', '>', after)
    .modify((q) => {
      if (upTo !== null) q.andWhere('c.id', '<=', upTo);
    })
    .orderBy('r.id')
    .select('r.id', 'r.change_id', 'r.table_name', 'r.old_row', 'r.new_row');
  return rows.map(rowChangeOf);
}

/**
 * Each row changed in a run of changes, by table and key: as it was before the first of them (`before`) and after
 * the last (`after`); null where the row did not exist.
 */
function netChanges(rows: RowChange[]): Map<string, { table: string; before: Row | null; after: Row | null }> {
  const net = new Map<string, { table: string; before: Row | null; after: Row | null }>();
  for (const r of rows) {
    const key = keyOf(r.table_name, (r.new_row ?? r.old_row) as Row);
    const known = net.get(key);
    if (known) known.after = r.new_row;
    else net.set(key, { table: r.table_name, before: r.old_row, after: r.new_row });
  }
  return net;
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
  const workbook = PlanWorkbook.build(loaded.file, { asOf: asOfMonth(today) });
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

/** GET /history/compare: the inputs that differ between two moments (old at the earlier) and both P&Ls. */
export async function historyCompare(db: Db, access: PlanAccess, from: number, to: number, today: Date) {
  requirePl(access);
  const planId = access.plan.id;
  const [fromPoint, toPoint] = [await pointAt(db, planId, from, today), await pointAt(db, planId, to, today)];
  const [early, late] = from <= to ? [from, to] : [to, from];
  const net = netChanges(await rowsBetween(db, planId, early, late));
  const differing: RowChange[] = [];
  for (const { table, before, after } of net.values()) {
    if (same(before, after)) continue;
    // Old is the value at `from`, new the value at `to`, whichever came first.
    const [oldRow, newRow] = from <= to ? [before, after] : [after, before];
    differing.push({ id: 0, change_id: 0, table_name: table, old_row: oldRow, new_row: newRow });
  }
  const names = await caseNamesOf(
    db,
    planId,
    differing.flatMap((r) => {
      const row = (r.new_row ?? r.old_row) as Row;
      return r.table_name === 'cases' ? [Number(row.id)] : row.case_id === undefined ? [] : [Number(row.case_id)];
    }),
  );
  return { from: fromPoint, to: toPoint, inputs: differing.flatMap((r) => itemsOf(r, names, access)) };
}

/** A recorded row as column values to write: JSON columns (a growth model's rates) as JSON text. */
const columnsOf = (row: Row): Row =>
  Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      column,
      value !== null && typeof value === 'object' ? JSON.stringify(value) : value,
    ]),
  );

/** The columns an update of a restored row sets: all but those that name it. */
const settable = (table: string, row: Row): Row =>
  Object.fromEntries(Object.entries(columnsOf(row)).filter(([column]) => !(ROW_KEYS[table] ?? []).includes(column)));

const whereOf = (table: string, row: Row): Row =>
  Object.fromEntries((ROW_KEYS[table] ?? ['id']).map((column) => [column, row[column]]));

/**
 * POST /history/restore: every input back as it stood right after change `at`, as one new change of the caller.
 * The members are left as they are.
 * @throws ApiError 403 unless the caller may restore; 404 when `at` is not a change of this plan
 */
export async function restoreHistory(db: Db, access: PlanAccess, at: number): Promise<{ id: number; version: number }> {
  if (!mayRestore(access)) {
    requireWritable(access);
    throw noPermission();
  }
  const planId = access.plan.id;
  const { id, version } = await planTransaction(db, planId, async (trx) => {
    await changeOf(trx, planId, at);
    await nameChange(trx, planId, { ...currentActor(), action: 'history.restore' }, at);
    const net = netChanges(await rowsBetween(trx, planId, at, null));
    const byTable = new Map<string, { before: Row | null; after: Row | null }[]>();
    for (const change of net.values()) {
      if (!(RESTORED_TABLES as readonly string[]).includes(change.table) || same(change.before, change.after)) continue;
      byTable.set(change.table, [...(byTable.get(change.table) ?? []), change]);
    }
    if (byTable.size === 0) {
      throw badRequest({ at: "the plan's inputs already stand as they did right after this change" });
    }
    for (const table of [...RESTORED_TABLES].reverse()) {
      for (const { before, after } of byTable.get(table) ?? []) {
        if (before === null && after !== null) await trx(table).where(whereOf(table, after)).delete();
      }
    }
    for (const table of RESTORED_TABLES) {
      for (const { before, after } of byTable.get(table) ?? []) {
        if (before === null) continue;
        if (after === null) await trx(table).insert(columnsOf(before));
        else {
          const values = settable(table, before);
          // A restored cost item is a new version: an edit made on the one it replaces is refused (409).
          const update = table === 'cost_items' ? { ...values, version: trx.raw('version + 1') } : values;
          await trx(table).where(whereOf(table, before)).update(update);
        }
      }
    }
    const cases = await trx<CaseRow>('cases').where({ plan_id: planId }).count<{ count: string }[]>('id as count');
    const count = Number(cases[0]?.count ?? 0);
    if (count < 1 || count > MAX_CASES) throw new Error(`a restore left ${count} cases`);
    const { rows } = (await trx.raw("SELECT current_setting('topline.change', true) AS id")) as { rows: Row[] };
    return { id: Number(rows[0]?.id), version: await bumpVersion(trx, planId) };
  });
  // Cases may come back or go: the cached workbook is rebuilt.
  committed(access, version, null);
  return { id, version };
}
