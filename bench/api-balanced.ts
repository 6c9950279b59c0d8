/**
 * The mixed load through HAProxy (`deploy/haproxy.cfg`), with one API process behind it and with three, on PostgreSQL:
 * the demo account's plans, 80% screen reads and 20% writes, each call naming its plan as the web does. Prints the
 * errors (goal: none), p95 of reads and writes, and the three processes' throughput as a ratio to the one process's
 * (on two cores it is not expected to scale; it must not fall below 0.8 x). The two set-ups alternate in slices.
 * Printed, never asserted. Skipped when `haproxy` is not installed.
 *
 * The database is TEST_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, in a schema of
 * its own that is dropped afterwards. BENCH_MIXED_SECONDS sets each set-up's time, 20 s by default.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { type BuiltServer, buildServerForTest, startBuiltServer } from '../api/src/testing/builtServer';
import { freePort } from '../api/src/testing/freePort';
import { startDemoServer } from './lib/demoServer';
import { type Call, type Latencies, measure, phase, summarise, USERS, WRITE_SHARE } from './lib/mixedLoad';

const SECONDS = Number(process.env.BENCH_MIXED_SECONDS) || 20;
const SLICE_SECONDS = 10;
const DATABASE_URL =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const CONFIG = resolve(import.meta.dirname, '..', 'deploy', 'haproxy.cfg');

/** HAProxy with the deployment's configuration over these API addresses (three, repeated when fewer). */
async function haproxy(hosts: string[]): Promise<{ origin: string; proxy: ChildProcess }> {
  const port = await freePort();
  const [a = '', b = a, c = a] = hosts;
  const proxy = spawn('haproxy', ['-db', '-f', CONFIG], {
    env: { ...process.env, TOPLINE_BIND: `127.0.0.1:${port}`, API1: a, API2: b, API3: c },
    stdio: 'ignore',
  });
  const origin = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  // Ready once every server has passed its checks: a round of calls about no plan all answered.
  for (;;) {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${origin}/api/v1/ready`)
          .then((answer) => answer.status)
          .catch(() => 0),
      ),
    );
    if (answers.every((status) => status === 200)) break;
    if (Date.now() > until) throw new Error('HAProxy did not reach the API processes');
    await new Promise((done) => setTimeout(done, 500));
  }
  await new Promise((done) => setTimeout(done, 2_500));
  return { origin, proxy };
}

export async function run(): Promise<void> {
  if (spawnSync('haproxy', ['-v']).status !== 0) {
    console.log('   skipped: haproxy is not installed');
    return;
  }
  console.log(`   database: PostgreSQL (${new URL(DATABASE_URL).host}); HAProxy with deploy/haproxy.cfg`);
  const demo = await startDemoServer({ name: 'balanced', databaseUrl: DATABASE_URL });
  const build = await buildServerForTest();
  const servers: BuiltServer[] = [];
  const proxies: ChildProcess[] = [];
  try {
    const target = new URL(DATABASE_URL);
    target.searchParams.set('options', `-c search_path=${demo.schema}`);
    const env = {
      DATABASE_URL: target.href,
      DATA_DIR: demo.dataDir,
      MIGRATE_AT_START: 'false',
      TRUST_PROXY: '127.0.0.1',
    };
    for (let i = 0; i < 3; i++) servers.push(await startBuiltServer(build.dir, env));
    const hosts = servers.map((server) => new URL(server.url).host);
    const one = await haproxy(hosts.slice(0, 1));
    const three = await haproxy(hosts);
    proxies.push(one.proxy, three.proxy);

    const headers = {
      authorization: `Bearer ${demo.token}`,
      'content-type': 'application/json',
      'accept-encoding': 'gzip, deflate, br',
    };
    const reads: Call[] = [];
    const writes: Call[] = [];
    for (const planId of demo.planIds) {
      const caseId = Number((await demo.db('cases').where({ plan_id: planId }).orderBy('position').first()).id);
      const plan = `business_plan_id=${planId}`;
      for (const path of [
        `/api/v1/pl/retrieve?${plan}`,
        `/api/v1/pl/monthly/retrieve?${plan}&case_id=${caseId}&year=1`,
        `/api/v1/dashboard/retrieve?${plan}&case_id=${caseId}`,
      ]) {
        reads.push({ path, method: 'GET', plan: planId });
      }
      const post = (path: string, fields: object): Call => ({
        path: `/api/v1${path}`,
        method: 'POST',
        plan: planId,
        body: JSON.stringify({ business_plan_id: planId, case_id: caseId, ...fields }),
      });
      for (let i = 0; i < 6; i++) {
        writes.push(post('/case/edit', { year: 1, key: 'cogs_rate', value: 0.3 + i / 100 }));
        writes.push(post('/pl/monthly/edit', { year: 1, month: 1 + (i % 3), order: 5 + i }));
      }
    }

    // Each set-up warmed (every plan's workbook built where it is routed), then the two alternate in slices.
    for (const origin of [one.origin, three.origin])
      await measure({ origin, headers, reads, writes: [], seconds: 2 }, phase());
    const slices = Math.max(1, Math.round(SECONDS / SLICE_SECONDS));
    const onePhase = phase();
    const threePhase = phase();
    const quietPhase = phase();
    // What PostgreSQL's notification of each write's new version costs (`migrations/011_plan_version_notifications`):
    // three processes with that trigger off, the users still naming the versions they saw.
    const versionTrigger = (on: boolean) =>
      demo.db.raw(`ALTER TABLE business_plans ${on ? 'ENABLE' : 'DISABLE'} TRIGGER business_plans_notify_update`);
    for (let slice = 0; slice < slices; slice++) {
      await measure({ origin: one.origin, headers, reads, writes, seconds: SECONDS / slices }, onePhase);
      await measure({ origin: three.origin, headers, reads, writes, seconds: SECONDS / slices }, threePhase);
      await versionTrigger(false);
      try {
        await measure({ origin: three.origin, headers, reads, writes, seconds: SECONDS / slices }, quietPhase);
      } finally {
        await versionTrigger(true);
      }
    }
    const single = summarise(onePhase);
    const spread = summarise(threePhase);
    const quiet = summarise(quietPhase);
    const ms = (l: Latencies) => `${l.p95.toFixed(1)} ms`;
    for (const [name, figures] of [
      ['one process', single],
      ['three processes', spread],
    ] as const) {
      line(
        `${name}, mixed ${100 - WRITE_SHARE * 100}/${WRITE_SHARE * 100}, ${USERS} users, ${SECONDS} s: errors`,
        String(figures.errors),
        `of ${figures.reads.count + figures.writes.count} requests (goal: 0)` +
          (figures.samples.length ? `, e.g. ${figures.samples[0]}` : ''),
      );
      line('  throughput', `${figures.rps.toFixed(0)} req/s`);
      line('  reads p95 / writes p95', `${ms(figures.reads)} / ${ms(figures.writes)}`);
    }
    line(
      "  without the versions' notifications: throughput",
      `${quiet.rps.toFixed(0)} req/s`,
      `${(spread.rps / quiet.rps).toFixed(2)} x with them; writes p95 ${ms(quiet.writes)}, ${quiet.errors} errors`,
    );
    line(
      'three processes against one, through HAProxy',
      `${(spread.rps / single.rps).toFixed(2)} x`,
      `(must not fall below 0.8 x; ${demo.planIds.length} plans on this host's cores)`,
    );
  } finally {
    for (const proxy of proxies) proxy.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.kill('SIGTERM')));
    build.remove();
    await demo.close();
  }
}

function line(what: string, value: string, note = ''): void {
  console.log(`   ${what.padEnd(58)} ${value.padStart(22)}  ${note}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
