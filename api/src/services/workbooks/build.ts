/**
 * How the API builds a plan's workbook: in steps (`PlanWorkbook.buildInSteps`), the thread given back to the event
 * loop after each sheet and before the recalculation, so that a large plan's build (about a second at every limit)
 * never holds the other requests for its whole length.
 */
import { PlanWorkbook } from '@topline/engine';

/** The next turn of the event loop, after the I/O waiting for it. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The workbook of a plan file as of a calendar month. */
export function buildWorkbook(file: unknown, asOf: { year: number; month: number }): Promise<PlanWorkbook> {
  return PlanWorkbook.buildInSteps(file, { asOf }, nextTurn);
}
