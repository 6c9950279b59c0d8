/** What the benchmarks measure with: the median of timings, and the fresh build of a plan that ratios compare to. */
import { asOfMonth } from '@topline/contract';
import { PlanWorkbook } from '@topline/engine';
import type { Db } from '../../api/src/db';
import type { AccessPlan } from '../../api/src/services/access/access';
import { loadPlanFile } from '../../api/src/services/plans/planFile';

/** The median (the mean of the middle two of an even count); 0 of none. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

export interface PlanBuilds {
  plan: AccessPlan;
  /** Median ms of a build as the API's cache makes it on a cold read: the inputs read, the workbook compiled. */
  build: number;
  /** Median ms of the engine's part alone (`PlanWorkbook.build`). */
  engineBuild: number;
  /** The last workbook built, for the caller to use and destroy. */
  workbook: PlanWorkbook;
}

/** Builds the plan `times` times afresh, as of this month, and answers the medians. */
export async function timePlanBuilds(db: Db, planId: number, times: number): Promise<PlanBuilds> {
  const plan = (await db<AccessPlan>('business_plans').where({ id: planId }).first()) as AccessPlan;
  const asOf = asOfMonth(new Date());
  const builds: number[] = [];
  const engineBuilds: number[] = [];
  let workbook: PlanWorkbook | undefined;
  for (let i = 0; i < Math.max(1, times); i++) {
    workbook?.destroy();
    const started = performance.now();
    const loaded = await loadPlanFile(db, plan);
    const read = performance.now();
    workbook = PlanWorkbook.build(loaded.file, { asOf });
    const done = performance.now();
    builds.push(done - started);
    engineBuilds.push(done - read);
  }
  return { plan, build: median(builds), engineBuild: median(engineBuilds), workbook: workbook as PlanWorkbook };
}
