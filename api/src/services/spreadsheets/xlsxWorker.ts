/**
 * The XLSX import's reading, on a worker thread of its own (`xlsxReader.ts` starts it): the file's bytes in, its
 * sheets' values or the refusal out, one message, then the thread is ended by its starter.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { XlsxReadError, type XlsxReadOptions, xlsxSheetValues } from '@topline/engine/xlsxRead';
import type { WorkerAnswer } from './xlsxReader';

const { bytes, options } = workerData as { bytes: Uint8Array; options: XlsxReadOptions };

/**
 * The reading yields the processor to the API's own thread when both want it (a machine with no core to spare): on
 * Linux a nice value is a thread's own, so this lowers this thread's priority only. Where the system does not allow
 * it, the thread reads at the usual priority.
 */
const READER_NICE = 10;
try {
  setPriority(READER_NICE);
} catch {
  // not permitted here: read at the usual priority
}

async function read(): Promise<WorkerAnswer> {
  try {
    return { ok: true, sheets: await xlsxSheetValues(bytes, options) };
  } catch (error) {
    if (error instanceof XlsxReadError) {
      return { ok: false, message: error.message, cells: error.cells, ...(error.bound ? { bound: error.bound } : {}) };
    }
    return { ok: false, internal: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

parentPort?.postMessage(await read());
