/**
 * API budgets of DESIGN.md ("Performance budgets") and issue 3, measured in one process against embedded PGlite:
 * requests per second (load sent from a worker thread) of `/api/v1/pl/monthly/retrieve` from a warm workbook cache
 * against the bare JSON route
 * `/api/v1/health` of the same server under the same load, and the p95 latency of `/api/v1/case/edit` with 20
 * concurrent editors. Printed, never asserted. With BENCH_DATABASE_URL set it runs on that PostgreSQL instead, in a
 * schema of its own that it drops afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createApp } from '../api/src/app';
import { loadConfig } from '../api/src/config';
import { migrateLatest, openDb, pgliteDirIn } from '../api/src/db';
import { seedIfEmpty } from '../api/src/seed';
import { listen } from '../api/src/server';
import { importPlanFile } from '../api/src/services/planFile';

const CONCURRENCY = 20;
const SECONDS = 4;

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'topline-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  const schema = databaseUrl ? `bench_${process.pid}` : undefined;
  const db = openDb({ databaseUrl, pgliteDir: pgliteDirIn(dataDir), ...(schema ? { schema } : {}) });
  console.log(`   database: ${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'}`);
  try {
    await migrateLatest(db, schema);
    const seed = await seedIfEmpty(db, join(import.meta.dirname, '..', 'fixtures'), importPlanFile, new Date());
    const logger = { info: () => {}, error: (m: string, e?: unknown) => console.error(m, e) };
    const app = createApp({ db, config, logger, mailer: { send: async () => {} } });
    const server = await listen(app.callback(), 0, '127.0.0.1');
    const address = server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
    const signin = await fetch(`${base}/users/email-signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: seed.demo.email, password: seed.demo.password }),
    });
    const token = ((await signin.json()) as { app_token: string }).app_token;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const planId = seed.planIds[0] ?? 0;
    const caseId = Number((await db('cases').where({ plan_id: planId }).orderBy('position').first()).id);
    const monthlyUrl = `${base}/pl/monthly/retrieve?business_plan_id=${planId}&case_id=${caseId}`;
    const warm = await fetch(monthlyUrl, { headers });
    const bytes = (await warm.arrayBuffer()).byteLength;

    const bare = await load({ url: `${base}/health`, headers });
    const monthly = await load({ url: monthlyUrl, headers });
    line('bare Koa JSON route /api/v1/health', `${bare.rps.toFixed(0)} req/s`);
    line(
      `/api/v1/pl/monthly/retrieve, warm (${(bytes / 1024).toFixed(0)} KiB)`,
      `${monthly.rps.toFixed(0)} req/s`,
      `${(monthly.rps / bare.rps).toFixed(2)} x the bare route (budget: at least 0.5)`,
    );
    // The monthly screen shows one plan year at a time and can ask for just that year.
    const yearUrl = `${monthlyUrl}&year=1`;
    const yearBytes = (await (await fetch(yearUrl, { headers })).arrayBuffer()).byteLength;
    const oneYear = await load({ url: yearUrl, headers });
    line(
      `/api/v1/pl/monthly/retrieve?year=1, warm (${(yearBytes / 1024).toFixed(0)} KiB)`,
      `${oneYear.rps.toFixed(0)} req/s`,
      `${(oneYear.rps / bare.rps).toFixed(2)} x the bare route (budget: at least 0.5)`,
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
    server.closeAllConnections();
    server.close();
  } finally {
    if (schema) await db.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  method?: string;
  /** Request bodies, used in turn. */
  bodies?: string[];
}

/**
 * The load generator: CONCURRENCY loops sending one request after another for SECONDS, in a worker thread, so that
 * reading the answers does not compete with the server for its event loop.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, headers, method, bodies, concurrency, seconds } = workerData;
(async () => {
  const latencies = [];
  let failures = 0;
  let n = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const body = bodies ? bodies[n++ % bodies.length] : undefined;
      const response = await fetch(url, { method: method || 'GET', headers, body });
      await response.arrayBuffer();
      if (!response.ok) failures++;
      latencies.push(performance.now() - t0);
    }
  }));
  parentPort.postMessage({ latencies, failures, elapsed: (performance.now() - started) / 1000 });
})();
`;

async function load(spec: LoadSpec) {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { ...spec, concurrency: CONCURRENCY, seconds: SECONDS },
  });
  const result = await new Promise<{ latencies: number[]; failures: number; elapsed: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  const latencies = result.latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: latencies.length / result.elapsed, p50: at(0.5), p95: at(0.95), failures: result.failures };
}

function line(what: string, value: string, note = ''): void {
  console.log(`   ${what.padEnd(58)} ${value.padStart(14)}  ${note}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
