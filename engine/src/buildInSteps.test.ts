/**
 * A workbook built in steps (`PlanWorkbook.buildInSteps`, which gives the thread back after each sheet) is the one
 * `build` makes: every cell of every sheet of every fixture, and again after edits, which recalculate through the
 * dependencies the steps put together.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlanEdit } from './edits';
import { PlanWorkbook } from './workbook';

const FIXTURES = join(import.meta.dirname, '../../fixtures/plans');
const AS_OF = { year: 2026, month: 9 };
const FIXTURE_FILES = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .sort();

function expectSameCells(a: PlanWorkbook, b: PlanWorkbook): void {
  expect(b.sheetNames()).toEqual(a.sheetNames());
  for (const name of a.sheetNames()) expect(b.sheetValues(name), name).toEqual(a.sheetValues(name));
}

describe('a workbook built in steps', () => {
  for (const file of FIXTURE_FILES) {
    it(`is the workbook build makes, before and after edits: ${file}`, async () => {
      const plan = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));
      let pauses = 0;
      const whole = PlanWorkbook.build(plan, { asOf: AS_OF });
      const stepped = await PlanWorkbook.buildInSteps(plan, { asOf: AS_OF }, async () => {
        pauses++;
      });
      try {
        // Once after compiling and once per sheet.
        expect(pauses).toBe(whole.sheetNames().length + 1);
        expectSameCells(whole, stepped);
        const edits: PlanEdit[] = [
          { type: 'actual', caseIndex: 0, month: 3, values: { order: 7, churn: 1, cogs: 250_000 } },
          { type: 'year', caseIndex: 0, year: 2, key: 'churn_rate', value: 0.015 },
          { type: 'cash', caseIndex: 0, month: 20, values: { equity_raised: 50_000_000 } },
        ];
        whole.apply(edits);
        stepped.apply(edits);
        expectSameCells(whole, stepped);
      } finally {
        whole.destroy();
        stepped.destroy();
      }
    }, 60_000);
  }
});
