import { PlanWorkbook } from '@topline/engine';
import type { Db } from '../db';
import type { CachedAnswer } from '../http/cachedAnswer';
import type { AccessPlan, EditsFor, PlanRow } from './access';
import { loadPlanFile } from './planFile';

export interface CompiledPlan {
  workbook: PlanWorkbook;
  /** Database ids of the cases, by the workbook's case index. */
  caseIds: number[];
  version: number;
  /** Serialised answers of this version, by call and case: a warm read is a lookup. */
  answers: Map<string, CachedAnswer>;
}

interface Entry {
  version: number;
  asOfValue: { year: number; month: number };
  compiled: Promise<CompiledPlan>;
  /** `compiled` once it has resolved, for reads that need not wait. */
  ready?: CompiledPlan | undefined;
  /** Committed writes not yet applied to the workbook. */
  pending: EditsFor[];
}

/**
 * Compiled plan workbooks, one per plan, keyed by (plan id, version): a plan whose version moved on is rebuilt on
 * its next read, so any number of API processes can share one database. Concurrent reads share one build.
 */
export class WorkbookCache {
  private readonly entries = new Map<number, Entry>();
  /** How often workbooks were built, followed an edit, or had to be rebuilt after a refused edit. */
  readonly stats = { builds: 0, applied: 0, fallbacks: 0 };

  constructor(private readonly maxPlans = 200) {}

  get size(): number {
    return this.entries.size;
  }

  /** The workbook of the plan at this version and month when it is built and up to date, without waiting. */
  peek(planId: number, version: number, asOf: { year: number; month: number }): CompiledPlan | undefined {
    const entry = this.entries.get(planId);
    if (!entry?.ready || entry.version !== version || entry.pending.length > 0) return undefined;
    return sameMonth(entry.asOfValue, asOf) ? entry.ready : undefined;
  }

  /** Sets `entry.compiled`, and `entry.ready` once that promise resolves (if it is still the entry's). */
  private track(entry: Entry, compiled: Promise<CompiledPlan>): void {
    entry.compiled = compiled;
    entry.ready = undefined;
    compiled.then(
      (value) => {
        if (entry.compiled === compiled) entry.ready = value;
      },
      () => {},
    );
  }

  /** The workbook of the plan at its current version, as of a calendar month (the "current" month of MODEL.md). */
  async get(db: Db, plan: AccessPlan, asOf: { year: number; month: number }): Promise<CompiledPlan> {
    const hit = this.entries.get(plan.id);
    if (hit && hit.version === plan.version && sameMonth(hit.asOfValue, asOf)) {
      if (hit.pending.length > 0) this.applyPending(db, plan.id, hit);
      return hit.compiled;
    }
    if (hit) void hit.compiled.then((old) => old.workbook.destroy()).catch(() => {});
    const compiled = this.build(db, plan, asOf);
    this.entries.delete(plan.id);
    const entry: Entry = { version: plan.version, asOfValue: asOf, compiled, pending: [] };
    this.track(entry, compiled);
    this.entries.set(plan.id, entry);
    compiled.catch(() => {
      if (this.entries.get(plan.id)?.compiled === compiled) this.entries.delete(plan.id);
    });
    this.evict();
    return compiled;
  }

  /**
   * Follows a committed write: when the cache holds the version just before `version`, the write's engine edits are
   * queued and applied, together with any others, in one batch by the next read instead of a rebuild. `null` edits
   * drop the entry so that the next read rebuilds from the database.
   */
  advance(planId: number, version: number, editsFor: EditsFor | null): void {
    const entry = this.entries.get(planId);
    if (!entry || entry.version !== version - 1) return;
    if (editsFor === null) {
      this.drop(planId);
      return;
    }
    entry.version = version;
    entry.pending.push(editsFor);
  }

  /** Applies queued edits in one batch; anything the engine refuses rebuilds the workbook from the database. */
  private applyPending(db: Db, planId: number, entry: Entry): void {
    const batch = entry.pending.splice(0);
    const version = entry.version;
    this.track(
      entry,
      entry.compiled.then(async (compiled) => {
        try {
          const edits = batch.flatMap((editsFor) => editsFor(compiled.caseIds));
          if (edits.some((e) => 'caseIndex' in e && e.caseIndex < 0)) throw new RangeError('case not in the workbook');
          if (edits.length > 0) compiled.workbook.apply(edits);
          this.stats.applied += batch.length;
          compiled.version = version;
          compiled.answers = new Map<string, CachedAnswer>();
          return compiled;
        } catch {
          this.stats.fallbacks++;
          compiled.workbook.destroy();
          const plan = await db<PlanRow>('business_plans').where({ id: planId }).first();
          if (!plan) throw new RangeError(`plan ${planId} is gone`);
          entry.version = plan.version;
          return this.build(db, plan, entry.asOfValue);
        }
      }),
    );
    entry.compiled.catch(() => {
      if (this.entries.get(planId) === entry) this.entries.delete(planId);
    });
  }

  drop(planId: number): void {
    const entry = this.entries.get(planId);
    this.entries.delete(planId);
    if (entry) void entry.compiled.then((c) => c.workbook.destroy()).catch(() => {});
  }

  clear(): void {
    for (const planId of [...this.entries.keys()]) this.drop(planId);
  }

  private async build(db: Db, plan: AccessPlan, asOf: { year: number; month: number }): Promise<CompiledPlan> {
    this.stats.builds++;
    const loaded = await loadPlanFile(db, plan);
    const workbook = PlanWorkbook.build(loaded.file, { asOf });
    return { workbook, caseIds: loaded.caseIds, version: plan.version, answers: new Map<string, CachedAnswer>() };
  }

  private evict(): void {
    while (this.entries.size > this.maxPlans) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) return;
      this.drop(oldest);
    }
  }
}

const sameMonth = (a: { year: number; month: number }, b: { year: number; month: number }) =>
  a.year === b.year && a.month === b.month;
