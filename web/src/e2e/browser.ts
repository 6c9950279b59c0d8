/**
 * Browser-test harness: builds the web app, starts the real API (PGlite, e-mail written to an outbox folder), serves
 * the build with /api proxied to it, and drives Debian's headless Chromium through playwright-core.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';
import { outboxMailer } from '../../../api/src/services/mail';
import { startTestApi, type TestApi } from '../../../api/src/testing/harness';

export const WEB_ROOT = resolve(import.meta.dirname, '../..');
export const SCREENSHOT_DIR = resolve(WEB_ROOT, '..', 'test-output', 'web');
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The Google client id the test API and the test web configuration share. */
export const GOOGLE_CLIENT_ID = 'topline-test-client';

/**
 * A local stand-in for Google's token-info endpoint: an access token `google:<email>` belongs to that address.
 * The API reaches it through its GOOGLE_TOKENINFO_URL setting, as it would reach Google.
 */
async function startTokenInfo(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const token = url.searchParams.get('access_token') ?? '';
    if (url.pathname !== '/tokeninfo' || !token.startsWith('google:')) {
      response.writeHead(400, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    const email = token.slice('google:'.length);
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ email, email_verified: 'true', sub: `sub-${email}`, aud: GOOGLE_CLIENT_ID }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server };
}

export interface Stack {
  api: TestApi;
  webUrl: string;
  outboxDir: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function startStack(): Promise<Stack> {
  const outDir = mkdtempSync(join(tmpdir(), 'topline-web-'));
  await build({ root: WEB_ROOT, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const outboxDir = mkdtempSync(join(tmpdir(), 'topline-outbox-'));
  const silent = { info: () => {}, error: () => {} };
  const tokenInfo = await startTokenInfo();
  const api = await startTestApi({
    mailer: outboxMailer(outboxDir, silent),
    env: { GOOGLE_TOKENINFO_URL: tokenInfo.url, GOOGLE_CLIENT_ID },
  });
  const port = 4300 + Math.floor(Math.random() * 1000);
  const server: PreviewServer = await preview({
    root: WEB_ROOT,
    logLevel: 'error',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: false, proxy: { '/api': api.url } },
  });
  const webUrl = (server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`).replace(/\/$/, '');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    api,
    webUrl,
    outboxDir,
    browser,
    async close() {
      await browser.close();
      await server.close();
      await api.close();
      await new Promise<void>((resolve) => tokenInfo.server.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

export async function newPage(
  stack: Stack,
  options: { locale: 'ja-JP' | 'en-US'; width?: number; height?: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stack.browser.newContext({
    locale: options.locale,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    baseURL: stack.webUrl,
  });
  // Each test starts signed out and in the browser's language.
  const page = await context.newPage();
  return { context, page };
}

/**
 * Serves the page a configuration with the test Google client id and a stand-in for Google Identity Services whose
 * token client answers `google:<email>` for the address stored in `sessionStorage['google-email']`.
 */
export async function withGoogleStandIn(context: BrowserContext): Promise<void> {
  await context.route('**/config.js', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `window.TOPLINE_CONFIG = { googleClientId: ${JSON.stringify(GOOGLE_CLIENT_ID)} };`,
    }),
  );
  await context.route('https://accounts.google.com/gsi/client', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `window.google = { accounts: { oauth2: { initTokenClient: (options) => ({
        requestAccessToken: () => options.callback({ access_token: 'google:' + sessionStorage.getItem('google-email') }),
      }) } } };`,
    }),
  );
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: false });
}

/** The reset link of the newest message to `email` in the outbox folder. */
export function resetLinkFor(outboxDir: string, email: string): string | null {
  const files = readdirSync(outboxDir)
    .filter((name) => name.includes(email.replace(/[^a-zA-Z0-9@._-]/g, '_')))
    .sort();
  const newest = files.at(-1);
  if (!newest) return null;
  const text = readFileSync(join(outboxDir, newest), 'utf8');
  return text.match(/https?:\/\/\S*password-reset\S*/)?.[0] ?? null;
}
