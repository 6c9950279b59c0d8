/**
 * Issue 16's explain budget: an explain answer from a warm plan costs at most 0.01x that plan's build. The demo plan
 * is built fresh (its inputs read from the database and compiled into a workbook, as the cache does on a cold read)
 * and explained through the API from the warm cache, in the same run; the engine's own explain of the same figures
 * against `PlanWorkbook.build` of the same plan is printed beside it. Printed, never asserted.
 */

import { asOfMonth } from '@topline/contract';
import { explain, PlanWorkbook } from '@topline/engine';
import type { AccessPlan } from '../api/src/services/access';
import { loadPlanFile } from '../api/src/services/planFile';
import { startDemoServer } from './lib/demoServer';

/** The figures asked: a month, a quarter, a year of the P&L, a cash chain, an assumption, in both views. */
const FIGURES = [
  { key: 'revenue', year: 1, period: '3', view: 'estimate' },
  { key: 'ending_cash_balance', year: 2, period: 'q4', view: 'actual' },
  { key: 'operating_pl', year: 3, period: 'cy', view: 'estimate' },
  { key: 'cac', year: 1, period: '7', view: 'actual' },
  { key: 'assumption.churn_rate', year: 2, period: 'cy', view: 'estimate' },
  { key: 'mrr', year: 1, period: '2', view: 'actual' },
] as const;
const BUILDS = 7;
const ROUNDS = 40;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

export async function run(): Promise<void> {
  const demo = await startDemoServer({ name: 'explain' });
  const { db, base, token } = demo;
  try {
    const planId = demo.planIds[0] ?? 0;

    // The plan's build, fresh each time: its inputs read and its workbook compiled and computed.
    const plan = (await db<AccessPlan>('business_plans').where({ id: planId }).first()) as AccessPlan;
    const asOf = asOfMonth(new Date());
    const builds: number[] = [];
    const engineBuilds: number[] = [];
    let workbook: PlanWorkbook | undefined;
    for (let i = 0; i < BUILDS; i++) {
      const started = performance.now();
      const loaded = await loadPlanFile(db, plan);
      const read = performance.now();
      workbook = PlanWorkbook.build(loaded.file, { asOf });
      const done = performance.now();
      builds.push(done - started);
      engineBuilds.push(done - read);
    }
    const build = median(builds);
    const engineBuild = median(engineBuilds);

    // Explain through the API, the plan warm in the cache (the first call builds it and is not measured).
    const url = (f: (typeof FIGURES)[number]) =>
      `${base}/explain?business_plan_id=${planId}&year=${f.year}&period=${f.period}&key=${f.key}&view=${f.view}`;
    const headers = { authorization: `Bearer ${token}` };
    for (const f of FIGURES) {
      const answer = await fetch(url(f), { headers });
      if (answer.status !== 200) throw new Error(`explain ${f.key} answered ${answer.status}`);
      await answer.arrayBuffer();
    }
    const calls: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const f of FIGURES) {
        const started = performance.now();
        const answer = await fetch(url(f), { headers });
        await answer.arrayBuffer();
        calls.push(performance.now() - started);
      }
    }
    const call = median(calls);

    // The engine alone: the same figures explained on the built workbook.
    const explains: number[] = [];
    if (workbook) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const f of FIGURES) {
          const started = performance.now();
          explain(workbook, { caseIndex: 0, year: f.year, period: f.period, key: f.key, view: f.view });
          explains.push(performance.now() - started);
        }
      }
    }
    const engineExplain = median(explains);

    console.log(`   plan build (inputs read, workbook built): median ${build.toFixed(1)} ms of ${BUILDS}`);
    console.log(
      `   explain answer from the warm plan (GET /explain, ${FIGURES.length} figures x ${ROUNDS}): ` +
        `median ${call.toFixed(2)} ms`,
    );
    console.log(`   explain / build: ${(call / build).toFixed(4)}x (budget at most 0.01x)`);
    console.log(
      `   engine alone: explain ${engineExplain.toFixed(3)} ms / PlanWorkbook.build ${engineBuild.toFixed(1)} ms = ` +
        `${(engineExplain / engineBuild).toFixed(4)}x`,
    );
  } finally {
    await demo.close();
  }
}
