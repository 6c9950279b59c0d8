import { type EventLoopUtilization, performance } from 'node:perf_hooks';

export interface BatchIntervalOptions {
  /** Bounds of the interval, in ms. */
  min: number;
  max: number;
  /** The interval until the first measurement. */
  start: number;
  /** How often the event loop's use is measured, in ms (lazily: at the first call after that time). */
  windowMs: number;
  /** Below `low` busy the interval shortens by `step`, above `high` it lengthens by `step`. */
  low: number;
  high: number;
  step: number;
}

/**
 * The batch interval of the workbook cache, from measurements of the mixed load (`bench/api-mixed.ts`, paired 5 s
 * slices of one run, 50 users on one plan, 20 % writes). Each batch costs a recalculation (5-11 ms for the mixed
 * load's writes: an assumption, actuals, a cash item) and the answers of a new version.
 * - A host whose read-only phase served 13,400-15,900 requests a second: at 70 ms the event loop was 72-77 % busy and
 *   the mix served 0.28-0.30 x the read-only rate (the users waited for the batch of their own writes while the thread
 *   had time to spare), 35 ms 90-92 % and 0.37-0.39 x, 20 ms 94 % and 0.31 x (the recalculations took the thread).
 *   Which band of the loop's use to keep (4 pairs): 85-95 % gave 0.38 x, 80-90 % 0.36 x, 75-85 % 0.33 x. With a CPU
 *   hog on its other core (a slower machine): this adaptive interval 0.422 x, 70 ms 0.417 x, 100 ms 0.364 x.
 * - A host serving 7,200-8,700 reads a second: 70 ms served 12 % more requests than 100 ms (6 pairs of 6) and somewhat
 *   more than 50 ms (2,939 and 2,783 a second), 20 ms fewer than 50 ms; with its other core kept busy, 70 ms about as
 *   many as 100 ms (1,422 and 1,397) and more than 50 ms (4 pairs of 4).
 * - An earlier, slower host: 70 ms slightly fewer than 100 ms (1,476 and 1,520 a second), 140 ms a little more (6 pairs
 *   of 8).
 * - A host serving 8,000-9,200 reads a second: this interval settled at 83 ms with the loop 89-90 % busy (0.372 and
 *   0.382 x), where a fixed 50 ms ran it 95-96 % busy and served more (0.395 and 0.400 x) and 35 ms less (0.363 and
 *   0.367 x), in two alternated pairs of 20 s runs. A higher band would suit this host and not the first one above
 *   (best at 35 ms, 90-92 % busy; 20 ms, 94 %, worse): the loop's use alone cannot tell them apart.
 * So the interval follows the loop, between 20 and 100 ms.
 */
export const BATCH_INTERVAL: BatchIntervalOptions = {
  min: 20,
  max: 100,
  start: 70,
  windowMs: 250,
  low: 0.85,
  high: 0.95,
  step: 1.2,
};

/**
 * The least time between two batches of edits applied to a plan's workbook, adapted to how busy this process's event
 * loop has been: each batch costs a recalculation and the answers of a new version, and a reader of its own write
 * waits for the next batch. While the loop has time to spare (busy less than `low` of the last window), a shorter
 * interval answers those readers sooner for CPU that would otherwise go unused; while it is nearly always busy (more
 * than `high`), a longer one leaves more of it to requests. Between the two the interval stays as it is.
 */
export class BatchInterval {
  private ms: number;
  private last: EventLoopUtilization;
  private measuredAt: number;

  constructor(
    private readonly options: BatchIntervalOptions = BATCH_INTERVAL,
    private readonly utilisation: (
      a?: EventLoopUtilization,
      b?: EventLoopUtilization,
    ) => EventLoopUtilization = performance.eventLoopUtilization,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.ms = options.start;
    this.last = this.utilisation();
    this.measuredAt = this.now();
  }

  /** The longest the interval can be: what bounds how long other writes' versions are remembered. */
  get max(): number {
    return this.options.max;
  }

  /** The interval now, in ms, measured anew when the last measurement is a window old. */
  current(): number {
    const now = this.now();
    if (now - this.measuredAt < this.options.windowMs) return this.ms;
    const sample = this.utilisation();
    const busy = this.utilisation(sample, this.last).utilization;
    this.last = sample;
    this.measuredAt = now;
    const { min, max, low, high, step } = this.options;
    if (busy < low) this.ms = Math.max(min, this.ms / step);
    else if (busy > high) this.ms = Math.min(max, this.ms * step);
    return this.ms;
  }
}

/** A fixed interval (tests, and callers that name one). */
export const fixedInterval = (ms: number) =>
  new BatchInterval({ min: ms, max: ms, start: ms, windowMs: Number.POSITIVE_INFINITY, low: 0, high: 1, step: 1 });
