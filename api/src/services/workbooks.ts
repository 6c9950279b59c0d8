import { PlanWorkbook } from '@topline/engine';
import type { Db } from '../db';
import type { PlanRow } from './access';
import { loadPlanFile } from './planFile';

export interface CompiledPlan {
  workbook: PlanWorkbook;
  /** Database ids of the cases, by the workbook's case index. */
  caseIds: number[];
  version: number;
  /** Serialised answers of this version, by call and case: a warm read is a lookup. */
  answers: Map<string, string>;
}

interface Entry {
  version: number;
  asOf: string;
  compiled: Promise<CompiledPlan>;
}

/**
 * Compiled plan workbooks, one per plan, keyed by (plan id, version): a plan whose version moved on is rebuilt on
 * its next read, so any number of API processes can share one database. Concurrent reads share one build.
 */
export class WorkbookCache {
  private readonly entries = new Map<number, Entry>();

  constructor(private readonly maxPlans = 200) {}

  get size(): number {
    return this.entries.size;
  }

  /** The workbook of the plan at its current version, as of a calendar month (the "current" month of MODEL.md). */
  async get(db: Db, plan: PlanRow, asOf: { year: number; month: number }): Promise<CompiledPlan> {
    const asOfKey = `${asOf.year}-${asOf.month}`;
    const hit = this.entries.get(plan.id);
    if (hit && hit.version === plan.version && hit.asOf === asOfKey) return hit.compiled;
    if (hit) void hit.compiled.then((old) => old.workbook.destroy()).catch(() => {});
    const compiled = (async () => {
      const loaded = await loadPlanFile(db, plan);
      const workbook = PlanWorkbook.build(loaded.file, { asOf });
      return { workbook, caseIds: loaded.caseIds, version: plan.version, answers: new Map<string, string>() };
    })();
    this.entries.delete(plan.id);
    this.entries.set(plan.id, { version: plan.version, asOf: asOfKey, compiled });
    compiled.catch(() => {
      if (this.entries.get(plan.id)?.compiled === compiled) this.entries.delete(plan.id);
    });
    this.evict();
    return compiled;
  }

  drop(planId: number): void {
    const entry = this.entries.get(planId);
    this.entries.delete(planId);
    if (entry) void entry.compiled.then((c) => c.workbook.destroy()).catch(() => {});
  }

  clear(): void {
    for (const planId of [...this.entries.keys()]) this.drop(planId);
  }

  private evict(): void {
    while (this.entries.size > this.maxPlans) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) return;
      this.drop(oldest);
    }
  }
}
