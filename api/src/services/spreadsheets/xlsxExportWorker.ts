/**
 * The XLSX exports' writing, on a worker thread of its own (`xlsxExport.ts` starts it and sends the jobs): a
 * workbook's data (or a plan file to build, for a snapshot) in, the file's bytes out, one answer per job.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { PlanWorkbook } from '@topline/engine';
import { exportXlsx, sheetOfData, workbookOfData } from '@topline/engine/export';
import type { ExportAnswer, ExportRequest } from './xlsxExport';

/**
 * The writing yields the processor to the API's own thread when both want it (on Linux a nice value is a thread's
 * own); where the system does not allow it, the thread writes at the usual priority.
 */
const WRITER_NICE = 10;
try {
  setPriority(WRITER_NICE);
} catch {
  // not permitted here: write at the usual priority
}

async function write(request: ExportRequest): Promise<Uint8Array> {
  const { job } = request;
  if (job.kind === 'plan') {
    const wb = PlanWorkbook.build(job.plan, { asOf: job.asOf });
    try {
      return await exportXlsx(wb, { planId: job.planId });
    } finally {
      wb.destroy();
    }
  }
  return exportXlsx(workbookOfData(job.data), {
    planId: job.planId,
    extraSheets: (job.extraSheets ?? []).map(sheetOfData),
  });
}

parentPort?.on('message', (request: ExportRequest) => {
  write(request).then(
    (bytes) => {
      const answer: ExportAnswer = { id: request.id, ok: true, bytes };
      parentPort?.postMessage(answer, [bytes.buffer as ArrayBuffer]);
    },
    (error: unknown) => {
      const answer: ExportAnswer = {
        id: request.id,
        ok: false,
        name: error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      };
      parentPort?.postMessage(answer);
    },
  );
});
