import type { EventLoopUtilization } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { BATCH_INTERVAL, BatchInterval, fixedInterval } from './batchInterval';

/** An event loop and a clock driven by the test: `run(ms, busy)` passes `ms` with the loop busy that share of it. */
function fakeLoop() {
  let active = 0;
  let idle = 0;
  let now = 0;
  const utilisation = (a?: EventLoopUtilization, b?: EventLoopUtilization): EventLoopUtilization => {
    const to = a ?? { active, idle, utilization: 0 };
    const from = a ? (b ?? { active: 0, idle: 0, utilization: 0 }) : { active: 0, idle: 0, utilization: 0 };
    const dActive = to.active - from.active;
    const dIdle = to.idle - from.idle;
    return { active: dActive, idle: dIdle, utilization: dActive / Math.max(1e-9, dActive + dIdle) };
  };
  return {
    utilisation,
    clock: () => now,
    run(ms: number, busy: number) {
      active += ms * busy;
      idle += ms * (1 - busy);
      now += ms;
    },
  };
}

describe('the batch interval', () => {
  it('shortens while the event loop has time to spare, down to its least', () => {
    const loop = fakeLoop();
    const interval = new BatchInterval(BATCH_INTERVAL, loop.utilisation, loop.clock);
    expect(interval.current()).toBe(70);
    // Within one window nothing is measured.
    loop.run(200, 0.5);
    expect(interval.current()).toBe(70);
    loop.run(50, 0.5);
    expect(interval.current()).toBeCloseTo(70 / 1.2, 9);
    loop.run(250, 0.5);
    expect(interval.current()).toBeCloseTo(70 / 1.2 / 1.2, 9);
    for (let i = 0; i < 20; i++) {
      loop.run(250, 0.5);
      interval.current();
    }
    expect(interval.current()).toBe(20);
  });

  it('lengthens while the loop is nearly always busy, up to its most', () => {
    const loop = fakeLoop();
    const interval = new BatchInterval(BATCH_INTERVAL, loop.utilisation, loop.clock);
    loop.run(250, 0.97);
    expect(interval.current()).toBeCloseTo(84, 9);
    for (let i = 0; i < 20; i++) {
      loop.run(250, 1);
      interval.current();
    }
    expect(interval.current()).toBe(100);
    expect(interval.max).toBe(100);
  });

  it('stays as it is while the loop is busy within the band, and measures the whole time since the last call', () => {
    const loop = fakeLoop();
    const interval = new BatchInterval(BATCH_INTERVAL, loop.utilisation, loop.clock);
    for (let i = 0; i < 10; i++) {
      loop.run(250, 0.9);
      expect(interval.current()).toBe(70);
    }
    // Two seconds without a call: one measurement over them, so a busy stretch followed by an idle one averages out.
    loop.run(1000, 1);
    loop.run(1000, 0.8);
    expect(interval.current()).toBe(70);
  });

  it('follows the real event loop: longer after a stretch of synchronous work, shorter after an idle one', async () => {
    const interval = new BatchInterval({ ...BATCH_INTERVAL, windowMs: 100 });
    const spinUntil = performance.now() + 150;
    while (performance.now() < spinUntil) {
      // Busy: the loop does not turn.
    }
    expect(interval.current()).toBeCloseTo(84, 9);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(interval.current()).toBeCloseTo(70, 9);
  });

  it('can be fixed', () => {
    const interval = fixedInterval(45);
    expect(interval.current()).toBe(45);
    expect(interval.max).toBe(45);
  });
});
