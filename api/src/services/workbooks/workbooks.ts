import { notFound } from '@topline/contract';
import type { PlanWorkbook } from '@topline/engine';
import type { Db } from '../../db';
import type { CachedAnswer } from '../../http/cachedAnswer';
import { type AccessPlan, type EditsFor, PLAN_COLUMNS } from '../access/access';
import { type LoadedPlan, loadPlanFile } from '../plans/planFile';
import { buildWorkbook } from './build';

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
  /** Committed writes of this process newer than `ready`, by version: their engine edits, or null for a reload. */
  pending: Map<number, EditsFor | null>;
}

/** Reported writes kept for a plan that nobody reads; beyond this the entry is dropped and the next read rebuilds. */
const MAX_PENDING = 1000;
/** Reads of a plan's inputs for one reload, while writes keep changing them. */
const BUILD_READS = 3;

/**
 * Compiled plan workbooks, one per plan, as of a calendar month, keyed by the plan's version. A read names the version
 * it needs (the plan's version as its access loaded it: every write committed before the read, and at least the
 * version the caller names in `Plan-Version`); the cache answers its workbook when that is new enough, else catches up
 * at once, in the request:
 * - Committed writes of this process arrive as engine edits (`advance`); a read that needs them applies every
 *   reported version that follows the workbook's without a gap, in one batch.
 * - When the edits cannot take it there (a write of another process, one only a rebuild follows, or a report not yet
 *   arrived), the read reloads the plan's inputs and brings the cached workbook to them in place when it holds the same
 *   cases: only what differs is compiled and recalculated (`PlanWorkbook.sync`); otherwise it builds afresh. Reads that
 *   need a reload share it.
 * - A cached plan only moves forward. Nothing is destroyed: a workbook replaced, evicted or dropped may still be read
 *   by a request that holds it. Edits are applied synchronously and reads compute their answers synchronously once
 *   they hold a workbook, so no read sees an edit half applied.
 */
export class WorkbookCache {
  private readonly entries = new Map<number, Entry>();
  /**
   * How often workbooks were built, followed an edit, had to be rebuilt after a refused edit, or were brought in
   * place to the plan read afresh; and the batches of edits applied (a recalculation each) and the ms they took.
   */
  readonly stats = { builds: 0, applied: 0, fallbacks: 0, synced: 0, batches: 0, batchMs: 0 };

  /** @param maxPlans plans kept, the least recently read evicted first */
  constructor(private readonly maxPlans = 200) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * The workbook of the plan at `plan.version` or a newer one, as of a calendar month (the "current" month of
   * MODEL.md).
   * @throws ApiError 404 when the plan is gone
   */
  async get(db: Db, plan: Pick<AccessPlan, 'id' | 'version'>, asOf: Month): Promise<CompiledPlan> {
    const entry = this.entryFor(plan.id, asOf);
    // A read as of an earlier month than the cached one (a clock at the turn of a month): a workbook of its own.
    if (!entry) return await this.compiled(await this.read(db, plan.id), asOf);
    const cached = this.atLeast(entry, plan.version);
    if (cached) return cached;
    // A reload in flight may have read the database before this version was committed; one started now cannot have.
    const first = await this.reload(db, entry);
    const fresh = this.atLeast(entry, plan.version) ?? (first.version >= plan.version ? first : undefined);
    if (fresh) return fresh;
    const second = await this.reload(db, entry);
    return this.atLeast(entry, plan.version) ?? second;
  }

  /**
   * Follows a write committed by this process: its engine edits wait, in version order, for the next read that needs
   * them. `null` edits can only be followed by a reload, which the next read of that version or a newer one makes.
   */
  advance(planId: number, version: number, editsFor: EditsFor | null): void {
    const entry = this.entries.get(planId);
    if (!entry || (entry.ready && version <= entry.ready.version)) return;
    entry.pending.set(version, editsFor);
    if (entry.pending.size > MAX_PENDING) this.entries.delete(planId);
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
    const entry: Entry = cached && sameMonth(cached.asOf, asOf) ? cached : { planId, asOf, pending: new Map() };
    // Last used last: eviction takes the plan read least recently.
    this.entries.delete(planId);
    this.entries.set(planId, entry);
    if (entry !== cached) this.evict();
    return entry;
  }

  /** The entry's workbook if it is at least at `version`, with the reported edits applied when it needs them. */
  private atLeast(entry: Entry, version: number): CompiledPlan | undefined {
    const ready = entry.ready && entry.ready.version < version ? this.catchUp(entry) : entry.ready;
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
    // Each write's edits name cases by their index as the writes before it left them.
    let caseIds = ready.caseIds;
    try {
      const edits = batch.flatMap((editsFor) => {
        const made = editsFor(caseIds);
        caseIds = editsFor.caseIdsAfter?.(caseIds) ?? caseIds;
        return made;
      });
      if (edits.some((e) => 'caseIndex' in e && e.caseIndex < 0)) throw new RangeError('case not in the workbook');
      if (caseIds.some((id) => id < 0)) throw new RangeError('a case without its id');
      ready.workbook.apply(edits);
    } catch {
      this.stats.fallbacks++;
      entry.ready = undefined;
      return undefined;
    }
    this.stats.applied += batch.length;
    this.stats.batches++;
    this.stats.batchMs += performance.now() - started;
    entry.ready = {
      workbook: ready.workbook,
      caseIds,
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
      async (loaded) => {
        try {
          // Edits applied meanwhile may have taken the workbook past what was read: it never goes back.
          const ready = entry.ready;
          if (ready && ready.version >= Number(loaded.plan.version)) return ready;
          // A new workbook is built in steps, other requests served between them; this plan's reads wait for it.
          const built = (ready && this.synced(ready, loaded)) ?? (await this.compiled(loaded, entry.asOf));
          const now = entry.ready;
          if (now && now !== built && now.version >= built.version) return now;
          entry.ready = built;
          for (const version of entry.pending.keys()) if (version <= built.version) entry.pending.delete(version);
          return built;
        } finally {
          if (entry.building === building) entry.building = undefined;
        }
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

  /**
   * A new workbook of the plan as read, built in steps (`PlanWorkbook.buildInSteps`): a plan at every limit takes
   * about a second to build, and the thread serves other requests between the steps.
   */
  private async compiled(loaded: LoadedPlan, asOf: Month): Promise<CompiledPlan> {
    this.stats.builds++;
    const workbook = await buildWorkbook(loaded.file, asOf);
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

const sameMonth = (a: Month, b: Month) => a.year === b.year && a.month === b.month;
const monthIndex = (m: Month) => m.year * 12 + m.month;
