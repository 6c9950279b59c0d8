import { notFound } from '@topline/contract';
import { PlanWorkbook } from '@topline/engine';
import type { Db } from '../db';
import type { CachedAnswer } from '../http/cachedAnswer';
import { type AccessPlan, type EditsFor, PLAN_COLUMNS } from './access';
import { BatchInterval, fixedInterval } from './batchInterval';
import { type LoadedPlan, loadPlanFile } from './planFile';

/**
 * One version of a plan's workbook. Edits are applied to the workbook in place and give a new `CompiledPlan` (same
 * workbook, the next version, no answers yet), so a reader that still holds this one may find the workbook newer
 * than `version`, never older: every answer kept in `answers` is of this version or a newer one.
 */
export interface CompiledPlan {
  workbook: PlanWorkbook;
  /** Database ids of the cases, by the workbook's case index. */
  caseIds: number[];
  version: number;
  /** Serialised answers of this version, by call and case: a warm read is a lookup. */
  answers: Map<string, CachedAnswer>;
}

interface Month {
  year: number;
  month: number;
}

interface Entry {
  planId: number;
  asOf: Month;
  /** The newest version compiled: only ever replaced by a newer one. */
  ready?: CompiledPlan | undefined;
  /** The reload in flight, shared by the reads that wait for it. */
  building?: Promise<CompiledPlan> | undefined;
  /** Committed writes newer than `ready`, by version: their engine edits, or null when only a reload can follow. */
  pending: Map<number, EditsFor | null>;
  /** Reads waiting for the report of a version, woken by `advance` once every version up to theirs is known. */
  waiting: { version: number; wake: () => void }[];
  /** When edits were last applied (performance.now()), and the wait for the next batch, if reads are waiting. */
  appliedAt: number;
  settling?: Promise<void> | undefined;
  /**
   * Versions this process heard of (a read's access, a write's report) and when, oldest first: those heard of one
   * batch interval ago or earlier bound how far behind a read that names its version may be answered (`readVersion`).
   */
  heard: { version: number; at: number }[];
  /** The newest version the database said another process wrote (0 if none): no report of it will come. */
  elsewhere: number;
}

/**
 * Pending writes applied without waiting for a read (about what the mixed load commits in one interval, so that
 * batches follow the interval rather than this count); beyond MAX_PENDING the entry is dropped.
 */
const APPLY_AT = 64;
const MAX_PENDING = 1000;
/** Reads of a plan's inputs for one reload, while writes keep changing them. */
const BUILD_READS = 3;
/**
 * How long a read waits for the report of a version it has seen in the database but the cache has not heard of
 * before it reloads the plan: a write of this process reports its version a moment after it commits, and a reload
 * costs more.
 */
const REPORT_WAIT_MS = 100;

/**
 * Compiled plan workbooks, one per plan, as of a calendar month. A read asks for at least the version its access
 * loaded: the cache answers its newest version when that is new enough, else reloads the plan from the database
 * (reads share one reload), so any number of API processes can share one database.
 *
 * - A cached plan only moves forward: a read that loaded an older version gets the cached, newer workbook, and a
 *   reload is kept only when it is newer than what is cached. A reload holds at least the version it is named by.
 * - Committed writes of this process arrive as edits (`advance`) and are applied to the cached workbook in version
 *   order, in one batch, by the next read that needs them. A version reported before the one it follows waits for
 *   it; a read that needs a version beyond a missing one reloads, and so does a read of a version written by another
 *   process (after waiting REPORT_WAIT_MS for a report, in case the write was this process's own).
 * - A reload reads the plan's inputs and brings the cached workbook to them in place when it holds the same cases:
 *   only what differs is compiled and recalculated (`PlanWorkbook.sync`). A plan not cached yet, or whose cases
 *   were added, deleted or moved, is built afresh.
 * - While a plan is edited without pause, batches are at least one batch interval apart (`BatchInterval`: 20 to
 *   100 ms, shorter while the event loop has time to spare), and the reads that waited for a batch go on together:
 *   each version costs one recalculation, and each of its answers is computed once (`cachedOnce` shares an answer
 *   being computed). An edit after a quiet moment is applied at once.
 * - A read that names the version it has seen (the `Plan-Version` of an earlier answer: every browser tab does) is
 *   answered at that version or a newer one, and at every version this process heard of one batch interval ago or
 *   earlier (`readVersion`): it sees its own writes and never goes back, and sees others' writes within one batch
 *   instead of waiting for the batch of every write committed a moment before it. A read that names none is answered
 *   at the version its access loaded, every write committed before it.
 * - Nothing is destroyed: a workbook replaced, evicted or dropped may still be read by a request that holds it, and
 *   is freed by the garbage collector once none does. Edits are applied synchronously and reads compute their answers
 *   synchronously once they hold a workbook, so no read sees an edit half applied.
 */
export class WorkbookCache {
  private readonly entries = new Map<number, Entry>();
  /**
   * How often workbooks were built, followed an edit, had to be rebuilt after a refused edit, or were brought in
   * place to the plan read afresh (writes not reported as edits: another process's, or ones only a rebuild followed);
   * and the batches of edits applied (a recalculation each) and the milliseconds they took.
   */
  readonly stats = { builds: 0, applied: 0, fallbacks: 0, synced: 0, batches: 0, batchMs: 0 };
  /** The least time between two batches of edits applied to a plan's workbook. */
  readonly interval: BatchInterval;

  /**
   * @param maxPlans plans kept, the least recently read evicted first
   * @param applyEveryMs the least time between two batches of edits applied to a plan's workbook: while a plan is
   *   edited without pause, reads that need the next version wait for one batch of every write meanwhile instead of
   *   each write costing a recalculation and its answers anew. Without it, the interval follows how busy the event
   *   loop is (`BatchInterval`).
   * @param reportWaitMs how long a read waits for the report of a version before it reloads the plan
   *   (REPORT_WAIT_MS), unless the database said another process wrote it
   */
  constructor(
    private readonly maxPlans = 200,
    applyEveryMs?: number,
    private readonly reportWaitMs = REPORT_WAIT_MS,
  ) {
    this.interval = applyEveryMs === undefined ? new BatchInterval() : fixedInterval(applyEveryMs);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The workbook of the plan at this version or a newer one, as of this month, if it is built: no waiting. */
  peek(planId: number, version: number, asOf: Month): CompiledPlan | undefined {
    const entry = this.entries.get(planId);
    if (!entry || !sameMonth(entry.asOf, asOf)) return undefined;
    return this.atLeast(entry, version);
  }

  /**
   * The version a read of the plan must be answered at, given the plan's version its access loaded (`loaded`: every
   * write committed before the read) and the version the caller names (`seen`, from an earlier answer), if any:
   * without one, `loaded`; with one, `seen` and every version heard of at least one batch interval ago, so that a
   * caller sees its own writes at once and others' within a batch.
   */
  readVersion(planId: number, loaded: number, seen: number | null): number {
    const entry = this.entries.get(planId);
    // Nothing cached yet: the build reads the newest version anyway.
    if (!entry) return loaded;
    this.hear(entry, loaded);
    if (seen === null) return loaded;
    // A version beyond the loaded one was never committed (the caller's access is read afresh when it names a newer
    // one than it holds): not waited for.
    return Math.max(Math.min(seen, loaded), heardBefore(entry, performance.now() - this.interval.current()));
  }

  /**
   * The workbook of the plan at the version of `plan` or a newer one, as of a calendar month (the "current" month of
   * MODEL.md).
   * @throws ApiError 404 when the plan is gone
   */
  async get(db: Db, plan: Pick<AccessPlan, 'id' | 'version'>, asOf: Month): Promise<CompiledPlan> {
    const entry = this.entryFor(plan.id, asOf);
    // A read as of an earlier month than the cached one (a clock at the turn of a month): a workbook of its own.
    if (!entry) return this.build(db, plan.id, asOf);
    const cached = this.atLeast(entry, plan.version);
    if (cached) return cached;
    // Reads that waited for the same batch go on together: the first to ask for an answer computes it, and the others
    // share that computation (`cachedOnce`).
    return this.follow(db, entry, plan.version);
  }

  /**
   * Waits until the entry holds `version` or a newer one: for the report of the write and the next batch of edits
   * when the cached workbook can follow it, else for a reload.
   */
  private async follow(db: Db, entry: Entry, version: number): Promise<CompiledPlan> {
    if (entry.ready && !entry.building) {
      await this.reported(entry, version);
      while (entry.ready && this.known(entry, true) >= version) {
        const followed = this.atLeast(entry, version);
        if (followed) return followed;
        await this.settled(entry);
      }
    }
    // A reload in flight may have read the database before this version was committed; one started now cannot have.
    const first = await this.reload(db, entry);
    const fresh = this.atLeast(entry, version, true) ?? (first.version >= version ? first : undefined);
    if (fresh) return fresh;
    const second = await this.reload(db, entry);
    return this.atLeast(entry, version, true) ?? second;
  }

  /**
   * Follows a write committed by this process: its engine edits wait, in version order, to be applied by the next
   * read instead of a reload. `null` edits can only be followed by a reload, which the next read of that version
   * or a newer one makes.
   */
  advance(planId: number, version: number, editsFor: EditsFor | null): void {
    const entry = this.entries.get(planId);
    if (!entry || (entry.ready && version <= entry.ready.version)) return;
    this.hear(entry, version);
    entry.pending.set(version, editsFor);
    if (entry.waiting.length > 0) this.wake(entry, this.known(entry));
    if (entry.pending.size >= APPLY_AT) this.catchUp(entry);
    if (entry.pending.size > MAX_PENDING) this.entries.delete(planId);
  }

  /**
   * Hears of a plan's new version from the database (`listenForChanges`). A version another process wrote will never
   * be reported as edits: the reads that wait for it, and those that come later, reload at once instead of waiting
   * REPORT_WAIT_MS for a report.
   */
  planVersion(planId: number, version: number, elsewhere: boolean): void {
    const entry = this.entries.get(planId);
    if (!elsewhere || !entry || version <= entry.elsewhere || (entry.ready && version <= entry.ready.version)) return;
    entry.elsewhere = version;
    this.hear(entry, version);
    this.wake(entry, version);
  }

  /** Wakes the reads that wait for the report of a version up to `version`. */
  private wake(entry: Entry, version: number): void {
    const woken = entry.waiting.filter((w) => w.version <= version);
    entry.waiting = entry.waiting.filter((w) => w.version > version);
    for (const w of woken) w.wake();
  }

  /** Forgets the plan (deleted); a request still reading its workbook keeps it. */
  drop(planId: number): void {
    this.entries.delete(planId);
  }

  clear(): void {
    this.entries.clear();
  }

  /** The entry of the plan as of this month, made (or made anew for a later month) if needed; none for an earlier one. */
  private entryFor(planId: number, asOf: Month): Entry | undefined {
    const cached = this.entries.get(planId);
    if (cached && !sameMonth(cached.asOf, asOf) && monthIndex(asOf) < monthIndex(cached.asOf)) return undefined;
    const entry: Entry =
      cached && sameMonth(cached.asOf, asOf)
        ? cached
        : { planId, asOf, pending: new Map(), waiting: [], appliedAt: 0, heard: [], elsewhere: 0 };
    // Last used last: eviction takes the plan read least recently.
    this.entries.delete(planId);
    this.entries.set(planId, entry);
    if (entry !== cached) this.evict();
    return entry;
  }

  /**
   * Notes that the plan is at `version` or a newer one, from now on, and forgets what no read can need any more: of
   * the versions heard of a longest interval ago or earlier, all but the newest.
   */
  private hear(entry: Entry, version: number): void {
    const last = entry.heard.at(-1);
    if (last && last.version >= version) return;
    const now = performance.now();
    entry.heard.push({ version, at: now });
    const old = heardCount(entry, now - this.interval.max);
    if (old > 1) entry.heard.splice(0, old - 1);
  }

  /**
   * The newest version up to which every version is known: the workbook's, then the reported ones without a gap
   * (`byEdits`: up to the first that only a reload can follow).
   */
  private known(entry: Entry, byEdits = false): number {
    let version = entry.ready?.version ?? 0;
    while (byEdits ? entry.pending.get(version + 1) : entry.pending.has(version + 1)) version++;
    return version;
  }

  /**
   * Resolves once every version up to `version` is reported, or the database said another process wrote it (a
   * version up to the one `planVersion` heard of), or after `reportWaitMs` (and the I/O that arrived meanwhile, so
   * that a report held up by a busy event loop still counts).
   */
  private reported(entry: Entry, version: number): Promise<void> {
    if (this.known(entry) >= version || version <= entry.elsewhere) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiter = { version, wake: () => resolve() };
      entry.waiting.push(waiter);
      setTimeout(() => {
        setImmediate(() => {
          entry.waiting = entry.waiting.filter((w) => w !== waiter);
          resolve();
        });
      }, this.reportWaitMs).unref();
    });
  }

  /** Resolves when the entry may apply its next batch of edits (a batch interval after the last one). */
  private settled(entry: Entry): Promise<void> {
    const wait = this.interval.current() - (performance.now() - entry.appliedAt);
    if (wait <= 0) return Promise.resolve();
    entry.settling ??= new Promise<void>((resolve) =>
      setTimeout(() => {
        entry.settling = undefined;
        resolve();
      }, wait),
    );
    return entry.settling;
  }

  /**
   * The entry's newest workbook if it is at least at `version`: as it is, else with the pending edits applied when
   * the last batch is a batch interval old (or `now`).
   */
  private atLeast(entry: Entry, version: number, now = false): CompiledPlan | undefined {
    const ready =
      entry.ready &&
      entry.ready.version < version &&
      (now || performance.now() - entry.appliedAt >= this.interval.current())
        ? this.catchUp(entry)
        : entry.ready;
    return ready && ready.version >= version ? ready : undefined;
  }

  /**
   * Applies the pending edits that follow the entry's version without a gap, in one batch, and answers the entry's
   * newest workbook. Anything the engine refuses leaves the entry without a workbook: the next read builds it.
   */
  private catchUp(entry: Entry): CompiledPlan | undefined {
    const ready = entry.ready;
    if (!ready || entry.pending.size === 0) return ready;
    const batch: EditsFor[] = [];
    for (let editsFor = entry.pending.get(ready.version + 1); editsFor; ) {
      batch.push(editsFor);
      entry.pending.delete(ready.version + batch.length);
      editsFor = entry.pending.get(ready.version + batch.length + 1);
    }
    if (batch.length === 0) return ready;
    const started = performance.now();
    try {
      const edits = batch.flatMap((editsFor) => editsFor(ready.caseIds));
      if (edits.some((e) => 'caseIndex' in e && e.caseIndex < 0)) throw new RangeError('case not in the workbook');
      ready.workbook.apply(edits);
    } catch {
      this.stats.fallbacks++;
      entry.ready = undefined;
      return undefined;
    }
    this.stats.applied += batch.length;
    this.stats.batches++;
    entry.appliedAt = performance.now();
    this.stats.batchMs += entry.appliedAt - started;
    entry.ready = {
      workbook: ready.workbook,
      caseIds: ready.caseIds,
      version: ready.version + batch.length,
      answers: new Map(),
    };
    return entry.ready;
  }

  /**
   * The entry's reload in flight, or a new one; a reload newer than the entry's workbook replaces it. The plan is
   * read afresh, and the entry's workbook brought to it in place when it holds the same cases (only what differs is
   * compiled and recalculated); else, or when the engine refuses that, a new workbook is built.
   */
  private reload(db: Db, entry: Entry): Promise<CompiledPlan> {
    if (entry.building) return entry.building;
    const building: Promise<CompiledPlan> = this.read(db, entry.planId).then(
      (loaded) => {
        if (entry.building === building) entry.building = undefined;
        const ready = entry.ready;
        // Edits applied meanwhile may have taken the workbook past what was read: it never goes back.
        if (ready && ready.version >= Number(loaded.plan.version)) return ready;
        const built = (ready && this.synced(ready, loaded)) ?? this.compiled(loaded, entry.asOf);
        entry.ready = built;
        for (const version of entry.pending.keys()) if (version <= built.version) entry.pending.delete(version);
        return built;
      },
      (error: unknown) => {
        if (entry.building === building) entry.building = undefined;
        throw error;
      },
    );
    entry.building = building;
    return building;
  }

  /**
   * Builds the plan's workbook from the database (`read`).
   * @throws ApiError 404 when the plan is gone
   */
  private async build(db: Db, planId: number, asOf: Month): Promise<CompiledPlan> {
    return this.compiled(await this.read(db, planId), asOf);
  }

  /**
   * Reads the plan's inputs. The plan's version is read before and after them: when it stayed the same, no write
   * committed in between and the version names exactly what was read. Else they are read again; inputs that still
   * raced writes are named by the version read first, which they hold at least: the edits of the later versions,
   * applied again in order, end where the database does.
   * @throws ApiError 404 when the plan is gone
   */
  private async read(db: Db, planId: number): Promise<LoadedPlan> {
    let loaded: LoadedPlan | undefined;
    for (let attempt = 0; attempt < BUILD_READS; attempt++) {
      const plan = await db<AccessPlan>('business_plans')
        .where({ id: planId })
        .first(...PLAN_COLUMNS);
      if (!plan) throw notFound('the business plan');
      loaded = await loadPlanFile(db, plan);
      const after = await db<AccessPlan>('business_plans').where({ id: planId }).first('version');
      if (Number(after?.version) === Number(plan.version)) break;
    }
    if (!loaded) throw notFound('the business plan');
    return loaded;
  }

  /** A new workbook of the plan as read. */
  private compiled(loaded: LoadedPlan, asOf: Month): CompiledPlan {
    this.stats.builds++;
    const workbook = PlanWorkbook.build(loaded.file, { asOf });
    return { workbook, caseIds: loaded.caseIds, version: Number(loaded.plan.version), answers: new Map() };
  }

  /**
   * The workbook of `ready` brought in place to the plan as read (`PlanWorkbook.sync`), when it holds the same cases
   * in the same order; undefined when it does not, or when the engine refuses the plan as read (the workbook is then
   * unchanged, and a build reports why).
   */
  private synced(ready: CompiledPlan, loaded: LoadedPlan): CompiledPlan | undefined {
    const sameCases =
      ready.caseIds.length === loaded.caseIds.length && ready.caseIds.every((id, i) => id === loaded.caseIds[i]);
    if (!sameCases) return undefined;
    try {
      ready.workbook.sync(loaded.file);
    } catch {
      return undefined;
    }
    this.stats.synced++;
    return {
      workbook: ready.workbook,
      caseIds: ready.caseIds,
      version: Number(loaded.plan.version),
      answers: new Map(),
    };
  }

  private evict(): void {
    while (this.entries.size > this.maxPlans) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) return;
      this.entries.delete(oldest);
    }
  }
}

/** How many of the versions the entry heard of were heard at `time` or earlier (they are kept in time order). */
function heardCount(entry: Entry, time: number): number {
  let low = 0;
  let high = entry.heard.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((entry.heard[middle]?.at ?? time) <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The newest version heard of at `time` or earlier (0 if none). */
function heardBefore(entry: Entry, time: number): number {
  const count = heardCount(entry, time);
  return count > 0 ? (entry.heard[count - 1]?.version ?? 0) : 0;
}

const sameMonth = (a: Month, b: Month) => a.year === b.year && a.month === b.month;
const monthIndex = (m: Month) => m.year * 12 + m.month;
