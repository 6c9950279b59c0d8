import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { listen } from './server';
import { startTestApi, type TestApi } from './testing/harness';

let http: TestApi;
let https: TestApi;
const webDist = mkdtempSync(join(tmpdir(), 'topline-web-dist-'));
const servers: Server[] = [];

/** The app of a test API serving a web build as well, as `npm start` does. */
async function withWeb(api: TestApi): Promise<string> {
  const app = createApp({
    db: api.db,
    config: api.config,
    mailer: { send: async () => {} },
    logger: { info: () => {}, error: () => {} },
    workbooks: api.workbooks,
    accessCache: api.accessCache,
    webDist,
  });
  const server = await listen(app.callback(), 0, '127.0.0.1');
  servers.push(server);
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

beforeAll(async () => {
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  [http, https] = await Promise.all([
    startTestApi(),
    startTestApi({ env: { PUBLIC_URL: 'https://topline.example.com' } }),
  ]);
});

afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.all([http?.close(), https?.close()]);
  rmSync(webDist, { recursive: true, force: true });
});

/** The Content-Security-Policy's directives by name. */
function directives(headers: Headers): Map<string, string[]> {
  const csp = headers.get('content-security-policy') ?? '';
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name = '', ...values]) => [name, values]),
  );
}

function expectSecurityHeaders(headers: Headers): void {
  const csp = directives(headers);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')?.[0]).toBe("'self'");
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
  expect(csp.get('script-src-attr')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  // Home frames the app's own benchmark pages; no other site may frame it.
  expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
}

describe('security headers', () => {
  it('come with API answers, errors included', async () => {
    const health = await http.call('GET', '/health');
    expect(health.status).toBe(200);
    expectSecurityHeaders(health.headers);
    const missing = await http.call('GET', '/no-such-call');
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing.headers);
    const unauthorised = await http.call('GET', '/business-plan/file', { query: { business_plan_id: 1 } });
    expect(unauthorised.status).toBe(401);
    expectSecurityHeaders(unauthorised.headers);
  });

  it('come with pages and the runtime configuration script', async () => {
    const web = await withWeb(http);
    for (const path of ['/', '/business-plans/1/pl', '/config.js']) {
      const response = await fetch(new URL(path, web));
      await response.arrayBuffer();
      expect(response.status, path).toBe(200);
      expectSecurityHeaders(response.headers);
    }
    const page = await fetch(new URL('/login', web));
    expect(await page.text()).toContain('<div id="root">');
    expectSecurityHeaders(page.headers);
  });

  it('leave HSTS out when PUBLIC_URL is http, so that a local run over plain http keeps working', async () => {
    const health = await http.call('GET', '/health');
    expect(http.config.PUBLIC_URL.startsWith('http:')).toBe(true);
    expect(health.headers.get('strict-transport-security')).toBeNull();
    expect(directives(health.headers).has('upgrade-insecure-requests')).toBe(false);
  });

  it('send HSTS when PUBLIC_URL is https', async () => {
    const health = await https.call('GET', '/health');
    expectSecurityHeaders(health.headers);
    expect(health.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(directives(health.headers).has('upgrade-insecure-requests')).toBe(true);
    const page = await fetch(new URL('/', await withWeb(https)));
    await page.arrayBuffer();
    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });
});
