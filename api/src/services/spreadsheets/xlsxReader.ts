/**
 * Reads an uploaded XLSX file off the API's thread: a worker thread of its own measures it against
 * `XLSX_IMPORT_LIMITS` before parsing it, with a heap of its own, and is ended when it answers, fails or runs out of
 * time. Whatever the file is, the thread that serves every other request only copies its bytes over and takes back
 * the few sheets the import reads, and what the reading took is freed with the worker.
 */
import { Worker } from 'node:worker_threads';
import { type Limit, type LimitName, XLSX_IMPORT_LIMITS } from '@topline/contract';
import type { ActualCellError, SheetValues, XlsxBound, XlsxReadOptions } from '@topline/engine/export';
import { workerBoot } from './workerBoot';

export type WorkerAnswer =
  | { ok: true; sheets: SheetValues }
  | { ok: false; message: string; cells: ActualCellError[]; bound?: XlsxBound }
  | { ok: false; internal: string };

/** What a refused file answers: the cells at fault, or the bound it went over. */
export interface XlsxRefusal {
  message: string;
  cells: ActualCellError[];
  limit?: Limit;
}

export class XlsxRefused extends Error {
  override readonly name = 'XlsxRefused';
  constructor(readonly refusal: XlsxRefusal) {
    super(refusal.message);
  }
}

/** Workers reading now and started so far, for the tests that check none is left behind or started at all. */
let live = 0;
let started = 0;
export const xlsxWorkers = (): { live: number; started: number } => ({ live, started });

const BOOT = workerBoot('xlsxWorker');

/**
 * Reads the sheets named in `sheets` of an XLSX file on a worker thread, and those whose names end with one of
 * `sheetsEndingWith`.
 * @throws XlsxRefused when the file is no XLSX workbook, goes over a bound (in time, in memory or in what it holds)
 *   or holds a cell that cannot be read
 */
export function readXlsxOffThread(
  bytes: Uint8Array,
  sheets: readonly string[],
  sheetsEndingWith: readonly string[] = [],
): Promise<SheetValues> {
  const limits = XLSX_IMPORT_LIMITS;
  const options: XlsxReadOptions = { limits, sheets, sheetsEndingWith };
  const worker = new Worker(BOOT.script, {
    eval: BOOT.eval,
    workerData: { bytes, options },
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 64 },
    // The worker writes nothing to the API's output: a failure comes back as its answer.
    stdout: true,
    stderr: true,
  });
  live++;
  started++;
  const since = performance.now();
  return new Promise<SheetValues>((resolve, reject) => {
    let settled = false;
    const end = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate().finally(() => live--);
      settle();
    };
    const refuse = (refusal: XlsxRefusal) => end(() => reject(new XlsxRefused(refusal)));
    const timer = setTimeout(() => {
      const value = Math.round(performance.now() - since);
      refuse(bounded('xlsx_read_ms', `reading the file took longer than ${limits.readMs} ms`, limits.readMs, value));
    }, limits.readMs);
    worker.on('message', (answer: WorkerAnswer) => {
      if (answer.ok) end(() => resolve(answer.sheets));
      else if ('internal' in answer) end(() => reject(new Error(answer.internal)));
      else if (answer.bound) {
        const { name, max, value } = answer.bound;
        refuse(bounded(`xlsx_${name}`, answer.message, max, value));
      } else refuse({ message: answer.message, cells: answer.cells });
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        const max = limits.memoryMb;
        refuse(bounded('xlsx_memory_mb', `reading the file needs more than ${max} MB`, max, max + 1));
      } else end(() => reject(error));
    });
    worker.on('exit', (code) => end(() => reject(new Error(`the XLSX reader ended with ${code} before answering`))));
  });
}

function bounded(name: LimitName, message: string, max: number, value: number): XlsxRefusal {
  return { message, cells: [], limit: { name, max, value } };
}
