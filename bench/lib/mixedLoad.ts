/**
 * The load of the mixed bench (`api-mixed.ts`): USERS users of undici's pool in a process of their own, each sending
 * one call after another, a write with probability WRITE_SHARE; and what a phase of it measured (latencies, errors,
 * the server's CPU and event loop, the machine's cores).
 */
import { execFile } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';

export const USERS = 50;
export const WRITE_SHARE = 0.2;

export interface Call {
  path: string;
  method: 'GET' | 'POST';
  body?: string;
  /** The plan the call is about, sent as `X-Plan-Id` as the web sends it (a load balancer routes on it). */
  plan?: number;
}

export interface LoadSpec {
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

export interface Latencies {
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
    // The newest version the user has seen of each plan, sent back with every call about it.
    const seen = new Map();
    let wrote = false;
    while (performance.now() < until) {
      const write = spec.writes.length > 0 && Math.random() < spec.writeShare;
      const list = write ? spec.writes : spec.reads;
      const call = list[n++ % list.length];
      const t0 = performance.now();
      try {
        const plan = call.plan ?? 0;
        const headers = { ...spec.headers };
        if (call.plan) headers['x-plan-id'] = String(call.plan);
        if (seen.get(plan)) headers['plan-version'] = String(seen.get(plan));
        const response = await pool.request({ path: call.path, method: call.method, headers, body: call.body });
        const version = Number(response.headers['plan-version']);
        if (version > (seen.get(plan) ?? 0)) seen.set(plan, version);
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
export interface Phase {
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

export const phase = (): Phase => ({
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
export function addSince<K extends string>(
  into: Record<K, number>,
  now: Record<K, number>,
  before: Record<K, number>,
): void {
  for (const key of Object.keys(into) as K[]) into[key] += now[key] - before[key];
}

/** One run of the load generator, its figures. */
export async function load(spec: LoadSpec) {
  const one = phase();
  await measure(spec, one);
  return summarise(one);
}

/** Runs the load generator once and adds what it and the server did meanwhile to `into`. */
export async function measure(spec: LoadSpec, into: Phase): Promise<void> {
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
export function summarise(p: Phase) {
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
export function usersTime(p: Phase) {
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

export interface Cores {
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
export function machineTimes(since?: { busy: number; at: number }) {
  const busy = cpus().reduce((n, c) => n + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);
  const at = performance.now();
  return since ? { busy: busy - since.busy, wall: at - since.at, at } : { busy, wall: 0, at };
}

export const cores = (c: Cores) =>
  `cores busy ${c.busy.toFixed(2)} of ${c.total} (server ${c.server.toFixed(2)}, load ${c.load.toFixed(2)}, ` +
  `database and the rest ${Math.max(0, c.busy - c.server - c.load).toFixed(2)})`;

export function latencies(list: number[]): Latencies {
  const sorted = list.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}
