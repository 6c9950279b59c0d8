/**
 * Home's to-dos and reminders (working-screens.md section 2). The to-dos are the plan's, kept on the server and
 * shared by its members: every member reads them; the owner and any member who may edit some area (`hasEdit` of the
 * effective roles) add, tick, reword and delete them. Each to-do carries a version that an edit or a deletion names;
 * one made on an older version is refused with 409, so two members' edits never silently undo each other. The
 * reminders are derived from the plan's own data as of today.
 */
import { z } from 'zod';
import { successAnswer } from './answers';
import { singleLineText } from './fields';
import { jsonRoute } from './jsonRoute';
import { planIdField, planQuery } from './plans';
import { body, ID_BOUNDS, idField, jsonNumber } from './wire';

/** The longest to-do text, in characters. */
export const TODO_TEXT_MAX = 200;
/** How many to-dos a plan holds at most, done ones included. */
export const TODO_LIMIT = 100;

export const todo = z.object({
  id: z.number(),
  text: z.string(),
  done: z.boolean(),
  version: z.number(),
  /** Who added it (their name, or e-mail address without one); null once that user is gone. */
  created_by: z.string().nullable(),
  /** When it last changed (ISO 8601). */
  updated_at: z.string(),
});
export type Todo = z.infer<typeof todo>;

/** GET /todos/retrieve: the plan's to-dos, oldest first, and whether the caller may change them. */
export const todoListAnswer = z.object({
  data: z.object({ todos: z.array(todo), can_edit: z.boolean() }),
});

const todoIdField = idField('todo_id');
const versionField = jsonNumber('version', ID_BOUNDS);
const todoText = singleLineText('text', TODO_TEXT_MAX);

export const todoCreateRequest = body({ business_plan_id: planIdField, text: todoText });
/** POST /todos/edit: the version the to-do was read at, and the new text, the new state, or both. */
export const todoEditRequest = body({
  business_plan_id: planIdField,
  todo_id: todoIdField,
  version: versionField,
  text: todoText.optional(),
  done: z.boolean('done must be true or false').optional(),
}).refine((input) => input.text !== undefined || input.done !== undefined, {
  message: 'text or done is required',
  path: ['text'],
});
export const todoDeleteRequest = body({ business_plan_id: planIdField, todo_id: todoIdField, version: versionField });
export const todoAnswer = z.object({ data: z.object({ todo }) });

/**
 * What Home reminds of, each derived from the plan as of today:
 * - `actuals_missing`: the last month (`month`, YYYY-MM) of the plan that has ended has no actuals yet;
 * - `daily_none_this_week`: nothing recorded in the daily inputs since Monday;
 * - `trial_ending`: the owner's trial ends in `days` days (0: today), on `date` (owner only);
 * - `no_members`: nobody has been invited to the plan yet (owner only, when the tier takes members);
 * - `plan_not_started`: the plan starts in `month` (YYYY-MM), after today;
 * - `plan_ended`: today is past the plan's last month (`month`).
 */
export const REMINDER_CODES = [
  'actuals_missing',
  'daily_none_this_week',
  'trial_ending',
  'no_members',
  'plan_not_started',
  'plan_ended',
] as const;
export type ReminderCode = (typeof REMINDER_CODES)[number];

export const reminder = z.object({
  code: z.enum(REMINDER_CODES),
  month: z.string().nullable(),
  days: z.number().nullable(),
  date: z.string().nullable(),
});
export type Reminder = z.infer<typeof reminder>;

export const remindersAnswer = z.object({ data: z.object({ reminders: z.array(reminder) }) });

const HOME = { kind: 'scope', scope: 'home' } as const;
/** The owner, or a member with can_edit on some area. */
const EDITOR = { kind: 'editor' } as const;

const call = jsonRoute;

/** The to-do and reminder calls, spread into the route table. */
export const todoRoutes = {
  todoList: call('GET', '/todos/retrieve', planQuery, todoListAnswer, HOME),
  /** 400 on `text` when the plan holds `TODO_LIMIT` to-dos already. */
  todoCreate: call('POST', '/todos/create', todoCreateRequest, todoAnswer, EDITOR, 201),
  /** 409 when the to-do changed since `version`, 404 when it is gone. */
  todoEdit: call('POST', '/todos/edit', todoEditRequest, todoAnswer, EDITOR),
  /** 409 when the to-do changed since `version`, 404 when it is gone. */
  todoDelete: call('POST', '/todos/delete', todoDeleteRequest, successAnswer, EDITOR),
  homeReminders: call('GET', '/home/reminders', planQuery, remindersAnswer, HOME),
};
