/**
 * The built web app served by the API, as `npm start` serves it, measured from Chromium through the DevTools
 * protocol: a first visit downloads the JavaScript brotli-compressed, and a second visit in the same browser, to
 * another working screen, downloads none of it again (the hashed files come from the browser's cache, unasked).
 */

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/src/app';
import { listen } from '../api/src/server';
import { planForm, startTestApi, type TestApi } from '../api/src/testing/harness';
import { TOKEN_KEY } from '../web/src/api/client';
import { CHROMIUM, CHROMIUM_ARGS, WEB_ROOT } from './browser';

let api: TestApi;
let server: Server;
let webUrl: string;
let outDir: string;
let browser: Browser;
let context: BrowserContext;
let planId: number;
/** What the server answered, in order: each request's path and status as it was sent. */
const answered: { path: string; status: number }[] = [];

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'topline-web-cache-'));
  await build({ root: WEB_ROOT, logLevel: 'error', build: { outDir, emptyOutDir: true, manifest: true } });
  api = await startTestApi();
  const app = createApp({
    db: api.db,
    config: api.config,
    mailer: { send: async () => {} },
    logger: { info: () => {}, error: () => {} },
    workbooks: api.workbooks,
    accessCache: api.accessCache,
    webDist: outDir,
  });
  const handle = app.callback();
  server = await listen(
    (req, res) => {
      res.on('finish', () => answered.push({ path: (req.url ?? '').split('?')[0] ?? '', status: res.statusCode }));
      void handle(req, res);
    },
    0,
    '127.0.0.1',
  );
  const address = server.address();
  webUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const owner = await api.user('cache-owner@example.com', 'team');
  const created = await api.call('POST', '/business-plan/create', {
    token: owner.token,
    form: planForm({ business_plan_name: 'Cache plan', start_year: '2026', start_month: '4' }),
  });
  planId = created.body.data.business_plan_id;

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 }, baseURL: webUrl });
  await context.addInitScript(
    ([key, value]) => window.localStorage.setItem(key ?? '', value ?? ''),
    [TOKEN_KEY, owner.token],
  );
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await api?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

/** One resource of a page as the DevTools protocol saw it load. */
interface Load {
  url: string;
  type: string;
  status: number;
  encoding: string | undefined;
  cacheControl: string | undefined;
  /** Served by the browser's HTTP cache or its memory cache, without a request on the network. */
  fromCache: boolean;
  /** Bytes that crossed the network, headers included: 0 for what came from the cache. */
  transferred: number;
  /** Bytes after decoding. */
  decoded: number;
  /** Ended without its body: cancelled by a navigation, or failed. */
  failed: boolean;
  /** Ended, with its body or without. */
  ended: boolean;
}

/** Records every load of `page` through a DevTools session, until the returned function is called. */
async function recordLoads(page: Page): Promise<(stop?: boolean) => Promise<Load[]>> {
  const session: CDPSession = await page.context().newCDPSession(page);
  const loads = new Map<string, Load>();
  const all: Load[] = [];
  const blank = (url: string, type: string): Load => ({
    url,
    type,
    status: 0,
    encoding: undefined,
    cacheControl: undefined,
    fromCache: false,
    transferred: 0,
    decoded: 0,
    failed: false,
    ended: false,
  });
  const of = (id: string): Load => {
    let load = loads.get(id);
    if (!load) {
      load = blank('', '');
      loads.set(id, load);
      all.push(load);
    }
    return load;
  };
  // A file the page takes from its memory cache again comes under the id of its first load: each request is its own.
  session.on('Network.requestWillBeSent', (event) => {
    // An event of the request may come first (served from the cache): its load is this one.
    const early = loads.get(event.requestId);
    if (early && early.url === '') {
      early.url = event.request.url;
      early.type = event.type ?? '';
      return;
    }
    const load = blank(event.request.url, event.type ?? '');
    loads.set(event.requestId, load);
    all.push(load);
  });
  session.on('Network.requestServedFromCache', (event) => {
    of(event.requestId).fromCache = true;
  });
  session.on('Network.responseReceived', (event) => {
    const load = of(event.requestId);
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    load.url = event.response.url;
    load.type = event.type;
    load.status = event.response.status;
    load.encoding = headers['content-encoding'];
    load.cacheControl = headers['cache-control'];
    if (event.response.fromDiskCache || event.response.fromPrefetchCache) load.fromCache = true;
  });
  session.on('Network.dataReceived', (event) => {
    of(event.requestId).decoded += event.dataLength;
  });
  session.on('Network.loadingFailed', (event) => {
    const load = of(event.requestId);
    load.failed = true;
    load.ended = true;
  });
  session.on('Network.loadingFinished', (event) => {
    const load = of(event.requestId);
    load.transferred = event.encodedDataLength;
    load.ended = true;
  });
  await session.send('Network.enable');
  // What has loaded so far; the last call stops recording.
  let recording = true;
  return async (stop = true) => {
    if (stop && recording) {
      recording = false;
      await session.detach();
    }
    return all;
  };
}

async function openScreen(page: Page, screen: string): Promise<void> {
  await page.goto(`/business-plans/${planId}/${screen}`);
  await page.locator(`section[data-screen="${screen}"]`).waitFor();
  await page.waitForLoadState('networkidle');
}

/**
 * The app's own scripts, the hashed files of the build, whether loaded as a script or ahead of it by a module preload
 * (which DevTools may type otherwise); /config.js is the API's and revalidated each time.
 */
const scripts = (loads: Load[]) =>
  loads.filter((load) => load.url.startsWith(`${webUrl}/assets/`) && load.url.endsWith('.js'));
/**
 * Waits for the end of a visit's loads: the side menu's other screens load while the browser is idle, after the screen
 * shows, so the visit ends once no script has come for 3 s and every script that came has ended (one still on its way
 * has no answer yet, so nothing would say where it came from), but for a load the browser joined to another of the
 * same file, which never ends on its own.
 */
async function settle(page: Page, loads: (stop: boolean) => Promise<Load[]>): Promise<void> {
  let count = -1;
  for (let settled = 0; settled < 3; ) {
    const now = scripts(await loads(false));
    const ended = now.every((load) => load.ended || now.some((other) => other.url === load.url && other.ended));
    settled = now.length === count && ended ? settled + 1 : 0;
    count = now.length;
    await page.waitForTimeout(1_000);
  }
}
const sum = (loads: Load[], key: 'transferred' | 'decoded') => loads.reduce((total, load) => total + load[key], 0);

describe('the built app as the browser downloads it', () => {
  it('is built with a brotli and a gzip copy beside each script that compression makes smaller', () => {
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    const files = Object.values(manifest)
      .map((chunk) => chunk.file)
      .filter((file) => file.endsWith('.js'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files.filter((name) => statSync(join(outDir, name)).size >= 1024)) {
      expect(existsSync(join(outDir, `${file}.br`)), file).toBe(true);
      expect(existsSync(join(outDir, `${file}.gz`)), file).toBe(true);
    }
  });

  it('downloads compressed JavaScript once, and none on a second visit to another screen', async () => {
    const first = await context.newPage();
    const firstLoads = await recordLoads(first);
    await openScreen(first, 'pl');
    await first.locator('[data-test="pl-table"] .ag-row[row-id="arr"]').waitFor();
    // The screen's own lazy loads (the plan file, then the engine) and the other screens loaded while the browser is
    // idle end before the next navigation could cut them off: a load cut off after its file had come keeps the file
    // in the cache but never tells it (no answer, no end), and the next load of the file then comes from the cache.
    await first.waitForLoadState('networkidle');
    await settle(first, firstLoads);
    await openScreen(first, 'monthly_pl');
    await settle(first, firstLoads);
    // Each file once, as it came over the network: later loads of the visit (the second screen, a preload then its
    // import) take it from the cache. A load that a navigation cancelled is not what the cache holds, nor one the
    // browser joined to another request for the same file (it never has a response of its own).
    const loaded = scripts(await firstLoads()).filter((load) => !load.failed && load.status > 0);
    const firstVisit = [...new Set(loaded.map((load) => load.url))].flatMap((url) => {
      const load =
        loaded.find((each) => each.url === url && !each.fromCache) ?? loaded.find((each) => each.url === url);
      return load ? [load] : [];
    });
    await first.close();

    expect(firstVisit.length).toBeGreaterThan(3);
    for (const load of firstVisit) {
      expect(load.fromCache, load.url).toBe(false);
      expect(load.cacheControl, load.url).toBe('public, max-age=31536000, immutable');
      // A file too small to gain from compression is sent as it is.
      if (load.decoded >= 1024) expect(load.encoding, load.url).toBe('br');
    }
    // The whole first download of JavaScript crossed the network at under a third of its size.
    expect(sum(firstVisit, 'transferred')).toBeGreaterThan(10_000);
    expect(sum(firstVisit, 'transferred')).toBeLessThan(sum(firstVisit, 'decoded') / 3);

    const second = await context.newPage();
    const answeredBefore = answered.length;
    const secondLoads = await recordLoads(second);
    await openScreen(second, 'monthly_pl');
    await second.locator('.ag-row').first().waitFor();
    await settle(second, secondLoads);
    const all = await secondLoads();
    const secondVisit = scripts(all);
    await second.close();

    expect(secondVisit.length).toBeGreaterThan(3);
    for (const load of secondVisit) {
      // Said on failure: how the first visit had loaded the same file, if it had.
      const before = scripts(await firstLoads()).filter((each) => each.url === load.url);
      expect(load.fromCache, `${JSON.stringify(load)}; first visit: ${JSON.stringify(before)}`).toBe(true);
    }
    expect(sum(secondVisit, 'transferred')).toBe(0);
    // The page itself and /config.js are asked for again, and answered "not modified" by their ETags rather than sent
    // again: as the server sent them (the DevTools protocol may report a revalidation's status after the page idles).
    const secondAnswers = answered.slice(answeredBefore);
    expect(secondAnswers.find((a) => a.path === `/business-plans/${planId}/monthly_pl`)?.status).toBe(304);
    expect(secondAnswers.find((a) => a.path === '/config.js')?.status).toBe(304);
    expect(secondAnswers.filter((a) => a.path.startsWith('/assets/'))).toEqual([]);
  }, 180_000);
});
