/**
 * API budgets of DESIGN.md ("Performance budgets") and issue 3, measured against embedded PGlite: requests per second
 * of `/api/v1/pl/monthly/retrieve` from a warm cache against the bare JSON route `/api/v1/health` of the same server
 * under the same load, and the p95 latency of `/api/v1/case/edit` with 20 concurrent editors. The load comes from
 * undici's pool in a process of its own, sending what a browser sends (a bearer token, `Accept-Encoding`).
 * Printed, never asserted. With BENCH_DATABASE_URL set it runs on that PostgreSQL instead, in a schema of its own
 * that it drops afterwards.
 */

import { execFile } from 'node:child_process';
import { startDemoServer } from './lib/demoServer';

const CONCURRENCY = 20;
const SECONDS = 3;
/** Rounds of bare route and monthly read in turn. */
const ROUNDS = 3;

export async function run(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  console.log(`   database: ${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'}`);
  const demo = await startDemoServer({ name: 'api', databaseUrl });
  const { db, base, token } = demo;
  try {
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'accept-encoding': 'gzip, deflate, br',
    };
    const planId = demo.planIds[0] ?? 0;
    const caseId = Number((await db('cases').where({ plan_id: planId }).orderBy('position').first()).id);
    const monthlyUrl = `${base}/pl/monthly/retrieve?business_plan_id=${planId}&case_id=${caseId}`;
    const identity = { ...headers, 'accept-encoding': 'identity' };
    /** The answer's JSON and what goes over the wire (compressed, when the client accepts it). */
    const sizes = async (url: string) => {
      const answer = await fetch(url, { headers });
      const json = (await answer.arrayBuffer()).byteLength;
      const sent = Number(answer.headers.get('content-length') ?? json);
      const encoding = answer.headers.get('content-encoding');
      return `${kib(json)} JSON${encoding ? `, ${kib(sent)} ${encoding}` : ''}`;
    };
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

    // The monthly screen shows one plan year at a time and asks for just that year: the budget's call. The bare
    // route and the read take turns, ROUNDS times, so that a drift of the machine touches both alike.
    const yearUrl = `${monthlyUrl}&year=1`;
    // A warm-up of both, unmeasured: the JIT compiles the routes, the answer is serialised and gzipped.
    await load({ url: `${base}/health`, headers, seconds: 1 });
    await load({ url: yearUrl, headers, seconds: 1 });
    const rounds: { bare: number; read: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bareRound = await load({ url: `${base}/health`, headers });
      const readRound = await load({ url: yearUrl, headers });
      rounds.push({ bare: bareRound.rps, read: readRound.rps });
    }
    const ratios = rounds.map((r) => r.read / r.bare).sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)] ?? 0;
    const bare = { rps: rounds.reduce((sum, r) => sum + r.bare, 0) / ROUNDS };
    const oneYear = { rps: rounds.reduce((sum, r) => sum + r.read, 0) / ROUNDS };
    line('bare Koa JSON route /api/v1/health', `${bare.rps.toFixed(0)} req/s`, `mean of ${ROUNDS} rounds`);
    line(
      `/api/v1/pl/monthly/retrieve?year=1, warm (${await sizes(yearUrl)})`,
      `${oneYear.rps.toFixed(0)} req/s`,
      `${median.toFixed(2)} x the bare route (median of ${ROUNDS} rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}; budget: at least 0.5)`,
    );
    // For reference: the same call from a client that takes no compression, and all six years at once.
    const plain = await load({ url: yearUrl, headers: identity });
    line(
      '  the same, uncompressed',
      `${plain.rps.toFixed(0)} req/s`,
      `${(plain.rps / bare.rps).toFixed(2)} x the bare route`,
    );
    const monthly = await load({ url: monthlyUrl, headers });
    line(
      `  all six years (${await sizes(monthlyUrl)})`,
      `${monthly.rps.toFixed(0)} req/s`,
      `${(monthly.rps / bare.rps).toFixed(2)} x the bare route`,
    );

    // Editors alternate the year-1 COGS rate between two values, so every request changes the plan.
    const edits = await load({
      url: `${base}/case/edit`,
      headers,
      method: 'POST',
      bodies: [0.3, 0.31].map((value) =>
        JSON.stringify({ business_plan_id: planId, case_id: caseId, year: 1, key: 'cogs_rate', value }),
      ),
    });
    line(
      `/api/v1/case/edit, ${CONCURRENCY} concurrent editors`,
      `p95 ${edits.p95.toFixed(1)} ms`,
      `median ${edits.p50.toFixed(1)} ms, ${edits.rps.toFixed(0)} req/s, ${edits.failures} failed`,
    );
  } finally {
    await demo.close();
  }
}

interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  method?: string;
  /** Request bodies, used in turn. */
  bodies?: string[];
  seconds?: number;
}

/**
 * The load generator: CONCURRENCY loops on undici's connection pool, each sending one request after another for
 * SECONDS, in a process of its own so that sending and reading does not compete with the server for its event loop.
 * It reads every body to its end but decodes nothing, as a load generator should.
 */
const LOADER = `
const { Pool } = require('undici');
const spec = JSON.parse(process.argv[1]);
const url = new URL(spec.url);
const pool = new Pool(url.origin, { connections: spec.concurrency });
(async () => {
  const latencies = [];
  let failures = 0;
  let n = 0;
  const started = performance.now();
  const until = started + spec.seconds * 1000;
  await Promise.all(Array.from({ length: spec.concurrency }, async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const body = spec.bodies ? spec.bodies[n++ % spec.bodies.length] : undefined;
      const response = await pool.request({ path: url.pathname + url.search, method: spec.method || 'GET', headers: spec.headers, body });
      for await (const _ of response.body);
      if (response.statusCode !== 200) failures++;
      latencies.push(performance.now() - t0);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  process.stdout.write(JSON.stringify({ count: latencies.length, seconds, failures, latencies }));
})();
`;

async function load(spec: LoadSpec) {
  const output = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['-e', LOADER, JSON.stringify({ concurrency: CONCURRENCY, seconds: SECONDS, ...spec })],
      { cwd: import.meta.dirname, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
  const result = JSON.parse(output) as { count: number; seconds: number; failures: number; latencies: number[] };
  const latencies = result.latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: result.count / result.seconds, p50: at(0.5), p95: at(0.95), failures: result.failures };
}

function line(what: string, value: string, note = ''): void {
  console.log(`   ${what.padEnd(58)} ${value.padStart(14)}  ${note}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
