/**
 * Issue 39's screen budget in headless Chromium: the built web served by the API as `npm run serve` serves it, the
 * demo user signed in, a cold browser context (no cache, no loaded chunk) per visit. For each working screen, the time
 * from navigation start to the screen showing its numbers, against the landing page's own time in the same run
 * (budget at most 1.5x); then moves between two screens through the side menu, click to numbers shown, against the
 * landing page (budget at most 1x). Printed, never asserted.
 *
 * "Showing its numbers" is a DOM condition checked on every animation frame: no loading overlay, and a grid cell (AG
 * Grid's, or its first paint's while AG Grid's chunk loads: `web/src/grid/FirstPaint.tsx`), a Plotly trace, a
 * dashboard or Home figure or the Setting form's start year holding a digit, none of it left from the screen before.
 * For the screens with a grid, the time until AG Grid itself has drawn its figures (and the first paint has gone) is
 * printed beside it: when the grid takes the keyboard.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/chromium';
import { TOKEN_KEY } from '../web/src/api/client';
import { startDemoServer } from './lib/demoServer';
import { median } from './lib/measure';

const WEB_ROOT = resolve(import.meta.dirname, '../web');
const ROUNDS = Number(process.env.BENCH_SCREEN_ROUNDS ?? 3);
const SCREENS: readonly [key: string, path: string][] = [
  ['home', 'home'],
  ['pl', 'pl'],
  ['kpi', 'kpi'],
  ['revenue', 'revenue'],
  ['expenses', 'expenses'],
  ['dashboard', ''],
  ['monthly_pl', 'monthly_pl'],
  ['setting', 'setting'],
];
/** The side-menu moves, one after another from P&L, in one cold context per round. */
const MOVES: readonly string[] = ['kpi', 'revenue', 'expenses', 'monthly_pl', 'dashboard', 'home', 'setting', 'pl'];

/**
 * Runs in the page: the navigation-relative time at which the screen shows its numbers, or null while it does not.
 * Kept as source text: tsx would wrap its inner functions in a helper the page does not have.
 */
const NUMBERS_SHOWN = `(() => {
  const content = document.querySelector('.shell-content');
  if (!content || content.querySelector('.content-loading')) return null;
  const fresh = (el) => !el.closest('[data-bench-old]');
  const digit = (text) => /\\d/.test(text || '');
  const texts = '.ag-cell, .gfp-cell, [data-test^="latest-"], [data-test^="daily-"]';
  const shown =
    [...content.querySelectorAll(texts)].some((el) => fresh(el) && digit(el.textContent)) ||
    [...content.querySelectorAll('.js-plotly-plot .trace')].some(fresh) ||
    [...content.querySelectorAll('[data-test="plan-form"] select')].some((el) => fresh(el) && digit(el.value));
  return shown ? performance.now() : null;
})()`;

/** Runs in the page: the time at which AG Grid shows a figure and no first paint is left, or null before. */
const GRID_READY = `(() => {
  const content = document.querySelector('.shell-content');
  if (!content || content.querySelector('.grid-first-paint')) return null;
  const shown = [...content.querySelectorAll('.ag-cell')].some((el) => /\\d/.test(el.textContent || ''));
  return shown ? performance.now() : null;
})()`;

/** Runs in the page: whether the screen shows a grid (AG Grid's, or its first paint). */
const HAS_GRID = "!!document.querySelector('.shell-content .grid-first-paint, .shell-content .ag-root')";

async function waitFor(page: Page, condition: string): Promise<number> {
  const handle = await page.waitForFunction(condition, undefined, { polling: 'raf', timeout: 60_000 });
  return (await handle.jsonValue()) as number;
}

const waitForNumbers = (page: Page) => waitFor(page, NUMBERS_SHOWN);

async function coldPage(browser: Browser, baseURL: string, token: string | null) {
  // The page's CSP forbids evaluating strings, which the in-page checks are (see NUMBERS_SHOWN).
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: 1600, height: 1000 },
    baseURL,
    bypassCSP: true,
  });
  const page = await context.newPage();
  if (token)
    await page.addInitScript(([key, value]) => localStorage.setItem(key ?? '', value ?? ''), [TOKEN_KEY, token]);
  return { context, page };
}

/** Cold landing page: navigation start to its heading painted. */
async function landingTime(browser: Browser, baseURL: string): Promise<number> {
  const { context, page } = await coldPage(browser, baseURL, null);
  await page.goto('/');
  const handle = await page.waitForFunction(
    "(document.querySelector('h1')?.textContent ?? '') !== '' ? performance.now() : null",
    undefined,
    { polling: 'raf' },
  );
  const ms = (await handle.jsonValue()) as number;
  await context.close();
  return ms;
}

const fmt = (ms: number) => `${ms.toFixed(0).padStart(5)} ms`;

export async function run(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'topline-bench-screens-'));
  await build({ root: WEB_ROOT, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const server = await startDemoServer({ name: 'screens', webDist: outDir });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const baseURL = server.base.replace(/\/api\/v1$/, '');
    const planPath = `/business-plans/${server.planIds[0]}`;
    // One warm-up visit, so the API's workbook cache and the server's files are as a running server has them.
    const warm = await coldPage(browser, baseURL, server.token);
    await warm.page.goto(`${planPath}/pl`);
    await waitForNumbers(warm.page);
    await warm.context.close();

    const landing: number[] = [];
    const screens = new Map<string, number[]>(SCREENS.map(([key]) => [key, []]));
    const grids = new Map<string, number[]>();
    const moves = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round += 1) {
      // Interleaved, so that the machine's load weighs on the landing page and the screens alike.
      landing.push(await landingTime(browser, baseURL));
      for (const [key, path] of SCREENS) {
        const { context, page } = await coldPage(browser, baseURL, server.token);
        await page.goto(path ? `${planPath}/${path}` : planPath);
        screens.get(key)?.push(await waitForNumbers(page));
        if (await page.evaluate(HAS_GRID)) grids.set(key, [...(grids.get(key) ?? []), await waitFor(page, GRID_READY)]);
        await context.close();
      }
      const { context, page } = await coldPage(browser, baseURL, server.token);
      await page.goto(`${planPath}/pl`);
      // The moves start from a screen settled: its grid drawn, not its first paint.
      await waitFor(page, GRID_READY);
      let from = 'pl';
      for (const to of MOVES) {
        // The screen before's elements are marked, so that only the next screen's numbers count.
        const ms = (await page.evaluate(`(() => {
          for (const el of document.querySelectorAll('.shell-content *')) el.setAttribute('data-bench-old', '');
          const link = document.querySelector('.side-menu [data-screen="${to}"]');
          const start = performance.now();
          link.click();
          return start;
        })()`)) as number;
        const shown = await waitForNumbers(page);
        const name = `${from} -> ${to}`;
        moves.set(name, [...(moves.get(name) ?? []), shown - ms]);
        from = to;
      }
      await context.close();
    }

    const base = median(landing);
    console.log(`   cold landing page, navigation to heading: median ${fmt(base)} of ${landing.length}`);
    for (const [key, times] of screens) {
      const ms = median(times);
      const grid = grids.get(key);
      console.log(
        `   cold ${key.padEnd(11)} to numbers shown: median ${fmt(ms)}  ratio ${(ms / base).toFixed(2)} (budget <= 1.5)` +
          (grid ? `; grid ready ${fmt(median(grid))}` : ''),
      );
    }
    for (const [name, times] of moves) {
      const ms = median(times);
      console.log(`   side menu ${name.padEnd(24)} median ${fmt(ms)}  ratio ${(ms / base).toFixed(2)} (budget <= 1)`);
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
