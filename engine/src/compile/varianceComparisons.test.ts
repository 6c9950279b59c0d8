/**
 * What the spreadsheet exports rely on in a compiled Variance sheet (`dynamicVariance`, `varianceShared` in
 * `export/actMonths.ts`): every formula below its header row is a comparison that reads its own column's cell of the
 * ActualToDate sheet first (blank while that is), and a row's comparisons are one formula filled right.
 */
import { describe, expect, it } from 'vitest';
import { columnLetter } from '../layout';
import { PLAN_MONTHS, type PlanFile, parsePlanFile } from '../schema';
import { loadFixture } from '../testing';
import { compilePlan } from './index';

const FIXTURES = ['actuals-revisions', 'saas-jpy-t2d3', 'selfserve-usd-custom', 'three-cases'];
const AS_OF = { year: 2026, month: 11 };
const REFERENCE = /(\$?)([A-Z]{1,3})(\$?)(\d+)(?![\w(])/g;

/** The plan as the exports compile it for the ACT side: every month ACT in every case, no values, no revisions. */
function everyMonthAct(plan: PlanFile): PlanFile {
  const actuals = Object.fromEntries(
    Array.from({ length: PLAN_MONTHS }, (_, i) => [String(i + 1), { status: 'ACT' as const }]),
  );
  return { ...plan, cases: plan.cases.map((c) => ({ ...c, revisions: {}, actuals })) };
}

describe('a compiled Variance sheet', () => {
  for (const name of FIXTURES) {
    it(`compares each column on its own, reading ActualToDate first, in ${name}.json as saved and with every month ACT`, () => {
      const plan = parsePlanFile(loadFixture(name));
      let comparisons = 0;
      for (const compiled of [compilePlan(plan, { asOf: AS_OF }), compilePlan(everyMonthAct(plan), { asOf: AS_OF })]) {
        for (const c of compiled.cases) {
          const variance = c.sheets.variance;
          const atd = c.sheets.actualToDate;
          if (!variance || !atd) continue;
          (compiled.sheets[variance] ?? []).forEach((row, r) => {
            if (r === 0) return;
            let shape: string | undefined;
            row.forEach((content, column) => {
              if (column === 0 || content === null) return;
              const letter = columnLetter(column);
              expect(typeof content).toBe('string');
              const formula = String(content);
              expect(formula.startsWith(`=IF(OR(${atd}!${letter}`)).toBe(true);
              // Every reference relative and in the cell's own column: moved one column right, it is the next cell's.
              for (const [, dollarColumn, letters, dollarRow] of formula.matchAll(REFERENCE)) {
                expect([dollarColumn, letters, dollarRow]).toEqual(['', letter, '']);
              }
              const own = formula.replace(REFERENCE, (_, _d, _l, _r, n) => `#${n}`);
              shape ??= own;
              expect(own).toBe(shape);
              comparisons++;
            });
          });
        }
      }
      expect(comparisons).toBeGreaterThan(1000);
    });
  }
});
