/**
 * Home's to-dos, shared by a plan's members, and Home's reminders, derived from the plan (contract `todos.ts`).
 * To-do writes take the plan's lock (`lockPlan`) so that the count limit holds under parallel adds, and name the
 * version they were made on, so that an edit or a deletion made on an older version is refused (409) instead of
 * undoing another member's edit. They are no input of the plan's numbers: the plan's version stays.
 */
import {
  asOfMonth,
  conflict,
  hasEdit,
  isoDay,
  limitReached,
  notFound,
  type Reminder,
  TIER_POLICY,
  TODO_LIMIT,
  type Todo,
} from '@topline/contract';
import { calendarOf, isoMonth, planMonthOf } from '@topline/engine/calendar';
import { PLAN_MONTHS } from '@topline/engine/schema';
import type { Db } from '../../db';
import { isTierLocked, type PlanAccess } from '../access/access';
import { claimIdempotencyKey } from '../requests/idempotency';
import { lockPlan } from './planWrites';

interface TodoRow {
  id: number;
  text: string;
  done: boolean;
  version: number;
  created_by_name: string | null;
  created_by_email: string | null;
  updated_at: Date | string;
}

const view = (row: TodoRow): Todo => ({
  id: Number(row.id),
  text: row.text,
  done: Boolean(row.done),
  version: Number(row.version),
  created_by: row.created_by_name || row.created_by_email || null,
  updated_at: new Date(row.updated_at).toISOString(),
});

const rows = (db: Db) =>
  db('plan_todos as t')
    .leftJoin('users as u', 'u.id', 't.created_by')
    .select(
      't.id',
      't.text',
      't.done',
      't.version',
      't.updated_at',
      'u.name as created_by_name',
      'u.email as created_by_email',
    );

/** The plan's to-dos, oldest first. */
export async function listTodos(db: Db, planId: number): Promise<Todo[]> {
  const found: TodoRow[] = await rows(db).where('t.plan_id', planId).orderBy('t.id');
  return found.map(view);
}

/** Whether the caller may change the plan's to-dos: the owner or a member with can_edit somewhere, on a writable plan. */
export const canEditTodos = (access: PlanAccess): boolean =>
  !access.readOnly && !isTierLocked(access, 'home') && (access.isOwner || hasEdit(access.roles));

/** A to-do write in a transaction holding the plan's lock. */
const todoWrite = <T>(db: Db, access: PlanAccess, body: (trx: Db) => Promise<T>): Promise<T> =>
  db.transaction(async (trx) => {
    await lockPlan(trx, access.plan.id);
    await claimIdempotencyKey(trx);
    return body(trx);
  });

const readOne = async (trx: Db, id: number): Promise<Todo> => view(await rows(trx).where('t.id', id).first());

/**
 * Adds a to-do at the end of the list.
 * @throws ApiError 400 `limit` `todos` on `text` when the plan holds TODO_LIMIT already
 */
export function addTodo(db: Db, access: PlanAccess, userId: number, text: string): Promise<Todo> {
  return todoWrite(db, access, async (trx) => {
    const [{ count } = { count: 0 }] = await trx('plan_todos').where({ plan_id: access.plan.id }).count({ count: '*' });
    if (Number(count) >= TODO_LIMIT) {
      const message = `a plan holds at most ${TODO_LIMIT} to-dos: delete done ones first`;
      throw limitReached('text', message, { name: 'todos', max: TODO_LIMIT, value: Number(count) + 1 });
    }
    const [row] = await trx('plan_todos').insert({ plan_id: access.plan.id, text, created_by: userId }).returning('id');
    return readOne(trx, Number(typeof row === 'object' ? row.id : row));
  });
}

/** The to-do row of this plan, locked, checked against the version the caller read. */
async function current(trx: Db, planId: number, id: number, version: number) {
  const row = await trx('plan_todos').where({ id, plan_id: planId }).forUpdate().first('version');
  if (!row) throw notFound('the to-do');
  if (Number(row.version) !== version)
    throw conflict('this to-do was changed by someone else meanwhile: reload to see it, then try again');
}

/**
 * Rewords a to-do or ticks it, on the version the caller read.
 * @throws ApiError 404 when it is gone, 409 when it changed since `version`
 */
export function editTodo(
  db: Db,
  access: PlanAccess,
  change: { todo_id: number; version: number; text?: string | undefined; done?: boolean | undefined },
): Promise<Todo> {
  return todoWrite(db, access, async (trx) => {
    await current(trx, access.plan.id, change.todo_id, change.version);
    await trx('plan_todos')
      .where({ id: change.todo_id })
      .update({
        ...(change.text === undefined ? {} : { text: change.text }),
        ...(change.done === undefined ? {} : { done: change.done }),
        version: trx.raw('version + 1'),
        updated_at: trx.fn.now(),
      });
    return readOne(trx, change.todo_id);
  });
}

/**
 * Deletes a to-do, on the version the caller read.
 * @throws ApiError 404 when it is gone, 409 when it changed since `version`
 */
export function deleteTodo(db: Db, access: PlanAccess, id: number, version: number): Promise<void> {
  return todoWrite(db, access, async (trx) => {
    await current(trx, access.plan.id, id, version);
    await trx('plan_todos').where({ id }).delete();
  });
}

/** What Home reminds the caller of, as of today (contract `REMINDER_CODES`, in that order). */
export async function homeReminders(db: Db, access: PlanAccess, today: Date): Promise<Reminder[]> {
  const { plan } = access;
  const reminders: Reminder[] = [];
  const add = (code: Reminder['code'], extra: Partial<Omit<Reminder, 'code'>> = {}) =>
    reminders.push({ code, month: null, days: null, date: null, ...extra });
  const asOf = asOfMonth(today);
  const monthOf = (month: number) => isoMonth(calendarOf(plan.start_year, plan.start_month, month));
  const t = planMonthOf(plan.start_year, plan.start_month, asOf.year, asOf.month);
  const last = Math.min(t - 1, PLAN_MONTHS);
  if (last >= 1) {
    // Actuals are saved for every case of the plan; the first case tells.
    const entered = await db('monthly_status as s')
      .join('cases as c', 'c.id', 's.case_id')
      .where({ 'c.plan_id': plan.id, 's.month': last, 's.status': 'ACT' })
      .first('s.month');
    if (!entered) add('actuals_missing', { month: monthOf(last) });
  }
  if (t >= 1 && t <= PLAN_MONTHS) {
    const weekStart = isoDay(new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * 86_400_000));
    const recorded = await db('daily_entries')
      .where({ plan_id: plan.id })
      .andWhere('date', '>=', weekStart)
      .andWhere('date', '<=', isoDay(today))
      .first('date');
    if (!recorded) add('daily_none_this_week');
  }
  const tier = access.ownerTier;
  if (access.isOwner && tier.isTrial && tier.trialDaysLeft !== null && tier.trialDaysLeft <= 7)
    add('trial_ending', { days: tier.trialDaysLeft, date: tier.trialEnd });
  if (access.isOwner && TIER_POLICY[tier.tier].members) {
    const member = await db('plan_members').where({ plan_id: plan.id }).first('id');
    if (!member) add('no_members');
  }
  if (t < 1) add('plan_not_started', { month: monthOf(1) });
  if (t > PLAN_MONTHS) add('plan_ended', { month: monthOf(PLAN_MONTHS) });
  return reminders;
}
