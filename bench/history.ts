/**
 * Issue 16's history budget: a page of a 10,000-change history costs at most 0.1x a build of the plan. The demo plan
 * gets 10,000 recorded changes (each an assumption edit, written in the database as the API writes them, so each is
 * recorded by the history trigger as one change); then the newest page and a page from the middle are read through
 * the API, and the plan's build (inputs read, workbook compiled) is timed in the same run. Printed, never asserted.
 */

import { startDemoServer } from './lib/demoServer';
import { median, timePlanBuilds } from './lib/measure';

const CHANGES = 10_000;
const BUILDS = 7;
const ROUNDS = 30;

export async function run(): Promise<void> {
  const demo = await startDemoServer({ name: 'history' });
  const { db, base, token } = demo;
  try {
    const planId = demo.planIds[0] ?? 0;

    // The plan's build, fresh each time: its inputs read and its workbook compiled and computed.
    const { plan, build, workbook } = await timePlanBuilds(db, planId, BUILDS);
    workbook.destroy();

    // 10,000 changes, each its own recorded change of the demo user through `/case/edit`.
    const [baseCase] = await db('cases').where({ plan_id: planId }).orderBy('id');
    const started = performance.now();
    await db.raw(
      `DO $$ BEGIN
        FOR i IN 1..${CHANGES} LOOP
          PERFORM set_config('topline.plan', '${planId}', true);
          PERFORM set_config('topline.user', '${plan.owner_id}', true);
          PERFORM set_config('topline.action', '/case/edit', true);
          PERFORM set_config('topline.change', '', true);
          INSERT INTO case_year_inputs (case_id, year, key, value)
          VALUES (${Number(baseCase.id)}, 1 + i % 6, 'churn_rate', 0.01 + i / 10000000.0)
          ON CONFLICT (case_id, year, key) DO UPDATE SET value = excluded.value;
        END LOOP;
      END $$`,
    );
    const recorded = performance.now() - started;
    const counted = await db('plan_changes').where({ plan_id: planId }).count({ count: '*' });
    const count = Number(counted[0]?.count ?? 0);

    const headers = { authorization: `Bearer ${token}` };
    const page = async (cursor?: number) => {
      const query = cursor === undefined ? '' : `&cursor=${cursor}`;
      const answer = await fetch(`${base}/history?business_plan_id=${planId}${query}`, { headers });
      if (answer.status !== 200) throw new Error(`history answered ${answer.status}`);
      return (await answer.json()) as { data: { changes: { id: number }[] } };
    };
    const newest = await page();
    const middle = (newest.data.changes[0]?.id ?? 0) - Math.floor(CHANGES / 2);
    const timed = async (cursor?: number) => {
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const t0 = performance.now();
        await page(cursor);
        times.push(performance.now() - t0);
      }
      return median(times);
    };
    const first = await timed();
    const deep = await timed(middle);

    console.log(`   ${count} changes in the history (${CHANGES} written in ${(recorded / 1000).toFixed(1)} s)`);
    console.log(`   plan build (inputs read, workbook built): median ${build.toFixed(1)} ms of ${BUILDS}`);
    console.log(`   history page, newest: median ${first.toFixed(2)} ms; from the middle: ${deep.toFixed(2)} ms`);
    console.log(`   history page / build: ${(Math.max(first, deep) / build).toFixed(4)}x (budget at most 0.1x)`);
  } finally {
    await demo.close();
  }
}
