import { AsyncResource } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import {
  AREAS,
  clampRoles,
  fullRoles,
  isPlanReadOnly,
  LEVELS,
  type Level,
  levelFor as levelOf,
  noPermission,
  notFound,
  type Operation,
  ownedPlanLimit,
  ownerOnly,
  type Roles,
  type Scope,
  tierLock,
  isTierLocked as tierLocks,
  unauthorized,
} from '@topline/contract';
import type { PlanEdit } from '@topline/engine';
import type { Knex } from 'knex';
import { type Db, transactionBeginAhead } from '../db';
import { mayWrite, PLAN_VERSION_ONLY } from './accessWrites';
import { type ChangeActor, changeSettings, currentActor } from './changes';
import { type TierInfo, tierFrom, type UserRow } from './users';

export interface PlanRow {
  id: number;
  owner_id: number;
  name: string;
  icon: Buffer | null;
  icon_type: string | null;
  template: 'saas' | 'selfserve';
  currency: 'JPY' | 'USD';
  arr: number;
  period: number;
  arpa: number;
  start_year: number;
  start_month: number;
  theme_color: 'purple' | 'black' | 'gray';
  version: number;
}

/** The engine edits that a committed write made, given the cached workbook's case ids (index -> id). */
export type EditsFor = (caseIds: number[]) => PlanEdit[];

export interface PlanAccess {
  plan: AccessPlan;
  /**
   * Told after each committed write of this request: the plan's new version and the same change as engine edits
   * (null when the workbook must be rebuilt instead), so a warm cached workbook can follow without a rebuild.
   */
  changed?: (version: number, edits: EditsFor | null) => void;
  /** The plan version the caller names as seen in an earlier answer (`Plan-Version`), if any. */
  seen?: number | null;
  /** Told the version of the workbook a read was answered from. */
  served?: (version: number) => void;
  isOwner: boolean;
  /** Effective roles: the owner has can_edit everywhere; members are clamped by the owner's tier. */
  roles: Roles;
  ownerTier: TierInfo;
  /** The plan is over its owner's owned-plan limit (after a downgrade): readable, every write refused. */
  readOnly: boolean;
}

export function rolesOf(row: Record<string, unknown>): Roles {
  const roles = {} as Roles;
  for (const area of AREAS) {
    const value = row[area];
    roles[area] = (LEVELS as readonly unknown[]).includes(value) ? (value as Level) : 'no_access';
  }
  return roles;
}

/**
 * Loads a plan for a caller who owns it or is a member of it (invitation received).
 * Anyone else gets 404, so a stranger cannot even learn that the plan exists.
 * @throws ApiError 404
 */
export async function planAccess(db: Db, user: UserRow, planId: number, today: Date): Promise<PlanAccess> {
  // One round trip: the plan, its owner's subscription and the caller's membership.
  const row = await db('business_plans as bp')
    .leftJoin('subscriptions as s', 's.user_id', 'bp.owner_id')
    .leftJoin('plan_members as pm', (join) =>
      join.on('pm.plan_id', 'bp.id').andOnVal('pm.user_id', user.id).andOnVal('pm.status', 'received'),
    )
    .where('bp.id', planId)
    .first(...PLAN_COLUMNS.map((c) => `bp.${c}`), ...ACCESS_COLUMNS, olderPlans(db));
  if (!row) throw notFound('the business plan');
  return accessOf(factsFrom(row), user.id, today);
}

/** The plan as plan-scoped calls see it: every column but the icon's bytes. */
export type AccessPlan = Omit<PlanRow, 'icon'>;

/** The plan columns a plan-scoped call and a workbook build read: all but the icon's bytes. */
export const PLAN_COLUMNS = [
  'id',
  'owner_id',
  'name',
  'icon_type',
  'template',
  'currency',
  'arr',
  'period',
  'arpa',
  'start_year',
  'start_month',
  'theme_color',
  'version',
] as const satisfies readonly (keyof AccessPlan)[];

const USER_COLUMNS = [
  'id',
  'email',
  'password_hash',
  'google_sub',
  'auth_provider',
  'name',
  'picture',
  'company_name',
  'position',
  'employees',
  'stage',
  'token_version',
] as const;

const ACCESS_COLUMNS = [
  's.tier as owner_tier',
  's.trial_end as owner_trial_end',
  'pm.id as member_id',
  ...AREAS.map((a) => `pm.${a} as role_${a}`),
];

/** How many plans the owner made before this one: those up to the tier's limit keep working (`isPlanReadOnly`). */
const olderPlans = (db: Db) =>
  db.raw(
    '(SELECT count(*) FROM business_plans AS older WHERE older.owner_id = bp.owner_id AND older.id < bp.id) AS older_plans',
  );

/**
 * What decides a user's access to a plan: the plan, its owner's subscription and the user's membership as stored.
 * It holds no date, so it can be kept until one of those rows changes (`AccessCache`); `accessOf` applies today.
 */
export interface AccessFacts {
  plan: AccessPlan;
  ownerSubscription: { tier: string; trial_end: string | null } | undefined;
  /** The member's roles as stored, or null when the user is not a received member. */
  memberRoles: Roles | null;
  /** How many plans the owner made before this one. */
  olderPlans: number;
}

/** A signed-in user and what decides their access to one plan; null parts are missing rows. */
export interface SignedInFacts {
  user: UserRow | null;
  facts: AccessFacts | null;
}

/**
 * The signed-in user and what decides their access to a plan, in one round trip: the hot path of every plan-scoped
 * call. The objects are frozen, since `AccessCache` shares them between requests.
 */
export async function loadSignedInFacts(db: Db, userId: number, planId: number): Promise<SignedInFacts> {
  const row = await db('users as u')
    .leftJoin('business_plans as bp', (join) => join.onVal('bp.id', planId))
    .leftJoin('subscriptions as s', 's.user_id', 'bp.owner_id')
    .leftJoin('plan_members as pm', (join) =>
      join.on('pm.plan_id', 'bp.id').andOn('pm.user_id', 'u.id').andOnVal('pm.status', 'received'),
    )
    .where('u.id', userId)
    .first(
      ...PLAN_COLUMNS.map((c) => `bp.${c}`),
      ...ACCESS_COLUMNS,
      olderPlans(db),
      ...USER_COLUMNS.map((c) => `u.${c} as user_${c}`),
    );
  if (!row) return { user: null, facts: null };
  const user = Object.freeze(Object.fromEntries(USER_COLUMNS.map((c) => [c, row[`user_${c}`]]))) as UserRow;
  return { user, facts: row.id === null || row.id === undefined ? null : factsFrom(row) };
}

/**
 * The signed-in user and their access to the plan, as of today.
 * @throws ApiError 401 when the user is gone or signed out since the token was issued, 404 as `planAccess`
 */
export function signedInAccess(
  loaded: SignedInFacts,
  claims: { userId: number; tokenVersion: number },
  today: Date,
): { user: UserRow; access: PlanAccess } {
  const { user, facts } = loaded;
  if (!user || user.token_version !== claims.tokenVersion) throw unauthorized();
  if (!facts) throw notFound('the business plan');
  return { user, access: accessOf(facts, user.id, today) };
}

function factsFrom(row: Record<string, unknown>): AccessFacts {
  const plan = Object.freeze(Object.fromEntries(PLAN_COLUMNS.map((c) => [c, row[c]]))) as AccessPlan;
  const ownerSubscription = row.owner_tier
    ? Object.freeze({ tier: row.owner_tier as string, trial_end: (row.owner_trial_end as string | null) ?? null })
    : undefined;
  const member = row.member_id !== null && row.member_id !== undefined;
  const memberRoles = member
    ? Object.freeze(rolesOf(Object.fromEntries(AREAS.map((a) => [a, row[`role_${a}`]]))))
    : null;
  return Object.freeze({ plan, ownerSubscription, memberRoles, olderPlans: Number(row.older_plans ?? 0) });
}

/** A fresh access object (callers attach `changed`), with the owner's tier as of today. */
function accessOf(facts: AccessFacts, userId: number, today: Date): PlanAccess {
  const ownerTier = tierFrom(facts.ownerSubscription, today);
  const readOnly = isPlanReadOnly(ownerTier.tier, facts.olderPlans);
  if (facts.plan.owner_id === userId)
    return { plan: facts.plan, isOwner: true, roles: fullRoles(), ownerTier, readOnly };
  if (!facts.memberRoles) throw notFound('the business plan');
  const roles = clampRoles({ ...facts.memberRoles }, ownerTier.tier);
  return { plan: facts.plan, isOwner: false, roles, ownerTier, readOnly };
}

export const levelFor = (access: PlanAccess, scope: Scope): Level => levelOf(access.roles, scope);

export const isTierLocked = (access: PlanAccess, scope: Scope) => tierLocks(access.ownerTier.tier, scope);

/**
 * Enforces the owner's tier first (403 `tier_lock`), then the caller's area role (403 `no_permission`).
 * @throws ApiError 403
 */
export function requireScope(access: PlanAccess, scope: Scope, operation: Operation): void {
  if (isTierLocked(access, scope)) throw tierLock(`the ${scope} area`);
  const level = levelFor(access, scope);
  if (level === 'no_access' || (operation === 'write' && level !== 'can_edit')) throw noPermission();
  if (operation === 'write') requireWritable(access);
}

/**
 * A plan over its owner's owned-plan limit takes no write (deleting it is no write to it: it goes).
 * @throws ApiError 403 `tier_lock` with the `owned_plans` limit
 */
export function requireWritable(access: PlanAccess): void {
  if (!access.readOnly) return;
  const max = ownedPlanLimit(access.ownerTier.tier);
  throw tierLock('editing a business plan beyond the owned-plan limit', { name: 'owned_plans', max, value: max + 1 });
}

/** @throws ApiError 403 `owner_only` */
export function requireOwner(access: PlanAccess): void {
  if (!access.isOwner) throw ownerOnly();
}

/**
 * Locks the plan's row until the transaction ends, so that writes to one plan serialise and every limit or
 * invariant checked after the lock (cases, editors) holds under any interleaving. Taken first, before any other row
 * of the plan, so that two writes never wait for each other's rows.
 * @throws ApiError 404 when the plan is gone (deleted by a write that committed meanwhile)
 */
export async function lockPlan(trx: Db, planId: number): Promise<void> {
  const row = await trx('business_plans').where({ id: planId }).forUpdate().first('id');
  if (!row) throw notFound('the business plan');
}

/**
 * `lockPlan`, and the transaction's writes to the plan named as one change of `actor` (`changes.ts`), in one round
 * trip; the plan's case ids are read with it (`requireCase`).
 * @throws ApiError 404 as `lockPlan`
 */
async function lockPlanForChange(trx: Db, planId: number, actor: ChangeActor, group = false): Promise<void> {
  const { sql, bindings } = changeSettings(planId, actor);
  const { rows } = (await trx.raw(
    `SELECT id, version, ${sql}, ARRAY(SELECT c.id FROM cases AS c WHERE c.plan_id = business_plans.id) AS case_ids
     FROM business_plans WHERE id = ? FOR UPDATE`,
    [...bindings, planId],
  )) as { rows: { version: number | string; case_ids: (number | string)[] }[] };
  const [row] = rows;
  if (!row) throw notFound('the business plan');
  lockedPlans.set(trx, {
    planId,
    caseIds: caseIdSet(row.case_ids),
    bumps: group ? { from: Number(row.version), count: 0 } : null,
  });
}

/**
 * Names the transaction's next writes to the plan as a new change of `actor`, and reads the plan's case ids again, in
 * one round trip (a later write of a group commit: the plan's lock is held already).
 */
async function nameNextChange(trx: Db, planId: number, actor: ChangeActor): Promise<void> {
  const { sql, bindings } = changeSettings(planId, actor);
  const { rows } = (await trx.raw(`SELECT ${sql}, ARRAY(SELECT c.id FROM cases AS c WHERE c.plan_id = ?) AS case_ids`, [
    ...bindings,
    planId,
  ])) as { rows: { case_ids: (number | string)[] }[] };
  const locked = lockedPlans.get(trx);
  if (locked?.planId === planId) locked.caseIds = caseIdSet(rows[0]?.case_ids ?? []);
}

/** A `pg` client in pipeline mode (`db.ts`): it sends each statement at once, without waiting for earlier answers. */
interface PipelinedClient {
  pipeline: true;
  /** The client's wire to the server (`pg`'s `Connection`). */
  connection?: { stream?: { cork?: () => void; uncork?: () => void } };
}

/**
 * Holds back what is sent on the connection until the answer is called, so that statements sent one after another
 * leave in one packet (one system call) rather than one each.
 */
function cork(connection: PipelinedClient): () => void {
  const stream = connection.connection?.stream;
  stream?.cork?.();
  return () => stream?.uncork?.();
}

/** A statement of a blind write (`planWriteBlind`): a knex query, sent as knex would send it. */
export type BlindStatement = Knex.QueryBuilder | Knex.Raw;

/**
 * Sends a blind write's statements on the transaction's pipelined connection at once, in order, each as knex sends
 * it (its `query` event before, its `query-response` event after, so that every listener sees it as any other):
 * nothing waits for an answer. Answers a promise per statement, each already handled (a failure is read from the
 * promise when it is awaited; the transaction is aborted and fails whatever follows).
 */
function sendAhead(connection: PipelinedClient, trx: Db, statements: readonly BlindStatement[]): Promise<unknown>[] {
  const client = trx.client as unknown as {
    /** Knex's own send: its `query` event, then the driver's query, resolving to the query with its `response`. */
    query(connection: unknown, query: object): Promise<{ response?: unknown }>;
    emit(event: 'query-response', response: unknown, query: object, builder: BlindStatement): boolean;
  };
  return statements.flatMap((builder) => {
    const compiled = builder.toSQL() as Knex.Sql | Knex.Sql[];
    return (Array.isArray(compiled) ? compiled : [compiled]).map((sql) => {
      const query = { ...sql, queryContext: builder.queryContext() };
      const sent = client
        .query(connection, query)
        .then((answered) => client.emit('query-response', answered.response, query, builder));
      sent.catch(() => undefined);
      return sent;
    });
  });
}

/** Runs a blind write's statements: all sent at once where the connection pipelines, else one after another. */
async function runStatements(trx: Db, statements: readonly BlindStatement[]): Promise<void> {
  const pipelined = await pipelinedConnection(trx);
  if (!pipelined) {
    for (const statement of statements) await statement;
    return;
  }
  const uncork = cork(pipelined);
  let sent: Promise<unknown>[];
  try {
    sent = sendAhead(pipelined, trx, statements);
  } finally {
    uncork();
  }
  await Promise.all(sent);
}

/** The transaction's connection when it pipelines (PostgreSQL); undefined on PGlite, which has no round trips. */
async function pipelinedConnection(trx: Db): Promise<PipelinedClient | undefined> {
  const connection: unknown = await (trx.client as { acquireConnection(): Promise<unknown> }).acquireConnection();
  const pipelined = (connection as Partial<PipelinedClient> | null)?.pipeline === true;
  return pipelined ? (connection as PipelinedClient) : undefined;
}

/**
 * Names the transaction's next writes to the plan as a new change of `actor`, sent ahead of them on the pipelined
 * connection (`sendAhead`): the statement is on the wire before the write's own, which follow without waiting for its
 * answer. Unlike `nameNextChange` it does not read the plan's case ids again: for a write after which they still stand.
 */
function nameNextChangeAhead(connection: PipelinedClient, trx: Db, planId: number, actor: ChangeActor) {
  const { sql, bindings } = changeSettings(planId, actor);
  return sendAhead(connection, trx, [trx.raw(`SELECT ${sql}`, bindings)]);
}

/** The plan's case ids as `ARRAY(SELECT c.id ...)` answers them (numbers, or strings for big integers). */
const caseIdSet = (ids: (number | string)[]): ReadonlySet<number> => new Set(ids.map(Number));

/** What a `planTransaction` knows of its plan, under the plan's lock. */
interface LockedPlan {
  planId: number;
  /**
   * The plan's cases as the lock read them (or the last `nameNextChange`): cases are added and removed only under
   * that lock, so they stand until the transaction's own body adds or removes one.
   */
  caseIds: ReadonlySet<number>;
  /**
   * In a group commit, the version the lock read and the versions given out since (`bumpVersion`), written once
   * before the commit (`bumpsStatement`); null when each bump is written at once.
   */
  bumps: { from: number; count: number } | null;
}

const lockedPlans = new WeakMap<Db, LockedPlan>();

/**
 * The statement that writes the versions a group commit gave out as the plan's version, once, before the commit; none
 * when the group gave out none.
 */
function bumpsStatement(trx: Db, planId: number): BlindStatement[] {
  const bumps = lockedPlans.get(trx)?.bumps;
  if (!bumps || bumps.count === 0) return [];
  return [
    trx('business_plans')
      .where({ id: planId })
      .update({ version: bumps.from + bumps.count, updated_at: trx.fn.now() })
      .queryContext(PLAN_VERSION_ONLY),
  ];
}

/**
 * Checks that the case is one of the plan's: from what the plan's lock read when `trx` is a `planTransaction` of this
 * plan (no round trip), else from the database. Not for a body that has added or removed cases itself.
 * @throws ApiError 404 when the case is not in this plan
 */
export async function requireCase(trx: Db, planId: number, caseId: number): Promise<void> {
  if (lockedPlans.get(trx)?.planId === planId) return requireLockedCase(trx, planId, caseId);
  const row = await trx('cases').where({ plan_id: planId, id: caseId }).first('id');
  if (!row) throw notFound('the case');
}

/** A write waiting for its plan's turn (`planTransaction`). */
interface QueuedWrite {
  body: (trx: Db) => Promise<unknown>;
  /**
   * The same write as statements whose answers it does not read (`planWriteBlind`), if it is one: in a group commit on
   * a pipelined connection they are sent without waiting, and the group's next write follows at once.
   */
  blind?: ((trx: Db) => BlindWrite<unknown>) | undefined;
  actor: ChangeActor;
  /** Runs a function in the async context of the request that made the write (its actor, its access writes). */
  inContext: <R>(fn: () => R) => R;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The plans' write queues of this process, one per database: the writes waiting for each plan being written (a plan
 * is in the map while its queue runs). The row lock of `lockPlan` is what serialises writes to a plan across
 * processes; queueing them in the process first keeps the writers that wait from each holding a pooled connection, so
 * that a burst of writes to one plan cannot starve every other request of connections.
 */
const writeQueues = new WeakMap<Db, Map<number, QueuedWrite[]>>();

/** The most writes of one plan committed together (`runGroup`). */
const MAX_GROUP = 32;

/**
 * What the plans' write queues of a database did in this process: the transactions they ran (a group commit, or a
 * write alone; a group that one write refused counts once, with the writes it then ran alone), the writes those held,
 * and the milliseconds from each one's start to its end.
 */
export interface PlanWriteStats {
  transactions: number;
  writes: number;
  ms: number;
}

const writeStats = new WeakMap<Db, PlanWriteStats>();

/** The write queues' counters for `db` (`PlanWriteStats`), kept from the first write through this process. */
export function planWriteStats(db: Db): PlanWriteStats {
  let stats = writeStats.get(db);
  if (!stats) {
    stats = { transactions: 0, writes: 0, ms: 0 };
    writeStats.set(db, stats);
  }
  return stats;
}

/**
 * Runs `body` in a transaction that holds the plan's lock: queued in this process behind the plan's other writes,
 * then `lockPlan` (which waits for other processes' writes and answers 404 when the plan is gone). What `body` writes
 * to the plan's inputs is recorded as one change of the request's caller (`changes.ts`).
 *
 * Writes that queued while the plan's previous transaction ran are committed together, one after another in the
 * order they came, each recorded as its own change (group commit: one lock and one commit for a burst of writes).
 * When one of them refuses (its body throws), nothing of the group is written, and each runs again on its own.
 *
 * `blind`, when given, is the same write as statements whose answers it does not read (`planWriteBlind`): in a group
 * on a pipelined connection they are sent without waiting, and the group's next write follows at once.
 */
export function planTransaction<T>(
  db: Db,
  planId: number,
  body: (trx: Db) => Promise<T>,
  blind?: (trx: Db) => BlindWrite<T>,
): Promise<T> {
  const queues = writeQueues.get(db) ?? new Map<number, QueuedWrite[]>();
  writeQueues.set(db, queues);
  return new Promise<T>((resolve, reject) => {
    // The request's async context (`AsyncLocalStorage.snapshot` does the same, and builds deprecation wrappers each
    // time).
    const context = new AsyncResource('topline.planWrite');
    const write: QueuedWrite = {
      body,
      blind,
      actor: currentActor(),
      inContext: (fn) => context.runInAsyncScope(fn),
      resolve: resolve as (value: unknown) => void,
      reject,
    };
    const queue = queues.get(planId);
    if (queue) {
      queue.push(write);
      return;
    }
    queues.set(planId, [write]);
    runQueue(db, queues, planId).catch((error: unknown) => {
      // Not expected (each write answers for itself), but a queue must never stay stuck: whoever waits hears of it.
      for (const waiting of queues.get(planId) ?? []) waiting.reject(error);
      queues.delete(planId);
    });
  });
}

/**
 * Runs the plan's queued writes, a group at a time, until none is left. A group's writers hear their answers once
 * the next group's transaction has started: the next commit waits neither for the answers nor for what they set off
 * (the workbook's recalculation, the readers it wakes).
 */
async function runQueue(db: Db, queues: Map<number, QueuedWrite[]>, planId: number): Promise<void> {
  const stats = planWriteStats(db);
  let answerLast: Answers | undefined;
  try {
    for (;;) {
      const queue = queues.get(planId) ?? [];
      if (queue.length === 0) {
        queues.delete(planId);
        return;
      }
      const group = queue.splice(0, MAX_GROUP);
      const started = performance.now();
      // A blind write alone is a group of one: its statements and the version go ahead of the COMMIT.
      const running =
        group.length === 1 && group[0] && !group[0].blind
          ? runAlone(db, planId, group[0])
          : runGroup(db, planId, group);
      if (answerLast) setImmediate(answerLast);
      answerLast = await running;
      stats.transactions++;
      stats.writes += group.length;
      stats.ms += performance.now() - started;
    }
  } finally {
    answerLast?.();
  }
}

/** Answers the writers of a committed (or failed) transaction. */
type Answers = () => void;

async function runAlone(db: Db, planId: number, write: QueuedWrite): Promise<Answers> {
  try {
    const value = await transactionBeginAhead(db, async (trx) => {
      await lockPlanForChange(trx, planId, write.actor);
      return write.inContext(() => write.body(trx));
    });
    return () => write.resolve(value);
  } catch (error) {
    return () => write.reject(error);
  }
}

async function runGroup(db: Db, planId: number, group: QueuedWrite[]): Promise<Answers> {
  let refused = false;
  let results: unknown[];
  // What was sent ahead without waiting for its answer: change namings, the statements of blind writes, the version.
  const sent: Promise<unknown>[] = [];
  try {
    results = await transactionBeginAhead(db, async (trx) => {
      const answers: unknown[] = [];
      const pipelined = await pipelinedConnection(trx);
      // Whether a write of the group may have added or removed cases since the plan's case ids were last read.
      let casesMayDiffer = false;
      trx.on('query', (query: { method?: string; sql?: string }) => {
        if (mayWrite(query, 'cases')) casesMayDiffer = true;
      });
      // Statements sent one after another without waiting leave together (`cork`) until the group next waits.
      let uncork: (() => void) | undefined;
      const waiting = () => {
        uncork?.();
        uncork = undefined;
      };
      try {
        for (const [index, write] of group.entries()) {
          if (index === 0) await lockPlanForChange(trx, planId, write.actor, true);
          else if (pipelined && !casesMayDiffer) {
            uncork ??= cork(pipelined);
            sent.push(...nameNextChangeAhead(pipelined, trx, planId, write.actor));
          } else {
            // Read the case ids again with the change's name, after a write that may have changed them.
            waiting();
            await nameNextChange(trx, planId, write.actor);
            casesMayDiffer = false;
          }
          const { blind } = write;
          try {
            if (pipelined && blind) {
              uncork ??= cork(pipelined);
              const { statements, value } = write.inContext(() => blind(trx));
              sent.push(...write.inContext(() => sendAhead(pipelined, trx, statements)));
              answers.push(value);
            } else {
              waiting();
              answers.push(await write.inContext(() => write.body(trx)));
            }
          } catch (error) {
            refused = true;
            throw error;
          }
        }
        // The group's version goes ahead of the commit too: what was sent ahead is checked once it has committed.
        if (pipelined) sent.push(...sendAhead(pipelined, trx, bumpsStatement(trx, planId)));
      } finally {
        waiting();
      }
      if (!pipelined) for (const statement of bumpsStatement(trx, planId)) await statement;
      return answers;
    });
    // A statement sent ahead that failed aborted the transaction, and PostgreSQL then answers the COMMIT with a
    // rollback, not an error: nothing of the group was written.
    for (const outcome of await Promise.allSettled(sent)) {
      if (outcome.status === 'rejected') {
        refused = true;
        throw outcome.reason;
      }
    }
  } catch (error) {
    if (!refused) {
      return () => {
        for (const write of group) write.reject(error);
      };
    }
    // Nothing of the group was written. A write alone answers with what refused it; in a group each write runs again
    // on its own, in order, and answers for itself.
    const [only] = group;
    if (group.length === 1 && only) return () => only.reject(error);
    for (const write of group) (await runAlone(db, planId, write))();
    return () => undefined;
  }
  return () => {
    for (const [index, write] of group.entries()) write.resolve(results[index]);
  };
}

/**
 * One write to a plan, in a transaction of its own: locks the plan (`planTransaction`), runs `body` on the transaction
 * (it must not use `db`: PGlite has one connection, which the transaction holds), bumps the version and, once
 * committed, reports the change to whoever caches the plan's workbook: `edits` of what `body` answered, null for a
 * rebuild.
 * @throws ApiError 404 when the plan was deleted meanwhile; whatever `body` throws, with nothing written
 */
export function planWrite<T>(
  db: Db,
  access: PlanAccess,
  body: (trx: Db) => Promise<T>,
  edits: (value: T) => EditsFor | null = () => () => [],
): Promise<T> {
  return writePlan(db, access, body, edits);
}

/**
 * What a blind write sends and answers: statements whose answers it does not read (no read, no `returning`), in the
 * order they must run, and its value. Built under the plan's lock, synchronously; a refusal is thrown from the build,
 * before anything is sent.
 */
export interface BlindWrite<T> {
  statements: readonly BlindStatement[];
  value: T;
}

/**
 * `planWrite` for a write that reads nothing back: a group commit on PostgreSQL sends its statements and goes on to
 * the group's next write without waiting for their answers, so a burst of such writes to one plan costs about one
 * round trip in all rather than one or more each; alone, it is a group of one (its statements and the version update
 * go out with the COMMIT). Its build may use what the plan's lock read (`requireLockedCase`).
 * @throws ApiError as `planWrite`
 */
export function planWriteBlind<T>(
  db: Db,
  access: PlanAccess,
  build: (trx: Db) => BlindWrite<T>,
  edits: (value: T) => EditsFor | null = () => () => [],
): Promise<T> {
  const body = async (trx: Db) => {
    const { statements, value } = build(trx);
    await runStatements(trx, statements);
    return value;
  };
  return writePlan(db, access, body, edits, build);
}

/** `planWrite`, and `planWriteBlind` when `build` is given (the same write as `body`, as statements sent ahead). */
async function writePlan<T>(
  db: Db,
  access: PlanAccess,
  body: (trx: Db) => Promise<T>,
  edits: (value: T) => EditsFor | null,
  build?: (trx: Db) => BlindWrite<T>,
): Promise<T> {
  requireWritable(access);
  const planId = access.plan.id;
  const { value, version } = await planTransaction(
    db,
    planId,
    async (trx) => {
      const value = await body(trx);
      return { value, version: await bumpVersion(trx, planId) };
    },
    build &&
      ((trx) => {
        const { statements, value } = build(trx);
        const version = groupVersion(trx, planId);
        if (version === undefined) throw new Error('a blind write is sent ahead only in a group commit');
        return { statements, value: { value, version } };
      }),
  );
  committed(access, version, edits(value));
  return value;
}

/**
 * `requireCase` from what the plan's lock read, without a round trip: for the build of a blind write.
 * @throws ApiError 404 when the case is not in this plan
 */
export function requireLockedCase(trx: Db, planId: number, caseId: number): void {
  if (!lockedPlan(trx, planId).caseIds.has(caseId)) throw notFound('the case');
}

/** The plan's case ids as the plan's lock read them (or the last change naming), in ascending order. */
export function lockedCaseIds(trx: Db, planId: number): number[] {
  return [...lockedPlan(trx, planId).caseIds].sort((a, b) => a - b);
}

/** What the plan's lock read, for a body running under it (a programming error otherwise). */
function lockedPlan(trx: Db, planId: number): LockedPlan {
  const locked = lockedPlans.get(trx);
  if (locked?.planId !== planId) throw new Error('needs the plan locked by this transaction (planTransaction)');
  return locked;
}

/** In a group commit, gives out the plan's next version at once (`bumpsStatement` writes them); else undefined. */
function groupVersion(trx: Db, planId: number): number | undefined {
  const locked = lockedPlans.get(trx);
  if (locked?.planId !== planId || !locked.bumps) return undefined;
  locked.bumps.count++;
  return locked.bumps.from + locked.bumps.count;
}

/**
 * Every write to a plan's inputs bumps its version in the same transaction; answers the new version. In a group commit
 * the version is given out at once and written once for the group, before it commits (`bumpsStatement`).
 */
export async function bumpVersion(trx: Db, planId: number): Promise<number> {
  const grouped = groupVersion(trx, planId);
  if (grouped !== undefined) return grouped;
  const [row] = await trx('business_plans')
    .where({ id: planId })
    .update({ version: trx.raw('version + 1'), updated_at: trx.fn.now() })
    .returning('version')
    .queryContext(PLAN_VERSION_ONLY);
  return Number(typeof row === 'object' && row !== null ? (row as { version: number }).version : row);
}

/** Reports a committed write to whoever caches this plan's workbook. */
export function committed(access: PlanAccess, version: number, edits: EditsFor | null = () => []): void {
  access.changed?.(version, edits);
}

export async function audit(trx: Db, userId: number, planId: number | null, action: string, detail?: object) {
  await trx('audit_log').insert({
    user_id: userId,
    plan_id: planId,
    action,
    detail: detail ? JSON.stringify(detail) : null,
  });
}
