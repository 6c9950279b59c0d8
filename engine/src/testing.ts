/** Helpers for tests: load a fixture plan and build it as of a fixed month. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PlanWorkbook } from './workbook';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/plans/', import.meta.url));

export function loadFixture(name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8'));
}

/** Builds a fixture as of November 2026, so runway and "today" are stable. */
export function buildFixture(name: string): PlanWorkbook {
  return PlanWorkbook.build(loadFixture(name), { asOf: { year: 2026, month: 11 } });
}
