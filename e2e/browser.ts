/**
 * Browser-test harness: builds the web app, starts the real API (PGlite, e-mail written to an outbox folder), serves
 * the build with /api proxied to it, and drives Debian's headless Chromium through playwright-core.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type PreviewServer, preview } from 'vite';
import { outboxMailer } from '../api/src/services/accounts/mail';
import { freePort } from '../api/src/testing/freePort';
import { type GoogleStandIn, startGoogleStandIn } from '../api/src/testing/googleStandIn';
import { startTestApi, type TestApi } from '../api/src/testing/harness';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium';

const run = promisify(execFile);

export const WEB_ROOT = resolve(import.meta.dirname, '../web');
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../test-output/web');
export { CHROMIUM, CHROMIUM_ARGS };

/** The Google client id the test API and the test web configuration share. */
export const GOOGLE_CLIENT_ID = 'topline-test-client';

/**
 * Google's side of sign-in while a stack runs: keys the API checks ID tokens against (through its GOOGLE_CERTS_URL
 * setting, as it would reach Google's), and that sign the ID tokens the Google Identity Services stand-in hands out.
 */
let googleKeys: GoogleStandIn | undefined;

export interface Stack {
  api: TestApi;
  webUrl: string;
  outboxDir: string;
  browser: Browser;
  close(): Promise<void>;
}

export interface StackOptions {
  /**
   * More settings of the API, given the address the web is served at (its PUBLIC_URL, which the API also gets):
   * e.g. the STRIPE_* settings of a Stripe stand-in. Without it the web takes the first free port from a random one.
   */
  apiEnv?: (webUrl: string) => Record<string, string>;
}

/**
 * Builds the web into `outDir` as `npm run build` does: in a process of its own with NODE_ENV=production, so that the
 * browser tests drive the bundle users get (React's production build), not the development build Vite would make
 * under vitest's NODE_ENV=test.
 */
async function buildWeb(outDir: string): Promise<void> {
  const vite = resolve(import.meta.dirname, '../node_modules/vite/bin/vite.js');
  const args = [vite, 'build', WEB_ROOT, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'];
  await run(process.execPath, args, { env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 16 << 20 });
}

/**
 * The web app built for a stack. A Vite build takes tens of seconds, so when the run names a folder for it
 * (TOPLINE_WEB_BUILD, set by vitest.config.ts) the first test file to need it builds it there, under a lock that other
 * workers wait on, and every later stack of the run serves that same build. Without it, each stack builds its own.
 */
async function builtWeb(): Promise<{ outDir: string; own: boolean }> {
  const shared = process.env.TOPLINE_WEB_BUILD;
  if (!shared) {
    const outDir = mkdtempSync(join(tmpdir(), 'topline-web-'));
    await buildWeb(outDir);
    return { outDir, own: true };
  }
  const done = `${shared}.done`;
  const failed = `${shared}.failed`;
  try {
    mkdirSync(`${shared}.lock`);
  } catch {
    // Another worker builds it: wait for its outcome (a build takes well under the hook timeout).
    while (!existsSync(done)) {
      if (existsSync(failed)) throw new Error(`the shared web build failed: ${readFileSync(failed, 'utf8')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return { outDir: shared, own: false };
  }
  try {
    await buildWeb(shared);
  } catch (error) {
    writeFileSync(failed, String(error));
    throw error;
  }
  writeFileSync(done, '');
  return { outDir: shared, own: false };
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const { outDir, own } = await builtWeb();
  const outboxDir = mkdtempSync(join(tmpdir(), 'topline-outbox-'));
  const silent = { info: () => {}, error: () => {} };
  const google = await startGoogleStandIn(GOOGLE_CLIENT_ID);
  googleKeys = google;
  const fixedPort = options.apiEnv ? await freePort() : null;
  const publicUrl = fixedPort ? `http://127.0.0.1:${fixedPort}` : null;
  const api = await startTestApi({
    mailer: outboxMailer(outboxDir, silent),
    env: {
      GOOGLE_CERTS_URL: google.certsUrl,
      GOOGLE_CLIENT_ID,
      ...(publicUrl && options.apiEnv ? { PUBLIC_URL: publicUrl, ...options.apiEnv(publicUrl) } : {}),
    },
  });
  const port = fixedPort ?? 4300 + Math.floor(Math.random() * 1000);
  const server: PreviewServer = await preview({
    root: WEB_ROOT,
    logLevel: 'error',
    build: { outDir },
    // The API's /config.js, as production serves it: the stack's settings (links, Google client id) reach the web.
    preview: {
      host: '127.0.0.1',
      port,
      strictPort: fixedPort !== null,
      proxy: { '/api': api.url, '/config.js': api.url },
    },
  });
  const webUrl = (server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`).replace(/\/$/, '');
  // Chromium refuses ports it keeps for other protocols (5060 and 5061, SIP, are in the range above) unless told.
  const allowed = `--explicitly-allowed-ports=${new URL(webUrl).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, allowed] });
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
      await google.close();
      googleKeys = undefined;
      if (own) rmSync(outDir, { recursive: true, force: true });
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
 * Serves the page its configuration with the test Google client id added, and a stand-in for Google Identity Services. As the
 * real one, its sign-in (`google.accounts.id`: `initialize`, then a click on the button `renderButton` draws, or
 * `prompt`) calls back with `{ credential }`, a Google ID token, here for the address stored in
 * `sessionStorage['google-email']`, signed with the running stack's Google keys; its token client
 * (`google.accounts.oauth2.initTokenClient`) gives an OAuth access token, which is no ID token and which the API
 * refuses.
 */
export async function withGoogleStandIn(context: BrowserContext): Promise<void> {
  // The served configuration, with the test client id (the API it comes from may not have it).
  await context.route('**/config.js', async (route) => {
    const headers = { ...route.request().headers() };
    delete headers['if-none-match'];
    const served = await route.fetch({ headers });
    const body = served.status() === 200 ? await served.text() : '';
    const clientId = JSON.stringify({ googleClientId: GOOGLE_CLIENT_ID });
    return route.fulfill({
      contentType: 'text/javascript',
      body: `${body}\nwindow.TOPLINE_CONFIG = Object.assign(window.TOPLINE_CONFIG || {}, ${clientId});\n`,
    });
  });
  await context.route(`${GIS_STAND_IN_TOKEN}**`, async (route) => {
    const email = new URL(route.request().url()).searchParams.get('email') ?? '';
    if (!googleKeys) return route.fulfill({ status: 503, body: 'no stack is running' });
    return route.fulfill({
      contentType: 'text/plain',
      headers: { 'Access-Control-Allow-Origin': '*' },
      body: await googleKeys.idToken(email),
    });
  });
  await context.route('https://accounts.google.com/gsi/client', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: GIS_STAND_IN }),
  );
}

/** Where the stand-in's page script asks for an ID token (under the address the Content-Security-Policy allows). */
const GIS_STAND_IN_TOKEN = 'https://accounts.google.com/gsi/topline-stand-in/id-token';

const GIS_STAND_IN = `(() => {
  let signin = null;
  const signIn = async () => {
    if (!signin) return;
    const email = sessionStorage.getItem('google-email') || '';
    const response = await fetch('${GIS_STAND_IN_TOKEN}?email=' + encodeURIComponent(email));
    signin.callback({ credential: await response.text(), select_by: 'btn' });
  };
  window.google = { accounts: {
    id: {
      initialize: (options) => { signin = options; },
      renderButton: (parent) => {
        const button = document.createElement('div');
        button.setAttribute('role', 'button');
        button.tabIndex = 0;
        button.textContent = 'Sign in with Google';
        button.addEventListener('click', () => void signIn());
        parent.replaceChildren(button);
      },
      prompt: () => void signIn(),
      disableAutoSelect: () => {},
    },
    oauth2: {
      initTokenClient: (options) => ({
        requestAccessToken: () => options.callback({ access_token: 'ya29.stand-in-access-token', token_type: 'Bearer' }),
      }),
    },
  } };
})();
`;

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: false });
}

/**
 * The link to `path` (`/signup/confirm`, `/invitation`) in the newest message to `email` in the outbox folder that
 * holds one, as the path and query the test's own origin opens.
 */
export function mailedLinkFor(outboxDir: string, email: string, path: string): string | null {
  const files = readdirSync(outboxDir)
    .filter((name) => name.includes(email.replace(/[^a-zA-Z0-9@._-]/g, '_')))
    .sort()
    .reverse();
  for (const file of files) {
    const links = readFileSync(join(outboxDir, file), 'utf8').match(/https?:\/\/\S+/g) ?? [];
    const link = links.map((text) => new URL(text)).find((url) => url.pathname === path);
    if (link) return `${link.pathname}${link.search}`;
  }
  return null;
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
