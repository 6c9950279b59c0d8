import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from './db';
import { type BuiltServer, buildServerForTest, startBuiltServer } from './testing/builtServer';
import { costItem, createPlan, startTestApi, TEST_PASSWORD } from './testing/harness';

const databaseUrl = process.env.TEST_DATABASE_URL || undefined;
const APP_SECRET = 'test-secret-test-secret-test-secret-0123';
const cleanups: (() => Promise<void> | void)[] = [];
let build: string;
let setup: Awaited<ReturnType<typeof startTestApi>>;
let owner: { email: string; planId: number; caseId: number };

/** A web build of one page, so that the test does not depend on whether `npm run build` ran before it. */
let webDist: string;

/**
 * The built server's database (the test's schema on PostgreSQL, by the connection's search path, else its folder) and
 * web build.
 */
function databaseEnv(url = databaseUrl): Record<string, string> {
  const common = { DATA_DIR: setup.dataDir, APP_SECRET, WEB_DIST: webDist };
  if (!url) return { ...common, DATABASE_URL: '' };
  const target = new URL(url);
  target.searchParams.set('options', `-c search_path=${setup.schema}`);
  return { ...common, DATABASE_URL: target.href };
}

async function started(env: Record<string, string> = {}): Promise<BuiltServer> {
  const server = await startBuiltServer(build, { ...databaseEnv(), ...env });
  cleanups.push(() => server.kill('SIGKILL'));
  return server;
}

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'topline-web-'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  cleanups.push(() => rmSync(webDist, { recursive: true, force: true }));
  const built = await buildServerForTest();
  cleanups.push(built.remove);
  build = built.dir;
  // The account and plan are made in-process, then the built server serves the same database.
  setup = await startTestApi({ env: { APP_SECRET } });
  cleanups.push(() => setup.close());
  const { user, token } = await setup.user('owner@example.com', 'basic');
  const { planId, caseId } = await createPlan(setup, token);
  owner = { email: user.email, planId, caseId };
  await setup.stop();
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
}, 60_000);

describe('the built server', () => {
  it('answers health and readiness, and names every answer and log line by its request id', async () => {
    const server = await started();
    const health = await fetch(`${server.url}/api/v1/health`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${server.url}/api/v1/ready`, { headers: { 'X-Request-Id': 'probe-0123456789' } });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ data: { ok: true } });
    expect(ready.headers.get('x-request-id')).toBe('probe-0123456789');
    // An id a caller could use to forge log lines is replaced by one of the server's.
    const forged = await fetch(`${server.url}/api/v1/health`, { headers: { 'X-Request-Id': 'a b\tc{"level":"x"}' } });
    const given = forged.headers.get('x-request-id') ?? '';
    expect(given).toMatch(/^[0-9a-f-]{36}$/);
    const web = await fetch(`${server.url}/`);
    expect(web.status).toBe(200);
    expect(await web.text()).toContain('<html');
    await server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const lines = server.lines();
    expect(lines.find((line) => line.path === '/api/v1/ready')).toMatchObject({
      level: 'info',
      requestId: 'probe-0123456789',
      method: 'GET',
      status: 200,
    });
    expect(lines.find((line) => line.requestId === given)).toMatchObject({ path: '/api/v1/health' });
    expect(lines.map((line) => line.msg)).toContain('stopped');
  }, 120_000);

  it('logs no password, token or amount of a sign-in, a billing call and a plan edit', async () => {
    const server = await started();
    const call = (path: string, body?: unknown, token?: string) =>
      fetch(`${server.url}/api/v1${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          'X-Requested-With': 'XMLHttpRequest',
          'Content-Type': 'application/json',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const signin = await call('/users/email-signin', { email: owner.email, password: TEST_PASSWORD });
    expect(signin.status).toBe(200);
    const token = ((await signin.json()) as { app_token: string }).app_token;
    // Billing is off without Stripe: the call is refused, and logged like any other.
    expect((await call('/billing/retrieve', undefined, token)).status).toBe(503);
    const edit = await call(
      '/cost/create',
      { business_plan_id: owner.planId, case_id: owner.caseId, item: costItem({ price: 7_654_321 }) },
      token,
    );
    expect(edit.status, await edit.clone().text()).toBe(200);
    await server.kill('SIGTERM');
    const log = server.output();
    const paths = server.lines().map((line) => line.path);
    expect(paths).toEqual(expect.arrayContaining(['/api/v1/users/email-signin', '/api/v1/billing/retrieve']));
    expect(paths).toContain('/api/v1/cost/create');
    expect(log).not.toContain(TEST_PASSWORD);
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.split('.')[2]);
    expect(log).not.toMatch(/7,?654,?321/);
  }, 120_000);

  it('writes an XLSX export and reads its import on their worker threads, built beside the server', async () => {
    const server = await started();
    const headers = { 'X-Requested-With': 'XMLHttpRequest' };
    const signin = await fetch(`${server.url}/api/v1/users/email-signin`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: owner.email, password: TEST_PASSWORD }),
    });
    const auth = { ...headers, Authorization: `Bearer ${((await signin.json()) as { app_token: string }).app_token}` };
    const exported = await fetch(`${server.url}/api/v1/business-plan/xlsx?business_plan_id=${owner.planId}`, {
      headers: auth,
    });
    expect(exported.status).toBe(200);
    const form = new FormData();
    form.set('business_plan_id', String(owner.planId));
    form.set('file', new Blob([await exported.arrayBuffer()]), 'plan.xlsx');
    const imported = await fetch(`${server.url}/api/v1/business-plan/xlsx/import`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect(((await imported.json()) as { data: { changes: unknown[] } }).data.changes).toEqual([]);
    await server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);

  it('on SIGTERM takes no new connection, answers the request in progress, then exits 0', async () => {
    const server = await started();
    const body = JSON.stringify({ email: owner.email, password: TEST_PASSWORD });
    const port = Number(new URL(server.url).port);
    // A sign-in whose body arrives slowly: in progress when the signal comes.
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const slow = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v1/users/email-signin',
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            'X-Requested-With': 'XMLHttpRequest',
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      slow.on('error', reject);
      slow.write(body.slice(0, 10));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => slow.end(body.slice(10)), 1_500);
      }, 500);
    });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    // Draining: the listening socket is closed.
    await expect(connects(port)).resolves.toBe(false);
    const { status, text } = await answer;
    expect(status, text).toBe(200);
    expect(await server.exited).toBe(0);
  }, 120_000);

  it.skipIf(!databaseUrl)(
    'on SIGTERM finishes a plan write waiting for the plan, then exits 0',
    async () => {
      const server = await started();
      const signin = await fetch(`${server.url}/api/v1/users/email-signin`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ email: owner.email, password: TEST_PASSWORD }),
      });
      const token = ((await signin.json()) as { app_token: string }).app_token;
      // Another process's write holds the plan: this one queues behind it until it commits.
      const other = openDb({ databaseUrl, ...(setup.schema ? { schema: setup.schema } : {}) });
      cleanups.push(() => other.destroy());
      const holder = await other.transaction();
      await holder('business_plans').where({ id: owner.planId }).forUpdate().first('id');
      const write = fetch(`${server.url}/api/v1/cost/create`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Requested-With': 'XMLHttpRequest',
          Authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({
          business_plan_id: owner.planId,
          case_id: owner.caseId,
          item: costItem({ item_name: 'Queued at shutdown' }),
        }),
      });
      let answered = false;
      void write.then(() => {
        answered = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      server.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(answered).toBe(false);
      expect(server.child.exitCode).toBe(null);
      await holder.commit();
      const answer = await write;
      expect(answer.status, await answer.clone().text()).toBe(200);
      expect(await server.exited).toBe(0);
      expect(await other('cost_items').where({ item_name: 'Queued at shutdown' }).first('id')).toBeDefined();
    },
    120_000,
  );

  it.skipIf(!databaseUrl)(
    'is not ready while its database is unreachable',
    async () => {
      const target = new URL(databaseUrl ?? '');
      const relay = await tcpRelay(target.hostname, Number(target.port || 5432));
      target.host = `127.0.0.1:${relay.port}`;
      const server = await startBuiltServer(build, { ...databaseEnv(target.href) });
      cleanups.push(() => server.kill('SIGKILL'));
      expect((await fetch(`${server.url}/api/v1/ready`)).status).toBe(200);
      await relay.close();
      const ready = await fetch(`${server.url}/api/v1/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ code: 'unavailable' });
      expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
    },
    120_000,
  );
});

/** Whether a TCP connection to the port is accepted. */
function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A TCP relay to the database, which the test cuts (every connection and the port) to make it unreachable. */
async function tcpRelay(host: string, port: number): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = createConnection({ host, port });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: async () => {
      const closed = new Promise<void>((resolve) => relay.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
