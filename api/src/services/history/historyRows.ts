/**
 * The recorded rows of a plan's history (migrations/010_plan_history.ts): every row written to a plan's input tables,
 * as JSON before and after, in the transaction that wrote it. Read back by the history's pages and comparisons
 * (historyRead.ts) and by its restore (history.ts).
 */
import { notFound } from '@topline/contract';
import type { Db } from '../../db';

export type Row = Record<string, unknown>;

export interface RowChange {
  id: number;
  change_id: number;
  table_name: string;
  old_row: Row | null;
  new_row: Row | null;
}

/** The columns that name a row of each input table. */
export const ROW_KEYS: Readonly<Record<string, readonly string[]>> = {
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

export const keyOf = (table: string, row: Row): string =>
  `${table}:${(ROW_KEYS[table] ?? ['id']).map((column) => String(row[column])).join('|')}`;

export const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export const parseRow = (value: unknown): Row | null =>
  value === null || value === undefined
    ? null
    : typeof value === 'string'
      ? (JSON.parse(value) as Row)
      : (value as Row);

export const rowChangeOf = (r: Row): RowChange => ({
  id: Number(r.id),
  change_id: Number(r.change_id),
  table_name: String(r.table_name),
  old_row: parseRow(r.old_row),
  new_row: parseRow(r.new_row),
});

export const isoOf = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

/** The change `at` of this plan. @throws ApiError 404 when it is not one */
export async function changeOf(db: Db, planId: number, at: number) {
  const change = await db('plan_changes').where({ id: at, plan_id: planId }).first('id', 'created_at');
  if (!change) throw notFound('the change');
  return change as { id: number; created_at: unknown };
}

/** The rows changed after change `after` up to `upTo` (inclusive; all when null), oldest first. */
export async function rowsBetween(db: Db, planId: number, after: number, upTo: number | null): Promise<RowChange[]> {
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
export function netChanges(rows: RowChange[]): Map<string, { table: string; before: Row | null; after: Row | null }> {
  const net = new Map<string, { table: string; before: Row | null; after: Row | null }>();
  for (const r of rows) {
    const key = keyOf(r.table_name, (r.new_row ?? r.old_row) as Row);
    const known = net.get(key);
    if (known) known.after = r.new_row;
    else net.set(key, { table: r.table_name, before: r.old_row, after: r.new_row });
  }
  return net;
}
