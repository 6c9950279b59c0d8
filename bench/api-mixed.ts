/**
 * Trust under load: 50 users on one plan, 80% screen reads and 20% writes, on PostgreSQL. Prints the errors (the
 * goal is none), p50, p95 and p99 of reads and of writes, and the throughput against a read-only phase of the same run
 * (goal: at least 0.5). The load comes from undici's pool in a process of its own, one connection per user, each user
 * sending one request after another. Printed, never asserted.
 *
 * Then the same mix on two API processes of the database, each following the other's writes.
 *
 * The database is TEST_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, in a schema of
 * its own that is dropped afterwards. BENCH_MIXED_SECONDS shortens (or lengthens) each phase, 30 s by default.
 */

import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { availableParallelism, cpus } from 'node:os';
import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { planWriteStats } from '../api/src/services/access';
import { WorkbookCache } from '../api/src/services/workbooks';
import { startApiProcess } from '../api/src/testing/apiProcess';
import { startDemoServer } from './lib/demoServer';

const USERS = 50;
const WRITE_SHARE = 0.2;
const SECONDS = Number(process.env.BENCH_MIXED_SECONDS) || 30;
const WRITE_SECONDS = Math.max(2, Math.round(SECONDS / 3));
/** About how long each slice of the read-only and mixed phases lasts (`run`). */
const SLICE_SECONDS = 10;
const DATABASE_URL =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

interface Call {
  path: string;
  method: 'GET' | 'POST';
  body?: string;
}

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
    /** What the plan's write queue did during the mixed slices (`planWriteStats`), added up the same way. */
    const queue = { transactions: 0, writes: 0, ms: 0 };
    const writeStats = planWriteStats(db);
    /** The batch interval at the end of each mixed slice (it follows the event loop's use: `BatchInterval`). */
    const intervals: number[] = [];
    for (let slice = 0; slice < slices; slice++) {
      await measure({ origin, headers, reads, writes: [], seconds: SECONDS / slices }, readOnlyPhase);
      const before = { ...workbooks.stats };
      const queueBefore = { ...writeStats };
      const profiling = await profileIf(profileFile);
      await measure({ origin, headers, reads, writes, seconds: SECONDS / slices }, mixedPhase);
      await profiling?.stop();
      intervals.push(workbooks.interval.current());
      addSince(cache, workbooks.stats, before);
      addSince(queue, writeStats, queueBefore);
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
      `${ratio.toFixed(2)} x the read-only throughput (goal: at least 0.5); ${cpu(mixed)}`,
    );
    line(
      '  workbook cache during the mixed phase',
      `${cache.builds} builds`,
      `${cache.applied} writes followed by edits in ${cache.batches} batches ` +
        `(${(cache.batchMs / Math.max(1, cache.batches)).toFixed(1)} ms each, ` +
        `${((cache.batchMs / 1000 / mixed.seconds) * 100).toFixed(0)} % of the phase), ` +
        `${cache.fallbacks} refused, ${cache.synced} reloads read afresh; batch interval at the end of each slice ` +
        `${intervals.map((ms) => ms.toFixed(0)).join(', ')} ms; ${serverErrors.length} server errors` +
        (serverErrors[0] ? ` (${serverErrors[0]})` : ''),
    );
    line(
      "  the plan's write transactions during the mixed phase",
      `${queue.transactions} transactions`,
      `${(queue.writes / Math.max(1, queue.transactions)).toFixed(1)} writes and ` +
        `${(queue.ms / Math.max(1, queue.transactions)).toFixed(1)} ms each, one after another: the plan's write queue ` +
        `ran ${((queue.ms / 1000 / mixed.seconds) * 100).toFixed(0)} % of the phase`,
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

interface LoadSpec {
  origin: string;
  headers: Record<string, string>;
  reads: Call[];
  writes: Call[];
  /** The share of calls that are writes, when there are writes: WRITE_SHARE unless given. */
  writeShare?: number;
  /** Further servers of the same database: the users are shared among `origin` and these. */
  alsoOrigins?: string[];
  seconds: number;
}

interface Latencies {
  count: number;
  p50: number;
  p95: number;
  p99: number;
}

/**
 * The load generator, in a process of its own so that it does not compete with the server for its event loop:
 * USERS loops on undici's pool, one connection each, each sending one call after another, a write with probability
 * WRITE_SHARE (when there are writes). Every body is read to its end; an answer other than 200 is an error.
 */
const LOADER = `
const { Pool } = require('undici');
const spec = JSON.parse(process.argv[1]);
const pool = new Pool(spec.origin, { connections: spec.users });
(async () => {
  const reads = [];
  const writes = [];
  const samples = [];
  let errors = 0;
  let n = 0;
  const started = performance.now();
  const until = started + spec.seconds * 1000;
  const afterWrite = [];
  await Promise.all(Array.from({ length: spec.users }, async () => {
    let seen = 0;
    let wrote = false;
    while (performance.now() < until) {
      const write = spec.writes.length > 0 && Math.random() < spec.writeShare;
      const list = write ? spec.writes : spec.reads;
      const call = list[n++ % list.length];
      const t0 = performance.now();
      try {
        const headers = seen ? { ...spec.headers, 'plan-version': String(seen) } : spec.headers;
        const response = await pool.request({ path: call.path, method: call.method, headers, body: call.body });
        const version = Number(response.headers['plan-version']);
        if (version > seen) seen = version;
        if (response.statusCode === 200) for await (const _ of response.body);
        else {
          errors++;
          const text = await response.body.text();
          if (samples.length < 3) samples.push(call.method + ' ' + call.path.split('?')[0] + ' ' + response.statusCode + ' ' + text.slice(0, 120));
        }
      } catch (error) {
        errors++;
        if (samples.length < 3) samples.push(call.path.split('?')[0] + ' ' + error.message);
      }
      const took = performance.now() - t0;
      (write ? writes : reads).push(took);
      // A read right after the user's own write waits for the batch that applies it.
      if (!write && wrote) afterWrite.push(took);
      wrote = write;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  const used = process.cpuUsage();
  process.stdout.write(JSON.stringify({ seconds, cpu: (used.user + used.system) / 1000, errors, samples, reads, writes, afterWrite }));
})();
`;

/** What the slices of one phase measured, added up (`measure`), until `summarise` gives its figures. */
interface Phase {
  seconds: number;
  /** The server's CPU time and the load generator's, in ms. */
  serverCpu: number;
  loadCpu: number;
  /** The machine's busy time over all its cores, and the wall time, in ms. */
  machineBusy: number;
  wall: number;
  /** The server's event loop: its busy and idle time, and how late its timers fired. */
  loopActive: number;
  loopIdle: number;
  loopDelay: IntervalHistogram;
  errors: number;
  samples: string[];
  reads: number[];
  writes: number[];
  /** Of `reads`, those that came right after the same user's write. */
  afterWrite: number[];
}

const phase = (): Phase => ({
  seconds: 0,
  serverCpu: 0,
  loadCpu: 0,
  machineBusy: 0,
  wall: 0,
  loopActive: 0,
  loopIdle: 0,
  // How long ready work waited for the server's event loop: each database round trip of a write waits this long once
  // more, on top of the database's own time.
  loopDelay: monitorEventLoopDelay({ resolution: 1 }),
  errors: 0,
  samples: [],
  reads: [],
  writes: [],
  afterWrite: [],
});

/** Adds to each of `into`'s counters how far it moved from `before` to `now`. */
function addSince<K extends string>(into: Record<K, number>, now: Record<K, number>, before: Record<K, number>): void {
  for (const key of Object.keys(into) as K[]) into[key] += now[key] - before[key];
}

/** One run of the load generator, its figures. */
async function load(spec: LoadSpec) {
  const one = phase();
  await measure(spec, one);
  return summarise(one);
}

/** Runs the load generator once and adds what it and the server did meanwhile to `into`. */
async function measure(spec: LoadSpec, into: Phase): Promise<void> {
  const cpu = process.cpuUsage();
  const machine = machineTimes();
  const loopUse = performance.eventLoopUtilization();
  into.loopDelay.enable();
  // One loader per server, the users shared among them.
  const origins = [spec.origin, ...(spec.alsoOrigins ?? [])];
  const results = await Promise.all(
    origins.map(async (origin, i) => {
      const users = Math.floor(USERS / origins.length) + (i < USERS % origins.length ? 1 : 0);
      const output = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ['-e', LOADER, JSON.stringify({ users, writeShare: WRITE_SHARE, ...spec, origin })],
          { cwd: import.meta.dirname, maxBuffer: 256 * 1024 * 1024 },
          (error, stdout) => (error ? reject(error) : resolve(stdout)),
        ),
      );
      return JSON.parse(output) as {
        seconds: number;
        cpu: number;
        errors: number;
        samples: string[];
        reads: number[];
        writes: number[];
        afterWrite: number[];
      };
    }),
  );
  const used = process.cpuUsage(cpu);
  const machineUsed = machineTimes(machine);
  const loopUsed = performance.eventLoopUtilization(loopUse);
  into.loopDelay.disable();
  into.seconds += Math.max(...results.map((r) => r.seconds));
  into.serverCpu += (used.user + used.system) / 1000;
  into.loadCpu += results.reduce((n, r) => n + r.cpu, 0);
  into.machineBusy += machineUsed.busy;
  into.wall += machineUsed.wall;
  into.loopActive += loopUsed.active;
  into.loopIdle += loopUsed.idle;
  into.errors += results.reduce((n, r) => n + r.errors, 0);
  into.samples.push(...results.flatMap((r) => r.samples));
  for (const r of results) {
    for (const t of r.reads) into.reads.push(t);
    for (const t of r.writes) into.writes.push(t);
    for (const t of r.afterWrite) into.afterWrite.push(t);
  }
}

/** The figures of a phase: throughput, CPU, cores, event loop, errors and latencies. */
function summarise(p: Phase) {
  const count = p.reads.length + p.writes.length;
  return {
    seconds: p.seconds,
    rps: count / p.seconds,
    /** The server's CPU time per request, in ms (this process: the load runs in another). */
    cpu: p.serverCpu / count,
    /** What the machine's cores did meanwhile, in cores: all busy, and of those the server and the load generator. */
    cores: {
      server: p.serverCpu / p.wall,
      load: p.loadCpu / p.wall,
      busy: p.machineBusy / p.wall,
      total: availableParallelism(),
    },
    /** The server's event-loop delay, p50 and p99, in ms, and the share of the time it was busy. */
    loop: {
      p50: p.loopDelay.percentile(50) / 1e6,
      p99: p.loopDelay.percentile(99) / 1e6,
      busy: p.loopActive / (p.loopActive + p.loopIdle),
    },
    errors: p.errors,
    samples: p.samples,
    reads: latencies(p.reads),
    writes: latencies(p.writes),
    users: usersTime(p),
  };
}

/**
 * Where the users' time went (they send one call after another, so this is what bounds the throughput besides the
 * server's CPU): reads right after the same user's write (they wait for the batch that applies it), other reads, and
 * writes; each its share of all the users' time and its mean in ms.
 */
function usersTime(p: Phase) {
  const sum = (list: number[]) => list.reduce((n, t) => n + t, 0);
  const afterWrite = sum(p.afterWrite);
  const otherReads = sum(p.reads) - afterWrite;
  const writes = sum(p.writes);
  const all = afterWrite + otherReads + writes || 1;
  const part = (ms: number, count: number) => ({ share: ms / all, mean: count > 0 ? ms / count : 0, count });
  return {
    afterWrite: part(afterWrite, p.afterWrite.length),
    otherReads: part(otherReads, p.reads.length - p.afterWrite.length),
    writes: part(writes, p.writes.length),
  };
}

interface Cores {
  server: number;
  load: number;
  busy: number;
  total: number;
}

/**
 * Busy time of all the machine's cores and wall time, in ms, since `since`: the server, the load generator and the
 * database share the cores, so a phase that keeps them all busy cannot go faster on this machine however the server
 * spends its share.
 */
function machineTimes(since?: { busy: number; at: number }) {
  const busy = cpus().reduce((n, c) => n + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);
  const at = performance.now();
  return since ? { busy: busy - since.busy, wall: at - since.at, at } : { busy, wall: 0, at };
}

const cores = (c: Cores) =>
  `cores busy ${c.busy.toFixed(2)} of ${c.total} (server ${c.server.toFixed(2)}, load ${c.load.toFixed(2)}, ` +
  `database and the rest ${Math.max(0, c.busy - c.server - c.load).toFixed(2)})`;

function latencies(list: number[]): Latencies {
  const sorted = list.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

function line(what: string, value: string, note = ''): void {
  console.log(`   ${what.padEnd(58)} ${value.padStart(22)}  ${note}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
