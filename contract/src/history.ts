/**
 * A plan's history: every change of its inputs, recorded in the transaction that made it (who, when, what, old and
 * new values), the plan's annual P&L as it stood right after any change (rebuilt by the engine from the inputs of
 * that moment), a comparison of two moments, and a restore that puts every input back as it stood at one of them,
 * recorded as one new change so that a restore can itself be undone.
 *
 * Who may ask: the owner and members with can_edit on some area read the history; the P&L of a moment also needs
 * the P&L area; a restore rewrites every area, so it takes the owner or a member with can_edit on every area. What
 * changed in an area the caller cannot see (no access, or locked by the owner's tier), and every member change (the
 * owner's only), is answered as one `hidden` entry of the change or comparison and nothing else: no name, title,
 * detail or value, nor how many; every caller pages the same changes.
 */

import { plYearRowSchema } from '@topline/engine/shapes';
import { z } from 'zod';
import { jsonRoute } from './jsonRoute';
import { planIdField, planQuery } from './plans';
import { body, CHANGE_ID_BOUNDS, idField, idText } from './wire';

/** Changes in one page of the history, newest first. */
export const HISTORY_PAGE_SIZE = 50;
/** The items of a change listed with it in a page; `item_count` tells how many it holds. */
export const HISTORY_ITEMS_SHOWN = 20;

/**
 * What a recorded item is about: the plan's settings, a case (name, rate, growth model), a per-year assumption, a
 * monthly value (`layer`: the estimate `plan`, `actual`, `revised`, cash), a month's estimate/actual status, a daily
 * entry, a comment, a revision pattern, a cost item, a colour set, a member.
 */
export const HISTORY_KINDS = [
  'plan',
  'case',
  'assumption',
  'monthly',
  'status',
  'daily',
  'comment',
  'revision',
  'cost_item',
  'color',
  'member',
] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

export const HISTORY_OPS = ['add', 'change', 'remove'] as const;

const historyValue = z.union([z.number(), z.string(), z.boolean(), z.null()]);

export const historyItem = z.object({
  kind: z.enum(HISTORY_KINDS),
  op: z.enum(HISTORY_OPS),
  /** The field that changed: an input key (`arr`, `churn_rate`), a column of the item (`price`, `name`). */
  key: z.string(),
  case_id: z.number().nullable(),
  /** The case's name as it is now, or as it last was when the case is gone. */
  case_name: z.string().nullable(),
  /** Plan year 1..6, where the item has one. */
  year: z.number().nullable(),
  /** Month of the plan year 1..12, where the item has one. */
  month: z.number().nullable(),
  /** A daily entry's date (YYYY-MM-DD), a monthly value's layer, a cost item's title or a member's e-mail. */
  detail: z.string().nullable(),
  old: historyValue,
  new: historyValue,
  hidden: z.literal(false),
});
export type HistoryItem = z.infer<typeof historyItem>;

/** What stands, in a change or a comparison, for everything in it the caller may not see: that alone. */
export const hiddenHistoryEntry = z.object({ hidden: z.literal(true) });
export const HIDDEN_HISTORY_ENTRY: z.infer<typeof hiddenHistoryEntry> = Object.freeze({ hidden: true });

/** An item the caller may see, or the one entry for all they may not. */
export const historyEntry = z.union([historyItem, hiddenHistoryEntry]);
export type HistoryEntry = z.infer<typeof historyEntry>;

export const historyChange = z.object({
  id: z.number(),
  /** When it was committed (ISO 8601). */
  at: z.string(),
  /**
   * Who made it: the user's name or e-mail; null when that user is gone, the change came from outside the app, or
   * the caller may see none of it.
   */
  by: z.string().nullable(),
  /** The call that made it (`/case/edit`, `plan.create`, `history.restore`); null when the caller may see none of it. */
  action: z.string().nullable(),
  /** For a restore: the change whose state it restored. */
  restored_from: z.number().nullable(),
  /** How many entries the change holds for the caller: the items they may see, and one for all those hidden. */
  item_count: z.number(),
  /** The first of them (`HISTORY_ITEMS_SHOWN` at most): the items, then the hidden entry, if any. */
  items: z.array(historyEntry),
});
export type HistoryChange = z.infer<typeof historyChange>;

/** The history's change ids (`bigint` columns). */
const changeIdText = (field: string) => idText(field, CHANGE_ID_BOUNDS);

export const historyQuery = planQuery.extend({ cursor: changeIdText('cursor').optional() });
export const historyAnswer = z.object({
  data: z.object({
    changes: z.array(historyChange),
    /** The `cursor` of the next (older) page; null on the last. */
    next_cursor: z.number().nullable(),
    /** Whether the caller may restore (owner, or can_edit on every area). */
    can_restore: z.boolean(),
  }),
});
export type HistoryAnswer = z.infer<typeof historyAnswer>;

const caseAnnualPl = z.object({
  case_id: z.number(),
  case_name: z.string(),
  case_rate: z.number(),
  pl: z.array(plYearRowSchema),
});
/** The plan as it stood right after change `at`: its settings and the annual P&L of every case it then had. */
export const historyPoint = z.object({
  at: z.number(),
  committed_at: z.string(),
  business_plan_name: z.string(),
  currency: z.string(),
  start_year: z.number(),
  start_month: z.number(),
  values: z.array(caseAnnualPl),
});
export type HistoryPoint = z.infer<typeof historyPoint>;

export const historyPlanQuery = planQuery.extend({ at: changeIdText('at') });
export const historyPlanAnswer = z.object({ data: historyPoint });

/** Two moments of the plan: the inputs that differ between them (old: at `from`, new: at `to`) and both P&Ls. */
export const historyCompareQuery = planQuery.extend({ from: changeIdText('from'), to: changeIdText('to') });
export const historyCompareAnswer = z.object({
  /** The inputs the caller may see, then one hidden entry when any they may not see differs. */
  data: z.object({ from: historyPoint, to: historyPoint, inputs: z.array(historyEntry) }),
});
export type HistoryCompareAnswer = z.infer<typeof historyCompareAnswer>;

export const historyRestoreRequest = body({
  business_plan_id: planIdField,
  at: idField('at', CHANGE_ID_BOUNDS),
});
/** The change that recorded the restore, and the plan's version after it. */
export const historyRestoreAnswer = z.object({ data: z.object({ id: z.number(), version: z.number() }) });

/** Every member passes; the history's own rule (can_edit on some area) is checked by the call, on read-only plans too. */
const MEMBER = { kind: 'scope', scope: 'home' } as const;
const EVERY_AREA = { kind: 'every_area' } as const;

const call = jsonRoute;

/** The history calls, spread into the route table. */
export const historyRoutes = {
  /** A page of changes, newest first: the owner or a member with can_edit on some area. */
  history: call('GET', '/history', historyQuery, historyAnswer, MEMBER),
  /** The annual P&L right after change `at` (404 when `at` is not a change of this plan); also needs the P&L area. */
  historyPlan: call('GET', '/history/plan', historyPlanQuery, historyPlanAnswer, MEMBER),
  /** Two moments side by side; also needs the P&L area. */
  historyCompare: call('GET', '/history/compare', historyCompareQuery, historyCompareAnswer, MEMBER),
  /**
   * Puts every input back as it stood right after change `at`, as one new change (members are not restored: who may
   * see the plan is decided by the owner's member calls). The owner or a member with can_edit on every area; 403
   * `tier_lock` when the plan then held more cases than the owner's tier allows now.
   */
  historyRestore: call('POST', '/history/restore', historyRestoreRequest, historyRestoreAnswer, EVERY_AREA),
};
