/**
 * The XLSX exports, written off the API's thread. The thread that serves every other request reads the cached
 * workbook's values (a few milliseconds) and sends them with the plan to a worker thread, which compiles the plan's
 * layout, writes the sheets and zips them; a snapshot's plan file is built into its workbook there too. One worker
 * serves every export of the process, one job after another as they come; it starts with the first export, stops
 * after a minute without one, and a worker that fails or runs out of time is replaced for the next.
 */
import { Worker } from 'node:worker_threads';
import type { PlanWorkbook } from '@topline/engine';
import { type ExportSheet, type SheetData, sheetData, type WorkbookData, workbookData } from '@topline/engine/export';
import { workerBoot } from './workerBoot';

export type ExportJob =
  | { kind: 'workbook'; data: WorkbookData; planId: number; extraSheets?: SheetData[] }
  | { kind: 'plan'; plan: unknown; asOf: { year: number; month: number }; planId: number };

export interface ExportRequest {
  id: number;
  job: ExportJob;
}

export type ExportAnswer =
  | { id: number; ok: true; bytes: Uint8Array }
  | { id: number; ok: false; name: string; message: string };

/** How long one export may take before its worker is ended (a plan at every limit takes a few seconds). */
const EXPORT_MS = 60_000;
/** How long the worker is kept without an export. */
const IDLE_MS = 60_000;
/** The worker's heap: a plan at every limit writes in well under this. */
const HEAP_MB = 1024;

const BOOT = workerBoot('xlsxExportWorker');

interface Pending {
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let worker: Worker | undefined;
let idle: NodeJS.Timeout | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();
let started = 0;

/** Workers started so far and exports waiting, for the tests. */
export const exportWorkers = (): { started: number; running: boolean; waiting: number } => ({
  started,
  running: worker !== undefined,
  waiting: pending.size,
});

/** Ends the worker (if any) and fails what it was writing with `error`. */
function stop(error?: Error): void {
  const ending = worker;
  worker = undefined;
  if (idle) clearTimeout(idle);
  idle = undefined;
  for (const [id, job] of pending) {
    clearTimeout(job.timer);
    job.reject(error ?? new Error('the XLSX writer stopped'));
    pending.delete(id);
  }
  if (ending) void ending.terminate();
}

function start(): Worker {
  const w = new Worker(BOOT.script, {
    eval: BOOT.eval,
    // The young generation of the API process (`--max-semi-space-size=64`): an export's garbage dies young there.
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 64 },
    // The worker writes nothing to the API's output: a failure comes back as its answer.
    stdout: true,
    stderr: true,
  });
  started++;
  w.on('message', (answer: ExportAnswer) => {
    const job = pending.get(answer.id);
    if (!job) return;
    pending.delete(answer.id);
    clearTimeout(job.timer);
    if (answer.ok) job.resolve(answer.bytes);
    else {
      const error = new Error(answer.message);
      error.name = answer.name;
      job.reject(error);
    }
    settle();
  });
  w.on('error', (error) => {
    if (worker === w) stop(error);
  });
  w.on('exit', (code) => {
    if (worker === w) stop(new Error(`the XLSX writer ended with ${code}`));
  });
  return w;
}

/** With no export waiting, the worker no longer keeps the process alive, and ends after `IDLE_MS`. */
function settle(): void {
  if (!worker || pending.size > 0) return;
  worker.unref();
  idle = setTimeout(() => stop(), IDLE_MS);
  idle.unref();
}

function send(job: ExportJob): Promise<Uint8Array> {
  if (idle) clearTimeout(idle);
  idle = undefined;
  worker ??= start();
  worker.ref();
  const w = worker;
  const id = nextId++;
  return new Promise<Uint8Array>((resolve, reject) => {
    const timer = setTimeout(() => {
      if (worker === w) stop(new Error(`the XLSX export took longer than ${EXPORT_MS} ms`));
    }, EXPORT_MS);
    pending.set(id, { resolve, reject, timer });
    const request: ExportRequest = { id, job };
    w.postMessage(request);
  });
}

/** A plan's workbook as XLSX (`exportXlsx`), with `extraSheets` after the plan's own, written off the thread. */
export function xlsxOffThread(
  wb: PlanWorkbook,
  options: { planId: number; extraSheets?: ExportSheet[] },
): Promise<Uint8Array> {
  const extraSheets = options.extraSheets?.map(sheetData);
  return send({
    kind: 'workbook',
    data: workbookData(wb),
    planId: options.planId,
    ...(extraSheets ? { extraSheets } : {}),
  });
}

/** A plan file built as of `asOf` and written as XLSX, both off the thread (a snapshot's download). */
export function planXlsxOffThread(
  plan: unknown,
  asOf: { year: number; month: number },
  planId: number,
): Promise<Uint8Array> {
  return send({ kind: 'plan', plan, asOf, planId });
}
