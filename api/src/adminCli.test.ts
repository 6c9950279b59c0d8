import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { planMonth } from '@topline/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAnswer, startTestApi } from './testing/harness';

/**
 * `npm run admin` beside `npm start` on the embedded database, with real processes: the server is `tsx
 * api/src/start.ts` in a process group of its own (as a terminal runs `npm start`), stopped by a signal to the whole
 * group (Ctrl+C is SIGINT to the group) or killed; the CLI is `api/src/admin.ts`. On PostgreSQL the CLI works beside
 * a running API as it always did.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const TSX = resolve(ROOT, 'node_modules', '.bin', 'tsx');
const databaseUrl = process.env.TEST_DATABASE_URL || undefined;
const SECRET = 'admin-cli-test-secret-0123456789-abcdef';

const groups: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const child of groups) if (child.exitCode === null && child.signalCode === null) killGroup(child, 'SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    // gone
  }
}

interface Server {
  url: string;
  demo: { email: string; password: string };
  child: ChildProcess;
  exited: Promise<number | NodeJS.Signals | null>;
  /** Milliseconds from spawn to listening. */
  startedIn: number;
}

/**
 * `npm start` on DATA_DIR: resolves once it prints its address.
 * @throws Error with its output when it ends first or takes longer than `timeoutMs`
 */
function startServer(dataDir: string, timeoutMs = 45_000): Promise<Server> {
  const began = performance.now();
  const child = spawn(process.execPath, [TSX, 'api/src/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'error', APP_SECRET: SECRET, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groups.push(child);
  let output = '';
  const exited = new Promise<number | NodeJS.Signals | null>((done) =>
    child.once('exit', (code, signal) => done(signal ?? code)),
  );
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      killGroup(child, 'SIGKILL');
      fail(new Error(`npm start did not listen within ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    void exited.then((how) => {
      clearTimeout(timer);
      fail(new Error(`npm start ended (${how}) before it listened: ${output}`));
    });
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
      const demo = /Demo sign-in: (\S+) \/ (\S+)/.exec(output);
      if (!url || !demo) return;
      clearTimeout(timer);
      done({
        url,
        demo: { email: demo[1] as string, password: demo[2] as string },
        child,
        exited,
        startedIn: performance.now() - began,
      });
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
  });
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** A process run to its end, killed (and the test failed) after `timeoutMs`. */
function run(args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<Run> {
  const began = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${args.join(' ')} hung for ${timeoutMs} ms: ${stdout} ${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, ms: performance.now() - began });
    });
  });
}

const admin = (dataDir: string, ...args: string[]) =>
  run(['--import', 'tsx', 'api/src/admin.ts', ...args], {
    DATA_DIR: dataDir,
    APP_SECRET: SECRET,
    DATABASE_URL: '',
    LOG_LEVEL: 'error',
  });

// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field and assert every value they use
async function call(base: string, method: 'GET' | 'POST', path: string, token?: string, body?: object): Promise<any> {
  const target = new URL(`/api/v1${path}`, base);
  const query = method === 'GET' ? (body as Record<string, number> | undefined) : undefined;
  for (const [k, v] of Object.entries(query ?? {})) target.searchParams.set(k, String(v));
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method === 'POST') headers['Content-Type'] = 'application/json';
  try {
    const response = await fetch(target, {
      method,
      headers,
      ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
    });
    const parsed = response.status === 204 ? null : await response.json();
    checkAnswer(method, path, response.status, parsed);
    return { status: response.status, body: parsed };
  } catch (error) {
    if (error instanceof TypeError) return { status: 0, body: null };
    throw error;
  }
}

async function signIn(server: Server): Promise<string> {
  const answer = await call(server.url, 'POST', '/users/email-signin', undefined, server.demo);
  expect(answer.status).toBe(200);
  return answer.body.app_token;
}

const tierOf = async (server: Server, token: string): Promise<string> =>
  (await call(server.url, 'GET', '/user/me', token)).body.data.user.plan.plan;

describe.runIf(!databaseUrl)('npm run admin beside npm start on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'topline-admin-'));
  dirs.push(dataDir);
  /** Every write a server acknowledged: month (plan month number) -> equity_raised. */
  const acknowledged = new Map<number, number>();
  /** The tier the last CLI run set on the demo account. */
  let tier = '';
  let round = 0;

  /** The plan's cash-flow inputs as the server reads them back. */
  async function equityOf(server: Server, token: string, planId: number) {
    const file = await call(server.url, 'GET', '/business-plan/file', token, { business_plan_id: planId });
    expect(file.status).toBe(200);
    const cash = file.body.data.plan.cases[0].cash as Record<string, { equity_raised?: number }>;
    return { cash, caseId: file.body.data.case_ids[0] as number };
  }

  it('runs the command through the running server, which sees it at once; a second server refuses at once', async () => {
    const server = await startServer(dataDir);
    const token = await signIn(server);
    for (const next of ['basic', 'free', 'team']) {
      const cli = await admin(dataDir, 'tier', server.demo.email, next);
      expect({ code: cli.code, stderr: cli.stderr }).toEqual({ code: 0, stderr: '' });
      expect(cli.stdout).toContain(`${server.demo.email} is now on ${next}. (through the running server, process`);
      // The server made the change, so its own caches follow at once.
      expect(await tierOf(server, token)).toBe(next);
    }
    tier = 'team';
    const unknown = await admin(dataDir, 'tier', 'nobody@example.com', 'basic');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account for nobody@example.com.');

    const second = await run([TSX, 'api/src/start.ts'], { DATA_DIR: dataDir, PORT: '0', APP_SECRET: SECRET });
    expect(second.code).toBe(1);
    // The process named is the server's node process, a child of tsx's.
    expect(second.stderr).toMatch(/is in use by a Topline server \(process \d+\)\. Stop it first \(Ctrl\+C/);
    expect(second.ms).toBeLessThan(20_000);
    killGroup(server.child, 'SIGTERM');
    expect([0, 143]).toContain(await server.exited);
  }, 120_000);

  it('refuses at once, changing nothing, while another process holds the database without an admin channel', async () => {
    // A live process holds the lock as an admin command does while it runs.
    const holder = spawn('sleep', ['60']);
    groups.push(holder);
    const lockFile = join(dataDir, 'pglite.lock');
    const owner = { pid: holder.pid, started: null, role: 'admin', since: new Date().toISOString() };
    writeFileSync(lockFile, JSON.stringify(owner));
    const cli = await admin(dataDir, 'tier', 'demo@topline.example', 'basic');
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain(`in use by an admin command (process ${holder.pid})`);
    expect(cli.stderr).toContain('Nothing was changed. Wait until that command has finished');
    expect(cli.ms).toBeLessThan(15_000);
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(holder.pid);
    holder.kill('SIGKILL');
    await new Promise((done) => holder.once('exit', done));
    // Its holder gone, the lock is stale: the next opener takes it over.
  }, 60_000);

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGKILL'] as const) {
    it(`after ${signal} to the server's process group during writes, the next CLI run and start do not hang and lose nothing`, async () => {
      round++;
      const server = await startServer(dataDir);
      const token = await signIn(server);
      const planId = (await call(server.url, 'GET', '/user/me', token)).body.data.business_plans[0].business_plan_id;
      // What the last round's CLI and servers left is all there.
      const before = await equityOf(server, token, planId);
      for (const [t, value] of acknowledged)
        expect({ t, value: before.cash[String(t)]?.equity_raised }).toEqual({ t, value });
      expect(await tierOf(server, token)).toBe(tier);

      // Writes from four senders, each to a month of its own; the signal goes to the group once 8 of this round's
      // are acknowledged, with others in flight. An answer other than 200 is no acknowledgement.
      const writes = Array.from({ length: 20 }, (_, i) => ({
        t: (round - 1) * 20 + i + 1,
        value: 1_000 * (round * 100 + i + 1),
      }));
      let next = 0;
      let signalled = false;
      let acknowledgedNow = 0;
      const sender = async () => {
        while (!signalled && next < writes.length) {
          const write = writes[next++] as { t: number; value: number };
          const year = Math.ceil(write.t / 12);
          const month = write.t - (year - 1) * 12;
          expect(planMonth(year, month)).toBe(write.t);
          const answer = await call(server.url, 'POST', '/pl/monthly/cashflow/edit', token, {
            business_plan_id: planId,
            case_id: before.caseId,
            year,
            month,
            equity_raised: write.value,
          });
          if (answer.status === 200) {
            acknowledged.set(write.t, write.value);
            acknowledgedNow++;
          }
          if (!signalled && acknowledgedNow >= 8) {
            signalled = true;
            killGroup(server.child, signal);
          }
        }
      };
      await Promise.all([sender(), sender(), sender(), sender()]);
      expect(signalled).toBe(true);
      // Once the server has closed, tsx ends with 0 or the shell's code of the signal it relayed.
      const ended = { SIGINT: [0, 130], SIGTERM: [0, 143], SIGKILL: ['SIGKILL'] }[signal];
      expect(ended).toContain(await server.exited);

      // The next CLI run opens the database itself, in bounded time, whatever the stop left behind.
      tier = tier === 'basic' ? 'team' : 'basic';
      const cli = await admin(dataDir, 'tier', server.demo.email, tier);
      expect({ code: cli.code, stdout: cli.stdout.trim(), stderr: cli.stderr }).toEqual({
        code: 0,
        stdout: `${server.demo.email} is now on ${tier}.`,
        stderr: '',
      });
      expect(cli.ms).toBeLessThan(30_000);
    }, 150_000);
  }

  it('starts after the last kill and sees every acknowledged write and the CLI change', async () => {
    const server = await startServer(dataDir);
    expect(server.startedIn).toBeLessThan(45_000);
    const token = await signIn(server);
    const planId = (await call(server.url, 'GET', '/user/me', token)).body.data.business_plans[0].business_plan_id;
    const { cash } = await equityOf(server, token, planId);
    expect(acknowledged.size).toBeGreaterThanOrEqual(24);
    for (const [t, value] of acknowledged) expect({ t, value: cash[String(t)]?.equity_raised }).toEqual({ t, value });
    expect(await tierOf(server, token)).toBe(tier);
    killGroup(server.child, 'SIGINT');
    expect([0, 130]).toContain(await server.exited);
  }, 90_000);
});

describe.runIf(Boolean(databaseUrl))('npm run admin beside a running API on PostgreSQL', () => {
  it('changes the database the API serves, and the API sees it', async () => {
    const api = await startTestApi();
    try {
      const { token } = await api.user('pg-admin@example.com', 'free');
      const cli = await run(['--import', 'tsx', 'api/src/admin.ts', 'tier', 'pg-admin@example.com', 'team'], {
        DATA_DIR: api.dataDir,
        DATABASE_URL: databaseUrl as string,
        DATABASE_SCHEMA: api.schema as string,
        LOG_LEVEL: 'error',
      });
      expect({ code: cli.code, stdout: cli.stdout.trim(), stderr: cli.stderr }).toEqual({
        code: 0,
        stdout: 'pg-admin@example.com is now on team.',
        stderr: '',
      });
      // The API empties its caches when PostgreSQL's change notification arrives.
      let plan = '';
      for (let i = 0; i < 100 && plan !== 'team'; i++) {
        plan = (await api.call('GET', '/user/me', { token })).body.data.user.plan.plan;
        if (plan !== 'team') await new Promise((done) => setTimeout(done, 20));
      }
      expect(plan).toBe('team');
    } finally {
      await api.close();
    }
  }, 60_000);
});
