import { tmpdir } from 'node:os';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { configDefaults, defineConfig } from 'vitest/config';
import { CHROMIUM, CHROMIUM_FLAGS } from './e2e/chromium.js';
import { gridChunkUrl } from './web/gridChunkUrl.js';

const include = [
  'engine/src/**/*.test.ts',
  'contract/src/**/*.test.ts',
  'api/src/**/*.test.ts',
  'web/src/**/*.test.ts',
  'web/src/**/*.test.tsx',
  'e2e/**/*.test.ts',
];
/**
 * `expect.poll` waits up to 10 s for its condition (vitest's default is 1 s): a browser step polls for what an answer
 * of the API shows, and beside another browser on two cores an answer can take longer than a second. A condition met
 * sooner ends the wait at once.
 */
const timeouts = { testTimeout: 60_000, hookTimeout: 120_000, expect: { poll: { timeout: 10_000 } } };
/**
 * API test files that open no database (the HTTP server, configuration, tokens, validation, the embedded database's
 * lock) or time the engine alone (a plan at every limit): the second run on PostgreSQL would repeat them unchanged.
 */
const noDatabase = [
  'api/src/config.test.ts',
  'api/src/dataLock.test.ts',
  'api/src/http/cachedAnswer.test.ts',
  'api/src/http/validate.test.ts',
  'api/src/landingContent.test.ts',
  'api/src/server.test.ts',
  'api/src/services/accounts/tokens.test.ts',
  'api/src/services/history/restoreChanges.test.ts',
  'api/src/testing/atLimits.test.ts',
];
/**
 * Test files that measure the API against itself (latency ratios, equal refusal times, build ratios) or wait on
 * wall-clock bounds with real processes.
 */
const timed = [
  'api/src/adminCli.test.ts',
  'api/src/durability.test.ts',
  'api/src/loadBalancer.test.ts',
  'api/src/routes/throttle.test.ts',
  'api/src/routes/tenantLoad.test.ts',
  'api/src/testing/atLimits.test.ts',
];
/**
 * The slowest files of the parallel phase, which `npm run test:quick` leaves to `npm test`: LibreOffice's
 * recalculation, whole exports read back by ExcelJS, the built server, parallel races, files and bodies at their
 * bounds, and the properties drawn over every fixture (each takes 15 to 30 s here).
 */
const slow = [
  'engine/src/export/actualInputsCalc.test.ts',
  'engine/src/export/xlsx.test.ts',
  'engine/src/export/xlsxValues.test.ts',
  'engine/src/bounds.test.ts',
  'api/src/production.test.ts',
  'api/src/routes/races.test.ts',
  'api/src/routes/xlsx.test.ts',
  'api/src/routes/xlsxBounds.test.ts',
  'api/src/routes/hostileInput.test.ts',
  'api/src/routes/changeSets.test.ts',
];
const browser = 'e2e/**/*.test.ts';
/**
 * Browser files whose steps race the page's own timers (what the idle prefetch has loaded by then, keys dispatched in
 * one task before the grid's callbacks, a result shown for three seconds): with the timed files, one at a time, on a
 * processor no other browser shares.
 */
const browserTimed = [
  'e2e/caching.test.ts',
  'e2e/gridKeyboard.test.ts',
  'e2e/gridClipboard.test.ts',
  'e2e/googleSheets.test.ts',
];
/** Component tests: a screen's part (the grid and its edit loop) rendered alone in Chromium (vitest's browser mode). */
const components = 'web/src/**/*.browser.test.tsx';
/** Debian's Chromium with the flags of every browser test (`e2e/chromium.ts`); never a downloaded browser. */
const chromium = { executablePath: CHROMIUM, args: CHROMIUM_FLAGS };
/**
 * `npm test` runs in three phases (scripts/test.sh): `parallel`, the engine, contract, web unit and API files two at a
 * time (each waits on a database, LibreOffice or a child process for part of its time); `browser`, the browser files
 * and the component tests two at a time (each waits on Chromium; none measures time); then `serial`, the timed files
 * and `browserTimed` one at a time, so that no other file shares the processor with a measurement or a race. Unset: every file, as vitest
 * schedules them.
 */
const phase = process.env.TOPLINE_TEST_PHASE as 'parallel' | 'quick' | 'browser' | 'serial' | undefined;
/** A project's files in this phase: of `all` but `left`, those of the phase; `serial` are the project's timed ones. */
function filesOf(all: string[], left: string[], serial: string[]) {
  const exclude = [...configDefaults.exclude, ...left];
  if (phase === 'parallel') return { include: all, exclude: [...exclude, browser, components, ...timed] };
  if (phase === 'quick') return { include: all, exclude: [...exclude, browser, components, ...timed, ...slow] };
  if (phase === 'browser') return { include: all.includes(browser) ? [browser] : [], exclude: [...exclude, ...serial] };
  if (phase === 'serial') return { include: serial, exclude };
  return { include: all, exclude };
}
/**
 * In `npm test`'s phases the files run one after another in each worker without a fresh module graph each (`isolate`
 * false): a file's worker and imports cost about half a second of the processor (a browser file's several seconds),
 * and most files are shorter than that to run. Each file starts its own API on its own database, and no file changes
 * module state it does not restore.
 */
const sharing = phase ? { isolate: false } : {};
const postgres = process.env.TEST_DATABASE_URL;
/** The run's migrated PGlite folder, made once by `globalSetup` and copied by each API test (`pgliteTemplate.ts`). */
const template = join(tmpdir(), `topline-pglite-template-${process.pid}`);
/** The web build the browser tests' stacks share, made by the first one (`builtWeb` in e2e/browser.ts). */
const webBuild = join(tmpdir(), `topline-web-build-${process.pid}`);

/**
 * Every test runs on embedded PGlite. With TEST_DATABASE_URL set (as .ci/run sets it), the API suite runs a second
 * time on that PostgreSQL server (but for `noDatabase`), so both databases pass the same tests in one `npm test`.
 */
export default defineConfig({
  test: {
    ...timeouts,
    ...(phase === 'serial' ? { maxWorkers: 1 } : phase ? { maxWorkers: 2 } : {}),
    projects: [
      {
        // The web's modules import the address of the grid's chunk, which only a build names (null here).
        plugins: [gridChunkUrl()],
        test: {
          name: 'pglite',
          ...filesOf(include, [components], [...timed, ...browserTimed]),
          ...timeouts,
          ...sharing,
          globalSetup: ['api/src/testing/pgliteTemplate.ts', 'e2e/webBuildCleanup.ts'],
          env: { TEST_DATABASE_URL: '', TOPLINE_PGLITE_TEMPLATE: template, TOPLINE_WEB_BUILD: webBuild },
        },
      },
      {
        plugins: [react(), gridChunkUrl()],
        // Pre-bundled before the first test, so that no dependency found later reloads the page mid-run.
        optimizeDeps: {
          include: ['react', 'react-dom/client', 'ag-grid-community', 'ag-grid-react', 'i18next', 'react-i18next'],
        },
        test: {
          name: 'components',
          include: phase === 'browser' || !phase ? [components] : [],
          ...timeouts,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: chromium }),
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
      ...(postgres
        ? [
            {
              test: {
                name: 'postgres',
                ...filesOf(['api/src/**/*.test.ts'], noDatabase, timed),
                ...timeouts,
                ...sharing,
                env: { TEST_DATABASE_URL: postgres },
              },
            },
          ]
        : []),
    ],
  },
});
