/**
 * The XLSX download's budget: writing `fixtures/plans/three-cases.json` as an XLSX file (`exportXlsx`, every sheet
 * with its formulas and their cached results) from a built workbook, against a fresh build of the same plan in the
 * same run (budget at most 1x), both as CPU time of this process; the file's size beside it. Printed, never asserted.
 * Both are measured warm and in turn: the modules before this one build the fixture many times (a build is then at its
 * fastest) and never write it, so each is warmed up the same number of times here first, and a build and an export
 * alternate so that the machine's load weighs on both alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlanWorkbook } from '@topline/engine';
import { exportXlsx } from '@topline/engine/export';
import { median } from './lib/measure';

const FIXTURE = join(import.meta.dirname, '../fixtures/plans/three-cases.json');
const AS_OF = { year: 2026, month: 9 };
const WARMUP = 4;
const RUNS = 7;

/** CPU time of the process (user + system) in ms: steadier than wall-clock time on a shared machine. */
async function cpuTime(f: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The median CPU time of each of `a` and `b`, run in turn after `WARMUP` turns. */
async function inTurn(a: () => unknown, b: () => unknown): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const ta = await cpuTime(a);
    const tb = await cpuTime(b);
    if (i < WARMUP) continue;
    times[0].push(ta);
    times[1].push(tb);
  }
  return [median(times[0]), median(times[1])];
}

export async function run(): Promise<void> {
  const plan: unknown = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
  let bytes = 0;
  try {
    const [build, write] = await inTurn(
      () => PlanWorkbook.build(plan, { asOf: AS_OF }).destroy(),
      async () => {
        bytes = (await exportXlsx(wb, { planId: 1 })).length;
      },
    );
    const ratio = write / build;
    console.log(`   build three-cases.json                       ${build.toFixed(1)} ms CPU (median of ${RUNS})`);
    console.log(
      `   XLSX of three-cases.json                     ${write.toFixed(1)} ms CPU, ${(bytes / 1024 / 1024).toFixed(2)} MB  ${ratio.toFixed(2)}x of the build (budget <= 1x: ${ratio <= 1 ? 'within' : 'OVER'})`,
    );
  } finally {
    wb.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
