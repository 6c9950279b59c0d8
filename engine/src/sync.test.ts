/**
 * `PlanWorkbook.sync`: a built workbook brought to another state of the plan's inputs (as the API reads them afresh
 * after another process's writes) must equal a workbook built afresh from those inputs, and compile no more than the
 * cases that differ.
 */
import { describe, expect, it } from 'vitest';
import { applyEdits, type PlanEdit } from './edits';
import { COMMENT_SECTIONS, parsePlanFile } from './schema';
import { buildFixture, seededRandom } from './testing';
import { PlanWorkbook } from './workbook';

const asOf = { year: 2026, month: 11 };

function expectSameAsFresh(wb: PlanWorkbook, input: unknown = wb.plan): void {
  const fresh = PlanWorkbook.build(input, { asOf });
  expect(wb.sheetNames()).toEqual(fresh.sheetNames());
  for (const name of fresh.sheetNames()) {
    expect(wb.sheetValues(name), name).toEqual(fresh.sheetValues(name));
    expect(wb.grid(name), name).toEqual(fresh.grid(name));
  }
  expect(wb.refused).toEqual(fresh.refused);
  fresh.destroy();
}

/** The plan file another writer left: `edits` applied to what the workbook holds. */
const written = (wb: PlanWorkbook, edits: PlanEdit[]) => parsePlanFile(applyEdits(wb.plan, edits));

describe('sync', () => {
  it('compiles only the cases whose inputs differ and ends where a fresh build does', () => {
    const wb = buildFixture('three-cases');
    const kept = new Map(
      wb
        .sheetNames()
        .filter((name) => !name.startsWith('C2_'))
        .map((name) => [name, wb.grid(name)]),
    );
    const plan = written(wb, [
      { type: 'year', caseIndex: 1, year: 2, key: 'churn_rate', value: 0.031 },
      { type: 'cash', caseIndex: 1, month: 9, values: { equity_raised: 50_000_000 } },
      { type: 'actual', caseIndex: 1, month: 3, values: { order: 4, sm: 900_000 } },
    ]);
    const result = wb.sync(plan);
    expect(result.recompiled).toBe('cases');
    expect(result.rebuilt).toBeUndefined();
    expect(result.changed.map((c) => c.caseIndex)).toEqual([1]);
    expect(result.changed[0]?.models).toEqual(expect.arrayContaining(['pl', 'monthly', 'dashboard']));
    for (const [name, grid] of kept) expect(wb.grid(name), name).toBe(grid);
    expect(wb.plan).toEqual(plan);
    expectSameAsFresh(wb);
    // Edits after a sync patch as usual.
    expect(wb.apply({ type: 'actual', caseIndex: 1, month: 3, values: { sm: 950_000 } }).recompiled).toBe('none');
    expectSameAsFresh(wb);
    wb.destroy();
  });

  it('takes the short ways of edits for what most writes change: assumptions, cash items, actuals of ACT months', () => {
    const wb = buildFixture('actuals-revisions');
    const act = wb.caseLayout(0).act;
    const month = act[0];
    if (month === undefined) throw new Error('the fixture has ACT months');
    const grids = new Map(wb.sheetNames().map((name) => [name, wb.grid(name)]));
    const literal = written(wb, [
      { type: 'cash', caseIndex: 0, month: 20, values: { equity_raised: 25_000_000, other: null } },
      { type: 'actual', caseIndex: 0, month, values: { order: 7, sm: 1_234_567 } },
    ]);
    expect(wb.sync(literal).recompiled).toBe('none');
    expectSameAsFresh(wb);
    const assumption = written(wb, [
      { type: 'year', caseIndex: 0, year: 2, key: 'cogs_rate', value: 0.27 },
      { type: 'cash', caseIndex: 0, month: 21, values: { debt_raised: 3_000_000 } },
    ]);
    expect(wb.sync(assumption).recompiled).toBe('assumptions');
    expectSameAsFresh(wb);
    // A month reversed to EST is no such edit: the case compiles, and still ends where a fresh build does.
    const reversed = written(wb, [{ type: 'reverse', caseIndex: 0, month }]);
    expect(wb.sync(reversed).recompiled).toBe('cases');
    expectSameAsFresh(wb);
    // Only the sheets holding what changed were replaced.
    const unchanged = [...grids].filter(([name]) => !name.startsWith('C1_'));
    for (const [name, grid] of unchanged) expect(wb.grid(name), name).toBe(grid);
    wb.destroy();
  });

  it('changes nothing when the inputs are the same', () => {
    const wb = buildFixture('actuals-revisions');
    const grids = wb.sheetNames().map((name) => wb.grid(name));
    const result = wb.sync(structuredClone(wb.plan));
    expect(result).toEqual({ changed: [], cells: 0, recompiled: 'none' });
    expect(wb.sheetNames().map((name) => wb.grid(name))).toEqual(grids);
    wb.destroy();
  });

  it('compiles the whole plan when its settings or its list of cases differ', () => {
    const wb = buildFixture('three-cases');
    const renamed = written(wb, [{ type: 'plan', values: { arpa: 61_000 } }]);
    expect(wb.sync(renamed).recompiled).toBe('plan');
    expectSameAsFresh(wb);
    const fewer = written(wb, [{ type: 'deleteCase', caseIndex: 1 }]);
    const result = wb.sync(fewer);
    expect(result.recompiled).toBe('plan');
    expect(wb.sheetNames().some((name) => name.startsWith('C3_'))).toBe(false);
    expectSameAsFresh(wb);
    const comment = written(wb, [
      {
        type: 'comment',
        caseIndex: 0,
        comment: { year: 1, column_name: 2, section: COMMENT_SECTIONS[0], content: 'Two large deals' },
      },
    ]);
    const commented = wb.sync(comment);
    expect(commented.changed).toEqual([{ caseIndex: 0, models: ['monthly'] }]);
    expectSameAsFresh(wb);
    wb.destroy();
  });

  it('builds afresh when many months turn ACT, and keeps a stored value out of bounds out as a build does', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const year: PlanEdit[] = Array.from({ length: 12 }, (_, i) => ({
      type: 'actual',
      caseIndex: 0,
      month: i + 1,
      values: { order: 2 + (i % 3), sm: 400_000 + 1_000 * i },
    }));
    const result = wb.sync(written(wb, year));
    expect(result.rebuilt).toBe(true);
    expectSameAsFresh(wb);
    // A value beyond the plan file's bounds, stored anyway: left out and named, as a build leaves it.
    const stored = structuredClone(wb.plan) as unknown as { cases: { cash: Record<string, object> }[] };
    const first = stored.cases[0];
    if (first) first.cash['20'] = { equity_raised: 1e308 };
    const salvaged = wb.sync(stored);
    expect(salvaged.rebuilt).toBeUndefined();
    expect(wb.refused.map((issue) => issue.path)).toEqual(['cases.0.cash.20.equity_raised']);
    expectSameAsFresh(wb, stored);
    wb.destroy();
  });

  it("ends where a fresh build does after any run of other writers' edits, on every fixture", () => {
    const random = seededRandom(20261124);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const rates = ['churn_rate', 'cogs_rate', 'sm_rate', 'ga_rate'] as const;
    const cashKeys = ['equity_raised', 'debt_raised', 'debt_payment', 'other'] as const;
    const taken = { none: 0, assumptions: 0, cases: 0, plan: 0, rebuilt: 0 };
    for (const fixture of ['saas-jpy-t2d3', 'selfserve-usd-custom', 'three-cases', 'actuals-revisions']) {
      const wb = buildFixture(fixture);
      for (let round = 0; round < 10; round++) {
        // What other processes wrote meanwhile: one to four edits of any kind a write makes to a case.
        const edits: PlanEdit[] = Array.from({ length: 1 + Math.floor(random() * 4) }, (): PlanEdit => {
          const caseIndex = Math.floor(random() * wb.plan.cases.length);
          const act = wb.caseLayout(caseIndex).act;
          const value = Math.round(random() * 1_000_000);
          const roll = random();
          if (roll < 0.3) {
            const rate = Math.round(random() * 300) / 1000;
            return { type: 'year', caseIndex, year: 1 + Math.floor(random() * 6), key: pick(rates), value: rate };
          }
          if (roll < 0.55) {
            const values = { [pick(cashKeys)]: random() < 0.2 ? null : value };
            return { type: 'cash', caseIndex, month: 1 + Math.floor(random() * 72), values };
          }
          if (roll < 0.8) {
            const month = act.length > 0 && random() < 0.7 ? pick(act) : 1 + Math.floor(random() * 24);
            return { type: 'actual', caseIndex, month, values: { order: Math.round(random() * 20), sm: value } };
          }
          if (roll < 0.87 && act.length > 0) return { type: 'reverse', caseIndex, month: pick(act) };
          if (roll < 0.94) return { type: 'caseRate', caseIndex, value: 0.5 + Math.round(random() * 10) / 10 };
          return { type: 'caseName', caseIndex, value: `Case ${round}` };
        });
        const plan = written(wb, edits);
        const result = wb.sync(plan);
        taken[result.rebuilt ? 'rebuilt' : result.recompiled] += 1;
        expect(wb.plan).toEqual(plan);
        if (round % 3 === 2) expectSameAsFresh(wb);
      }
      expectSameAsFresh(wb);
      wb.destroy();
    }
    // The runs took the short ways of edits and the compiling ones alike.
    expect(taken.none).toBeGreaterThan(0);
    expect(taken.assumptions).toBeGreaterThan(0);
    expect(taken.cases).toBeGreaterThan(0);
  });
});
