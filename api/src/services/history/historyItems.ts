/**
 * Recorded rows as the history's items (contract/src/history.ts): one per field an update changed, one for a row
 * added or removed; the rows a reader may not see (historyVisibility.ts) as one `hidden` entry and nothing else.
 */
import { HIDDEN_HISTORY_ENTRY, type HistoryEntry, type HistoryItem, type HistoryKind } from '@topline/contract';
import { monthWithinYear, yearOf } from '@topline/engine/calendar';
import { ROW_KEYS, type Row, type RowChange, same } from './historyRows';

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

const wireValue = (value: unknown): HistoryItem['old'] => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
};

/** Plan year and month of the year of a plan month 1..72. */
const yearMonthOf = (t: number) => ({ year: yearOf(t), month: monthWithinYear(t) });

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

/** The case a recorded row belongs to, if any. */
export function caseIdOf(change: Pick<RowChange, 'table_name' | 'old_row' | 'new_row'>): number | null {
  const row = (change.new_row ?? change.old_row) as Row;
  if (change.table_name === 'cases') return Number(row.id);
  return row.case_id === undefined ? null : Number(row.case_id);
}

/**
 * The items of one recorded row the reader may see: one per field an update changed; an added or removed row is
 * one item.
 */
export function itemsOf(
  change: Pick<RowChange, 'table_name' | 'old_row' | 'new_row'>,
  caseNames: ReadonlyMap<number, string>,
): HistoryItem[] {
  const { table_name: table, old_row: oldRow, new_row: newRow } = change;
  const row = (newRow ?? oldRow) as Row;
  const kind = KINDS[table] ?? 'plan';
  const op: HistoryItem['op'] = oldRow === null ? 'add' : newRow === null ? 'remove' : 'change';
  const caseId = caseIdOf(change);
  const place = placeOf(table, row);
  const item = (key: string, oldValue: unknown, newValue: unknown): HistoryItem => ({
    kind,
    op,
    key,
    case_id: caseId,
    case_name: caseId === null ? null : (caseNames.get(caseId) ?? null),
    ...place,
    old: wireValue(oldValue),
    new: wireValue(newValue),
    hidden: false,
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

/**
 * The entries shown for a run of items the reader may see and whether any row was hidden from them: the items, then
 * one `hidden` entry, at most `limit` in all; `count` is what they stand for (the items and the one hidden entry).
 */
export function entriesOf(items: HistoryItem[], visibleCount: number, anyHidden: boolean, limit: number) {
  const entries: HistoryEntry[] = anyHidden
    ? [...items.slice(0, limit - 1), HIDDEN_HISTORY_ENTRY]
    : items.slice(0, limit);
  return { entries, count: visibleCount + (anyHidden ? 1 : 0) };
}

/** How many items a recorded row gives (`itemsOf`), counted in SQL so that a page need not read every row. */
const sqlList = (names: Iterable<string>) => [...names].map((name) => `'${name}'`).join(', ');
export const ITEM_COUNT_SQL = `CASE WHEN old_row IS NULL OR new_row IS NULL OR table_name IN (${sqlList(Object.keys(VALUE_TABLES))}) THEN 1
  ELSE GREATEST(1, (SELECT count(*) FROM jsonb_each(new_row) AS e
    WHERE e.key NOT IN (${sqlList(LINK_COLUMNS)}) AND e.value IS DISTINCT FROM (old_row -> e.key))) END`;
