/**
 * No tenant's large plan holds the others back. A plan at every limit is built in steps on a cache miss (the build of
 * such a plan takes about a second, and other requests are served between the steps: no read waits for the whole
 * build), and the export of the largest plan is written on a worker thread: the other tenant's reads go on being
 * answered meanwhile, none waiting a second.
 * An XLSX import: while the largest file a plan exports (every case at the cost-item limit) is imported, and while a
 * hostile file is refused, another tenant's reads go on being answered (none waits a second, where a file read on the
 * API's thread held every request for up to 17 s), the file is read on a worker that ends, and the server's memory
 * returns to where it was. The reads' p95 against the idle reads around each import is printed: on a host with a core
 * to spare it stays near 2 x; it moves with the host, so it is reported, not asserted.
 */
import { readFileSync } from 'node:fs';
import { COLLECTION_LIMITS, XLSX_IMPORT_LIMITS } from '@topline/contract';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportWorkers } from '../services/spreadsheets/xlsxExport';
import { xlsxWorkers } from '../services/spreadsheets/xlsxReader';
import { planAtLimits } from '../testing/atLimits';
import { startTestApi, type TestApi } from '../testing/harness';

let api: TestApi;
let importer: string;
let reader: string;
let bigPlan: number;
let readPlan: number;

const ITEMS_PER_CASE = COLLECTION_LIMITS.costItemsPerCase;
const TITLES = ['sm_advertising', 'rd_labor', 'ga_land_rent', 'cogs_other'] as const;

function planFile(items: number): unknown {
  const file = JSON.parse(readFileSync(new URL('../../../fixtures/plans/three-cases.json', import.meta.url), 'utf8'));
  for (const c of file.cases as { cost_items?: unknown[] }[]) {
    c.cost_items = Array.from({ length: items }, (_, i) => ({
      item_title: TITLES[i % TITLES.length],
      item_name: `Item ${i + 1}`,
      price: 1000 + i,
      start_year: 2026,
      start_month: 4,
      end_year: 2031,
      end_month: 3,
    }));
  }
  return file;
}

beforeAll(async () => {
  api = await startTestApi({ now: () => new Date('2026-10-15T09:00:00Z') });
  ({ token: importer } = await api.user('xlsx-load-importer@example.com', 'team'));
  ({ token: reader } = await api.user('xlsx-load-reader@example.com', 'team'));
  const big = await api.call('POST', '/business-plan/import', {
    token: importer,
    body: { plan: planFile(ITEMS_PER_CASE) },
  });
  expect(big.status).toBe(201);
  bigPlan = big.body.data.business_plan_id;
  const small = await api.call('POST', '/business-plan/import', { token: reader, body: { plan: planFile(0) } });
  readPlan = small.body.data.business_plan_id;
}, 240_000);
afterAll(async () => {
  await api.close();
});

async function download(token: string, id: number): Promise<Uint8Array> {
  const url = new URL(`/api/v1/business-plan/xlsx?business_plan_id=${id}`, api.url);
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'x' } });
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

function upload(bytes: Uint8Array) {
  const form = new FormData();
  form.set('business_plan_id', String(bigPlan));
  form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), 'plan.xlsx');
  return api.call('POST', '/business-plan/xlsx/import', { token: importer, form });
}

/**
 * The other tenant's screen reads, one after another, each timed (ms): while `busy` runs (at least 5), or for `ms`
 * milliseconds (at least 60).
 */
async function reads(busy: Promise<unknown> | { ms: number }): Promise<number[]> {
  let done = false;
  if (busy instanceof Promise) {
    void busy.finally(() => {
      done = true;
    });
  } else {
    setTimeout(() => {
      done = true;
    }, busy.ms);
  }
  const min = busy instanceof Promise ? 5 : 60;
  const times: number[] = [];
  while (!done || times.length < min) {
    const started = performance.now();
    const answer = await api.call('GET', '/pl/retrieve', { token: reader, query: { business_plan_id: readPlan } });
    times.push(performance.now() - started);
    expect(answer.status).toBe(200);
  }
  return times;
}

/** Reads while `busy` runs, and as long again before and after it was started: the idle reads are those around it. */
async function readsAround<T>(idleBefore: number[], start: () => Promise<T>) {
  const started = performance.now();
  const busy = start();
  const during = await reads(busy);
  const idleAfter = await reads({ ms: Math.max(2000, performance.now() - started) });
  return { during, idle: [...idleBefore, ...idleAfter], idleAfter, answer: await busy };
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1] ?? 0;

async function workersEnded(): Promise<number> {
  for (let i = 0; i < 100 && xlsxWorkers().live > 0; i++) await new Promise((r) => setTimeout(r, 50));
  return xlsxWorkers().live;
}

describe('an XLSX import beside other tenants', () => {
  it('keeps answering their reads, none waiting a second, for the largest file and a hostile one', async () => {
    const largeFile = await download(importer, bigPlan);
    const zip = await JSZip.loadAsync(largeFile);
    const row = `<row>${'<c><v>1</v></c>'.repeat(1000)}</row>`;
    const cells = XLSX_IMPORT_LIMITS.cells;
    zip.file(
      'xl/worksheets/sheet90.xml',
      `<worksheet><sheetData>${row.repeat(cells / 1000 + 100)}</sheetData></worksheet>`,
    );
    const hostileFile = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    await reads({ ms: 500 }); // warm: the reader's plan built and cached

    // Each busy window is set against the idle reads just before and just after it, so that what else the host does
    // meanwhile weighs on both sides alike.
    const rss = process.memoryUsage().rss;
    const first = await reads({ ms: 2000 });
    const large = await readsAround(first, () => upload(largeFile));
    expect(large.answer.status).toBe(200);
    const hostile = await readsAround(large.idleAfter, () => upload(hostileFile));
    const answer = hostile.answer;
    expect(answer.status).toBe(400);
    expect(answer.body.limit.name).toBe('xlsx_cells');
    expect(await workersEnded()).toBe(0);

    const f = (xs: number[]) =>
      `${p95(xs).toFixed(1)} ms (${xs.length} reads, longest ${Math.max(...xs).toFixed(0)} ms)`;
    console.info(
      `reads' p95: during the large import ${f(large.during)}, idle around it ${f(large.idle)}; ` +
        `during the hostile one ${f(hostile.during)}, idle around it ${f(hostile.idle)}; ` +
        `rss ${(rss / 2 ** 20).toFixed(0)} MB → ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
    );
    expect(Math.max(...large.during)).toBeLessThan(1000);
    expect(Math.max(...hostile.during)).toBeLessThan(1000);
    expect(process.memoryUsage().rss).toBeLessThan(rss + 200 * 2 ** 20);
  }, 300_000);
});

describe('an XLSX export beside other tenants', () => {
  it('keeps answering their reads, none waiting a second, while the largest plan is written', async () => {
    // The plan's workbook built and cached by a screen read, as the download's page has it.
    const screen = await api.call('GET', '/pl/retrieve', { token: importer, query: { business_plan_id: bigPlan } });
    expect(screen.status).toBe(200);
    await reads({ ms: 500 });
    const started = exportWorkers().started;
    const idle = await reads({ ms: 2000 });
    const around = await readsAround(idle, () => download(importer, bigPlan));
    const zip = await JSZip.loadAsync(around.answer);
    expect(Object.keys(zip.files)).toContain('xl/worksheets/sheet1.xml');
    console.info(
      `reads' p95 during the largest export ${p95(around.during).toFixed(1)} ms (${around.during.length} reads, ` +
        `longest ${Math.max(...around.during).toFixed(0)} ms), idle around it ${p95(around.idle).toFixed(1)} ms`,
    );
    expect(Math.max(...around.during)).toBeLessThan(1000);
    // The file came from the writer's thread (started before, or for this download).
    expect(exportWorkers().started).toBeGreaterThanOrEqual(Math.max(1, started));
    expect(exportWorkers().running).toBe(true);
  }, 120_000);
});

describe('a plan at every limit built beside other tenants', () => {
  it('keeps answering their reads between the steps of its build', async () => {
    const limits = await api.call('POST', '/business-plan/import', {
      token: importer,
      body: { plan: planAtLimits(9) },
    });
    expect(limits.status, limits.text).toBe(201);
    const id = limits.body.data.business_plan_id as number;
    await reads({ ms: 500 });
    const builds = api.workbooks.stats.builds;
    const idle = await reads({ ms: 2000 });
    // The plan's first screen read builds its workbook (no read of it came before).
    let took = 0;
    const around = await readsAround(idle, async () => {
      const started = performance.now();
      const answer = await api.call('GET', '/pl/retrieve', { token: importer, query: { business_plan_id: id } });
      took = performance.now() - started;
      return answer;
    });
    expect(around.answer.status).toBe(200);
    expect(api.workbooks.stats.builds).toBeGreaterThan(builds);
    const longest = Math.max(...around.during);
    console.info(
      `reads' p95 while a plan at every limit is built ${p95(around.during).toFixed(1)} ms (${around.during.length} ` +
        `reads, longest ${longest.toFixed(0)} ms), idle around it ${p95(around.idle).toFixed(1)} ms; ` +
        `the build's read took ${took.toFixed(0)} ms`,
    );
    // The build gives the thread back between its steps: no read waits for the whole of it (built in one call, the
    // longest wait is the build's own length). How long the longest step takes moves with the host: about 0.7 s here,
    // over a second on a slow one (issue 43's one-second rule), so the test holds the steps, not the second.
    expect(longest).toBeLessThan(took / 2);
  }, 120_000);
});
