/**
 * Trust under load: 50 users on one plan, 80% screen reads and 20% writes, on PostgreSQL. Prints the errors (the
 * goal is none), p50, p95 and p99 of reads and of writes, and the throughput against a read-only phase of the same run
 * (a figure, not a goal). The load comes from undici's pool in a process of its own, one connection per user, each user
 * sending one request after another. Printed, never asserted.
 *
 * Then the same mix on two API processes of the database, each following the other's writes.
 *
 * The database is TEST_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, in a schema of
 * its own that is dropped afterwards. BENCH_MIXED_SECONDS shortens (or lengthens) each phase, 30 s by default.
 */

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { WorkbookCache } from '../api/src/services/workbooks/workbooks';
import { startApiProcess } from '../api/src/testing/apiProcess';
import { startDemoServer } from './lib/demoServer';
import {
  addSince,
  type Call,
  type Cores,
  cores,
  type Latencies,
  load,
  measure,
  phase,
  summarise,
  USERS,
  WRITE_SHARE,
} from './lib/mixedLoad';

const SECONDS = Number(process.env.BENCH_MIXED_SECONDS) || 30;
const WRITE_SECONDS = Math.max(2, Math.round(SECONDS / 3));
/** About how long each slice of the read-only and mixed phases lasts (`run`). */
const SLICE_SECONDS = 10;
const DATABASE_URL =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export async function run(): Promise<void> {
  console.log(`   database: PostgreSQL (${new URL(DATABASE_URL).host})`);
  const workbooks = new WorkbookCache();
  const demo = await startDemoServer({ name: 'mixed', databaseUrl: DATABASE_URL, workbooks });
  const { db, base, token, serverErrors } = demo;
  const origin = new URL(base).origin;
  try {
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'accept-encoding': 'gzip, deflate, br',
    };
    const planId = demo.planIds[0] ?? 0;
    const caseId = Number((await db('cases').where({ plan_id: planId }).orderBy('position').first()).id);
    const plan = `business_plan_id=${planId}`;
    // What the screens ask for: the annual P&L, the monthly P&L one year at a time, the dashboard.
    const reads: Call[] = [
      `/api/v1/pl/retrieve?${plan}`,
      `/api/v1/pl/monthly/retrieve?${plan}&case_id=${caseId}&year=1`,
      `/api/v1/dashboard/retrieve?${plan}&case_id=${caseId}`,
      `/api/v1/pl/monthly/retrieve?${plan}&case_id=${caseId}&year=2`,
    ].map((path) => ({ path, method: 'GET' }));
    // Every write changes the plan: an assumption, a month of actuals, a cash-flow item, each with varying values.
    const post = (path: string, fields: object): Call => ({
      path: `/api/v1${path}`,
      method: 'POST',
      body: JSON.stringify({ business_plan_id: planId, case_id: caseId, ...fields }),
    });
    const writes = Array.from({ length: 12 }, (_, i) => [
      post('/case/edit', { year: 1, key: 'cogs_rate', value: 0.3 + i / 100 }),
      post('/pl/monthly/edit', { year: 1, month: 1 + (i % 3), order: 5 + i }),
      post('/pl/monthly/cashflow/edit', { year: 1, month: 6, equity_raised: (i + 1) * 1_000_000 }),
    ]).flat();

    await load({ origin, headers, reads, writes: [], seconds: Math.min(2, SECONDS) });
    // The read-only and mixed phases alternate in slices, so that a machine whose speed drifts during the run (a
    // shared host) weighs on both alike. A CPU profile covers one stretch of time: with one, the phases run whole.
    const profileFile = process.env.BENCH_MIXED_PROFILE;
    const slices = profileFile ? 1 : Math.max(1, Math.round(SECONDS / SLICE_SECONDS));
    const readOnlyPhase = phase();
    const mixedPhase = phase();
    /** What the workbook cache did during the mixed slices: its `stats`, added up slice by slice. */
    const cache = { ...workbooks.stats };
    for (const key of Object.keys(cache) as (keyof typeof cache)[]) cache[key] = 0;
    for (let slice = 0; slice < slices; slice++) {
      await measure({ origin, headers, reads, writes: [], seconds: SECONDS / slices }, readOnlyPhase);
      const before = { ...workbooks.stats };
      const profiling = await profileIf(profileFile);
      await measure({ origin, headers, reads, writes, seconds: SECONDS / slices }, mixedPhase);
      await profiling?.stop();
      addSince(cache, workbooks.stats, before);
    }
    const readOnly = summarise(readOnlyPhase);
    const mixed = summarise(mixedPhase);
    // What one plan takes in writes alone: the mix cannot pass this rate divided by the writes' share.
    const writeOnly = await load({ origin, headers, reads: [], writes, writeShare: 1, seconds: WRITE_SECONDS });
    // The same mix on two API processes of the database, the users shared between them: each follows the other's
    // writes by reading the plan afresh (its cache counts them below).
    const second = await startApiProcess({
      DATA_DIR: demo.dataDir,
      DATABASE_URL,
      DATABASE_SCHEMA: demo.schema ?? '',
      LOG_LEVEL: 'silent',
    });
    const syncedBefore = workbooks.stats.synced;
    let twoProcesses: Awaited<ReturnType<typeof load>>;
    try {
      await load({ origin: second.url, headers, reads, writes: [], seconds: Math.min(2, SECONDS) });
      twoProcesses = await load({ origin, alsoOrigins: [second.url], headers, reads, writes, seconds: SECONDS });
    } finally {
      await second.kill('SIGTERM');
    }
    const reloads = workbooks.stats.synced - syncedBefore;
    const ratio = mixed.rps / readOnly.rps;
    const ms = (l: Latencies) => `${l.p50.toFixed(1)} / ${l.p95.toFixed(1)} / ${l.p99.toFixed(1)} ms`;
    const cpu = (phase: { cpu: number; loop: { p50: number; p99: number; busy: number }; cores: Cores }) =>
      `${phase.cpu.toFixed(2)} ms of server CPU per request, event loop busy ${(phase.loop.busy * 100).toFixed(0)} %, ` +
      `its delay p50 / p99 ${phase.loop.p50.toFixed(1)} / ${phase.loop.p99.toFixed(1)} ms; ${cores(phase.cores)}`;
    line(
      `read-only, ${USERS} users, ${SECONDS} s${slices > 1 ? ` in ${slices} slices` : ''}`,
      `${readOnly.rps.toFixed(0)} req/s`,
      `${readOnly.errors} errors, ${cpu(readOnly)}`,
    );
    line(
      `mixed ${100 - WRITE_SHARE * 100}/${WRITE_SHARE * 100}, ${USERS} users, ${SECONDS} s${slices > 1 ? ` in ${slices} slices` : ''}: errors`,
      String(mixed.errors),
      `of ${mixed.reads.count + mixed.writes.count} requests (goal: 0)${mixed.samples.length ? `, e.g. ${mixed.samples[0]}` : ''}`,
    );
    line('  reads p50 / p95 / p99', ms(mixed.reads), `${mixed.reads.count} reads`);
    line('  writes p50 / p95 / p99', ms(mixed.writes), `${mixed.writes.count} writes`);
    const { afterWrite, otherReads, writes: writing } = mixed.users;
    const share = (part: { share: number }) => `${(part.share * 100).toFixed(0)} %`;
    line(
      "  users' time: reads after their own write / other reads / writes",
      `${share(afterWrite)} / ${share(otherReads)} / ${share(writing)}`,
      `means ${afterWrite.mean.toFixed(1)} / ${otherReads.mean.toFixed(1)} / ${writing.mean.toFixed(1)} ms; ` +
        `${afterWrite.count} reads after their own write`,
    );
    line(
      '  throughput',
      `${mixed.rps.toFixed(0)} req/s`,
      `${ratio.toFixed(2)} x the read-only throughput; ${cpu(mixed)}`,
    );
    line(
      '  workbook cache during the mixed phase',
      `${cache.builds} builds`,
      `${cache.applied} writes followed by edits in ${cache.batches} batches ` +
        `(${(cache.batchMs / Math.max(1, cache.batches)).toFixed(1)} ms each, ` +
        `${((cache.batchMs / 1000 / mixed.seconds) * 100).toFixed(0)} % of the phase), ` +
        `${cache.fallbacks} refused, ${cache.synced} reloads read afresh; ${serverErrors.length} server errors` +
        (serverErrors[0] ? ` (${serverErrors[0]})` : ''),
    );
    const ceiling = writeOnly.rps / WRITE_SHARE;
    // The server's CPU bounds the mix too: a mix that cost no more than its parts (each read what it costs in the
    // read-only phase, each write what it costs here) would serve readOnly.cpu / partsCpu of the read-only throughput
    // on the same CPU. What the mix costs beyond that is its own: each version's batch and answers, the reads that
    // wait for them, and a server answering fewer requests per turn of its event loop.
    const partsCpu = (1 - WRITE_SHARE) * readOnly.cpu + WRITE_SHARE * writeOnly.cpu;
    line(
      `writes only, ${USERS} users, ${WRITE_SECONDS} s`,
      `${writeOnly.rps.toFixed(0)} writes/s`,
      `${writeOnly.errors} errors, p50 ${writeOnly.writes.p50.toFixed(1)} ms, ${cpu(writeOnly)}: the ` +
        `${100 - WRITE_SHARE * 100}/${WRITE_SHARE * 100} mix on one plan is bounded by about ${ceiling.toFixed(0)} req/s ` +
        `(${(ceiling / readOnly.rps).toFixed(2)} x the read-only throughput) by its lock, and by about ` +
        `${(readOnly.cpu / partsCpu).toFixed(2)} x by the server's CPU if it cost no more than its parts ` +
        `(${partsCpu.toFixed(2)} ms per request; it cost ${mixed.cpu.toFixed(2)} ms)`,
    );
    line(
      `mixed ${100 - WRITE_SHARE * 100}/${WRITE_SHARE * 100}, ${USERS} users on two API processes, ${SECONDS} s`,
      `${twoProcesses.rps.toFixed(0)} req/s`,
      `${twoProcesses.errors} errors${twoProcesses.samples.length ? ` (e.g. ${twoProcesses.samples[0]})` : ''}, ` +
        `${(twoProcesses.rps / mixed.rps).toFixed(2)} x the one-process mix; reads p50 / p95 ` +
        `${twoProcesses.reads.p50.toFixed(1)} / ${twoProcesses.reads.p95.toFixed(1)} ms, writes ` +
        `${twoProcesses.writes.p50.toFixed(1)} / ${twoProcesses.writes.p95.toFixed(1)} ms; ` +
        `${reloads} reloads read afresh in this process`,
    );
  } finally {
    await demo.close();
  }
}

/**
 * With a file name (BENCH_MIXED_PROFILE), a CPU profile of this process (the server) from now until `stop`, written
 * there for Chrome's DevTools or any .cpuprofile reader: where the mixed phase spends the server's thread.
 */
async function profileIf(file: string | undefined) {
  if (!file) return undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`   CPU profile of the mixed phase written to ${file}`);
    },
  };
}

function line(what: string, value: string, note = ''): void {
  console.log(`   ${what.padEnd(58)} ${value.padStart(22)}  ${note}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
