import { explain } from '@topline/engine';
import { startDemoServer } from './lib/demoServer';
import { median, timePlanBuilds } from './lib/measure';

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

export async function run(): Promise<void> {
  const demo = await startDemoServer({ name: 'explain' });
  const { db, base, token } = demo;
  try {
    const planId = demo.planIds[0] ?? 0;

    // The plan's build, fresh each time: its inputs read and its workbook compiled and computed.
    const { build, engineBuild, workbook } = await timePlanBuilds(db, planId, BUILDS);

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
