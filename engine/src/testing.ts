/** Helpers for tests: load a fixture plan and build it as of a fixed month. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlanWorkbook } from './workbook';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/plans/', import.meta.url));

/** The installed HyperFormula package, whose built files `patches/hyperformula+3.5.0.patch` changes. */
export const HYPERFORMULA_DIR = join(dirname(createRequire(import.meta.url).resolve('hyperformula')), '..');

export function loadFixture(name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8'));
}

/** Builds a fixture as of November 2026, so runway and "today" are stable. */
export function buildFixture(name: string): PlanWorkbook {
  return PlanWorkbook.build(loadFixture(name), { asOf: { year: 2026, month: 11 } });
}

/** A small seeded generator of numbers in [0, 1) (mulberry32), so that a failing variant can be run again. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
