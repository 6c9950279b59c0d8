/**
 * Edits change the workbook in place; afterwards every value must equal a workbook built afresh from the edited plan.
 */
import { describe, expect, it } from 'vitest';
import { EditError, type PlanEdit, revisionMonth } from './edits';
import { CaseReader } from './read/cells';
import { COMMENT_SECTIONS, PlanFileError } from './schema';
import { buildFixture, loadFixture, seededRandom } from './testing';
import { PlanWorkbook } from './workbook';

const asOf = { year: 2026, month: 11 };

/** Values and contents (what the exports write) both equal a fresh build's. */
function expectSameAsFresh(wb: PlanWorkbook): void {
  const fresh = PlanWorkbook.build(wb.plan, { asOf });
  expect(wb.sheetNames()).toEqual(fresh.sheetNames());
  for (const name of fresh.sheetNames()) {
    expect(wb.sheetValues(name), name).toEqual(fresh.sheetValues(name));
    expect(wb.grid(name), name).toEqual(fresh.grid(name));
  }
  fresh.destroy();
}

describe('edits', () => {
  it("changes a year's churn in place and reports the case's read models as changed", () => {
    const wb = buildFixture('three-cases');
    const before = wb.annualPl(0)[0]?.revenue;
    const result = wb.apply({ type: 'year', caseIndex: 0, year: 1, key: 'churn_rate', value: 0.05 });
    // MRR follows the ARR path, so revenue holds while churn and new customers rise.
    expect(wb.annualPl(0)[0]?.revenue).toBeCloseTo(before ?? 0, 6);
    const r = new CaseReader(wb, 0);
    expect(r.estimateAt('churn', 2)).toBeCloseTo((100_000_000 / 12 / 12 / 50_000) * 0.05, 9);
    expect(result.cells).toBe(1);
    expect(result.changed.map((c) => c.caseIndex)).toEqual([0]);
    expect(result.changed[0]?.models).toContain('monthly');
    expectSameAsFresh(wb);
  });

  it('clears an override back to its default formula', () => {
    const wb = buildFixture('three-cases');
    wb.apply({ type: 'year', caseIndex: 0, year: 3, key: 'arr', value: null });
    // T3 = T2 x m2 = 300M x 3 = 900M again.
    expect(wb.annualPl(0)[2]?.arr).toBeCloseTo(900_000_000, 3);
    expectSameAsFresh(wb);
  });

  it('enters actuals, reverses a month, and revises the budget', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const months: PlanEdit[] = [1, 2, 3].map((t) => ({
      type: 'actual',
      caseIndex: 0,
      month: t,
      values: { order: 2, churn: 0, session: 400, lead: 25, meeting: 9, arpa: 15_000 },
    }));
    wb.apply(months);
    expect(wb.caseLayout(0).act).toEqual([1, 2, 3]);
    expectSameAsFresh(wb);
    wb.apply({ type: 'revise', caseIndex: 0, year: 1, pattern: 'downward' });
    expect(wb.plan.cases[0]?.revisions['1']).toEqual({ pattern: 'downward', month: 3 });
    // Downward: MRR_4 = estimate MRR_4 x actual MRR_3 / estimate MRR_3 = (M1 x 4/12) x (6 x 15,000) / (M1 x 3/12).
    const r = new CaseReader(wb, 0);
    expect(r.viewAt('mrr', 4)).toBeCloseTo((4 / 3) * 90_000, 6);
    expectSameAsFresh(wb);
    wb.apply({ type: 'reverse', caseIndex: 0, month: 3 });
    expect(wb.caseLayout(0).act).toEqual([1, 2]);
    expect(wb.plan.cases[0]?.actuals['3']?.order).toBe(2);
    expectSameAsFresh(wb);
  });

  it("reads a case's actual sheets afresh after they were removed and added again", () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const actual = (order: number): PlanEdit => ({ type: 'actual', caseIndex: 0, month: 1, values: { order } });
    wb.apply(actual(2));
    // Read once, so that the workbook knows the sheets by their ids.
    expect(wb.monthlyGrid(0, 1, 'actual')[0]?.values.order).toBe(2);
    // The only ACT month returned to the forecast: the actual sheets go; then entered again: new sheets.
    wb.apply({ type: 'reverse', caseIndex: 0, month: 1 });
    expect(wb.caseLayout(0).sheets.actual).toBeUndefined();
    wb.apply(actual(5));
    expect(wb.monthlyGrid(0, 1, 'actual')[0]?.values.order).toBe(5);
    expect(wb.monthlyGrid(0, 1, 'difference_value')[0]?.values.order).toBe(
      5 - (wb.monthlyGrid(0, 1, 'estimate')[0]?.values.order ?? 0),
    );
    expectSameAsFresh(wb);
  });

  it('adds and deletes cases, keeping one to three', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    wb.apply({ type: 'addCase', case: { case_name: 'Ideal case', case_rate: 2 } });
    expect(wb.annualPl(1)[0]?.arr).toBeCloseTo(10_000_000, 6);
    wb.apply({ type: 'addCase', case: { case_name: 'Prudent case', case_rate: 0.5 } });
    expect(() => wb.apply({ type: 'addCase', case: { case_name: 'Fourth' } })).toThrow(EditError);
    wb.apply({ type: 'deleteCase', caseIndex: 0 });
    expect(wb.plan.cases.map((c) => c.case_name)).toEqual(['Ideal case', 'Prudent case']);
    expectSameAsFresh(wb);
  });

  it('gives an added case the defaults of a case of the plan file, so that later edits find its lists', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    wb.apply([
      { type: 'addCase', case: { case_name: 'Ideal case', case_rate: 2 } },
      {
        type: 'costItem',
        caseIndex: 1,
        item: {
          cost_id: 9,
          item_title: 'cogs_labor',
          item_name: 'Support',
          price: 100_000,
          start_year: 2026,
          start_month: 4,
          end_year: 2027,
          end_month: 3,
        },
      },
    ]);
    expect(wb.plan.cases[1]?.cost_items.map((item) => item.item_name)).toEqual(['Support']);
    expect(wb.plan.cases[1]?.comments).toEqual([]);
    expectSameAsFresh(wb);
  });

  it('adds, edits and deletes cost items', () => {
    const wb = buildFixture('saas-jpy-t2d3');
    const item = {
      cost_id: 'a',
      item_title: 'ga_land_rent',
      item_name: 'Office',
      price: 100_000,
      start_year: 2026,
      start_month: 4,
      end_year: 2026,
      end_month: 6,
    };
    wb.apply({ type: 'costItem', caseIndex: 0, item });
    expect(wb.costs(0)[0]?.groups.ga.total).toBe(300_000);
    wb.apply({ type: 'costItem', caseIndex: 0, item: { ...item, end_month: 9 } });
    expect(wb.costs(0)[0]?.groups.ga.total).toBe(600_000);
    expectSameAsFresh(wb);
    wb.apply({ type: 'deleteCostItem', caseIndex: 0, costId: 'a' });
    expect(wb.costs(0)[0]?.groups.ga.total).toBe(0);
  });

  it('refuses an invalid edit and leaves the workbook as it was', () => {
    const wb = buildFixture('three-cases');
    const before = wb.sheetValues('C1_Estimate');
    expect(() => wb.apply({ type: 'year', caseIndex: 0, year: 1, key: 'churn_rate', value: 3 })).toThrow(PlanFileError);
    expect(() => wb.apply({ type: 'revise', caseIndex: 0, year: 1, pattern: 'upward' })).toThrow(EditError);
    expect(wb.sheetValues('C1_Estimate')).toEqual(before);
  });

  it('revises a year from its latest ACT month, and only with a month left after it', () => {
    // Year 2 holds months 13..24: its latest ACT month is 15, whatever year 1 holds.
    expect(revisionMonth([1, 2, 12, 13, 15], 2)).toBe(15);
    expect(revisionMonth(new Set([6, 3]), 1)).toBe(6);
    expect(revisionMonth([23], 2)).toBe(23);
    const refusal = (act: number[], year: number) => {
      try {
        revisionMonth(act, year);
      } catch (error) {
        return error instanceof EditError ? [error.field, error.message] : error;
      }
      return undefined;
    };
    expect(refusal([1, 2, 3], 2)).toEqual(['year', 'year: year 2 has no actual month to revise from']);
    expect(refusal([], 1)).toEqual(['year', 'year: year 1 has no actual month to revise from']);
    expect(refusal([5, 12], 1)).toEqual(['year', 'year: year 1 has no month left to revise']);
  });

  it('writes a cash item that moves between numbers straight into its cells, as a fresh build has them', () => {
    const wb = buildFixture('three-cases');
    const cash = (month: number, values: Record<string, number | null>): PlanEdit => ({
      type: 'cash',
      caseIndex: 0,
      month,
      values,
    });
    // Empty (0 in the sheet) to a number, a number to another, and back to empty.
    const first = wb.apply(cash(3, { other: 2_500_000 }));
    expect(first).toMatchObject({ recompiled: 'none', cells: 1 });
    expect(first.changed.find((c) => c.caseIndex === 0)?.models).toEqual(expect.arrayContaining(['monthly', 'pl']));
    expect(new CaseReader(wb, 0).estimateAt('other', 3)).toBe(2_500_000);
    expectSameAsFresh(wb);
    expect(wb.apply(cash(7, { equity_raised: 80_000_000, debt_raised: 1_000 })).recompiled).toBe('none');
    expect(wb.apply(cash(1, { beginning_cash_balance: 40_000_000 })).recompiled).toBe('none');
    expectSameAsFresh(wb);
    expect(wb.apply(cash(3, { other: null })).recompiled).toBe('none');
    expect(wb.plan.cases[0]?.cash['3']).toBeUndefined();
    expectSameAsFresh(wb);
    // A beginning balance set or cleared replaces or restores the chain: the plan is compiled.
    expect(wb.apply(cash(13, { beginning_cash_balance: 1 })).recompiled).toBe('cases');
    expectSameAsFresh(wb);
    expect(wb.apply(cash(13, { beginning_cash_balance: null })).recompiled).toBe('cases');
    expectSameAsFresh(wb);
    // The same value again reaches no cell.
    expect(wb.apply(cash(7, { debt_raised: 1_000 }))).toMatchObject({ recompiled: 'none', cells: 0, changed: [] });
  });

  it('writes actuals of ACT months straight into their cells, and compiles what changes more than a number', () => {
    const wb = buildFixture('actuals-revisions');
    const actual = (caseIndex: number, month: number, values: Record<string, number | null>): PlanEdit => ({
      type: 'actual',
      caseIndex,
      month,
      values,
    });
    const result = wb.apply(actual(0, 2, { cogs: 150_000, order: 2, churn: 1 }));
    expect(result.recompiled).toBe('none');
    expect(result.changed.find((c) => c.caseIndex === 0)?.models).toEqual(expect.arrayContaining(['monthly']));
    expect(new CaseReader(wb, 0).viewAt('cogs', 2)).toBe(150_000);
    expectSameAsFresh(wb);
    // The month a revision starts from moves the revised months with it (case 1 revises downward from month 6).
    expect(wb.apply(actual(1, 6, { order: 5, sm: 3_000_000 })).recompiled).toBe('none');
    expectSameAsFresh(wb);
    // A value not entered before, or cleared, stands at the month's forecast (a formula): the case compiles.
    expect(wb.apply(actual(1, 6, { other: 3_000_000 })).recompiled).toBe('cases');
    expectSameAsFresh(wb);
    expect(wb.apply(actual(0, 2, { cogs: null })).recompiled).toBe('cases');
    expect(wb.apply(actual(0, 2, { arpa: null })).recompiled).toBe('cases');
    expectSameAsFresh(wb);
    expect(wb.apply(actual(0, 2, { arpa: 90_000 })).recompiled).toBe('cases');
    // A month that is not ACT yet turns ACT; the status itself is not a cell.
    expect(wb.apply(actual(0, 7, { order: 1 })).recompiled).toBe('cases');
    expect(wb.apply(actual(0, 7, { status: null } as never)).recompiled).toBe('cases');
    expectSameAsFresh(wb);
    // A batch is written directly only when every edit in it can be; assumption edits beside such writes compile
    // their Assumptions sheets only, in the same batch.
    const cash: PlanEdit = { type: 'cash', caseIndex: 0, month: 9, values: { other: 5 } };
    expect(wb.apply([actual(0, 3, { sm: 1 }), cash]).recompiled).toBe('none');
    const rate: PlanEdit = { type: 'caseRate', caseIndex: 0, value: 1.2 };
    expect(wb.apply([actual(0, 3, { sm: 2 }), rate, cash]).recompiled).toBe('assumptions');
    expect(new CaseReader(wb, 0).viewAt('sm', 3)).toBe(2);
    expectSameAsFresh(wb);
    expect(wb.apply([actual(0, 2, { cogs: null }), { ...rate, value: 1.1 }]).recompiled).toBe('cases');
    expectSameAsFresh(wb);
  });

  it('compiles the Assumptions sheet of a case whose only edit in a batch is an assumption', () => {
    const wb = buildFixture('three-cases');
    const third = wb
      .sheetNames()
      .filter((name) => name.startsWith('C3_') && name !== wb.caseLayout(2).sheets.assumptions);
    const kept = new Map(third.map((name) => [name, wb.grid(name)]));
    const result = wb.apply([
      { type: 'actual', caseIndex: 1, month: 3, values: { order: 4, sm: 900_000 } },
      { type: 'year', caseIndex: 2, year: 2, key: 'churn_rate', value: 0.031 },
    ]);
    expect(result.recompiled).toBe('cases');
    expect(result.changed.map((c) => c.caseIndex).sort()).toEqual([1, 2]);
    for (const [name, grid] of kept) expect(wb.grid(name), name).toBe(grid);
    expectSameAsFresh(wb);
  });

  it('compiles only the edited case again, keeping the sheets of the others as they were', () => {
    const wb = buildFixture('three-cases');
    const others = wb.sheetNames().filter((name) => !name.startsWith('C2_'));
    const kept = new Map(others.map((name) => [name, wb.grid(name)]));
    expect(wb.caseLayout(1).sheets.actual).toBeUndefined();
    // Month 3 of case 2 turns ACT: the case gains its Actual, masked and Variance sheets, in a fresh build's order.
    const result = wb.apply({ type: 'actual', caseIndex: 1, month: 3, values: { order: 4, sm: 900_000 } });
    expect(result.recompiled).toBe('cases');
    expect(result.changed.map((c) => c.caseIndex)).toEqual([1]);
    for (const [name, grid] of kept) expect(wb.grid(name), name).toBe(grid);
    expect(wb.caseLayout(1).sheets.actual).toBe('C2_Actual');
    expectSameAsFresh(wb);
    // The new month's inputs were recorded: an edit of them writes its cells directly, like a fresh build's would.
    expect(wb.apply({ type: 'actual', caseIndex: 1, month: 3, values: { sm: 950_000 } }).recompiled).toBe('none');
    expect(new CaseReader(wb, 1).viewAt('sm', 3)).toBe(950_000);
    expectSameAsFresh(wb);
    // Edits of the plan itself, or of its list of cases, compile the whole plan.
    expect(wb.apply({ type: 'deleteCase', caseIndex: 2 }).recompiled).toBe('plan');
    expectSameAsFresh(wb);
  });

  it('reports the read models each edit changes, per case', () => {
    const wb = buildFixture('three-cases');
    const comment = { year: 1, column_name: 2, section: COMMENT_SECTIONS[0], content: 'Launch' };
    expect(wb.apply({ type: 'comment', caseIndex: 1, comment }).changed).toEqual([
      { caseIndex: 1, models: ['monthly'] },
    ]);
    // The same comment again changes nothing.
    expect(wb.apply({ type: 'comment', caseIndex: 1, comment }).changed).toEqual([]);
    expect(wb.apply({ type: 'caseName', caseIndex: 2, value: 'Cautious' }).changed).toEqual([
      { caseIndex: 2, models: ['plan'] },
    ]);
    const cash = wb.apply({ type: 'cash', caseIndex: 0, month: 5, values: { other: 1 } });
    expect(cash.changed.map((c) => c.caseIndex)).toEqual([0]);
    const actuals = buildFixture('actuals-revisions');
    const actual = actuals.apply({ type: 'actual', caseIndex: 1, month: 4, values: { rd: 700_000 } });
    expect(actual.recompiled).toBe('none');
    expect(actual.changed.map((c) => c.caseIndex)).toEqual([1]);
    expect(actual.changed[0]?.models).toEqual(expect.arrayContaining(['monthly', 'dashboard']));
    const reversed = actuals.apply({ type: 'reverse', caseIndex: 0, month: 6 });
    expect(reversed.changed[0]).toMatchObject({ caseIndex: 0 });
    expect(reversed.changed[0]?.models).toEqual(expect.arrayContaining(['monthly', 'dashboard']));
  });

  it('gives the same workbook as a fresh build after any run of monthly value edits, on every fixture', () => {
    // Seeded generators, so a failure repeats: one for the edits, one for the assumption edits batched with some.
    const random = seededRandom(20261122);
    const another = seededRandom(20261123);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const cashKeys = ['beginning_cash_balance', 'equity_raised', 'debt_raised', 'debt_payment', 'other'] as const;
    const actualKeys = ['session', 'lead', 'meeting', 'order', 'churn', 'arpa', 'cogs', 'sm', 'rd', 'ga', 'other'];
    const direct = { none: 0, assumptions: 0, cases: 0, plan: 0 };
    for (const fixture of ['saas-jpy-t2d3', 'selfserve-usd-custom', 'three-cases', 'actuals-revisions']) {
      const wb = buildFixture(fixture);
      for (let step = 0; step < 24; step++) {
        const caseIndex = Math.floor(random() * wb.plan.cases.length);
        const act = wb.caseLayout(caseIndex).act;
        const value = random() < 0.2 ? null : Math.round(random() * 1_000_000);
        // Now and then an actual of any month, which may turn it ACT and so compile the case again.
        const roll = random();
        const edit: PlanEdit =
          roll < 0.15
            ? { type: 'actual', caseIndex, month: 1 + Math.floor(random() * 24), values: { order: value } }
            : act.length > 0 && roll < 0.55
              ? { type: 'actual', caseIndex, month: pick(act), values: { [pick(actualKeys)]: value } }
              : { type: 'cash', caseIndex, month: 1 + Math.floor(random() * 72), values: { [pick(cashKeys)]: value } };
        // Now and then with an assumption of any case in the same batch, as the API applies the edits of a moment.
        const batch: PlanEdit[] =
          another() < 0.3
            ? [
                edit,
                {
                  type: 'year',
                  caseIndex: Math.floor(another() * wb.plan.cases.length),
                  year: 1 + Math.floor(another() * 6),
                  key: 'churn_rate',
                  value: Math.round(another() * 50) / 1000,
                },
              ]
            : [edit];
        direct[wb.apply(batch).recompiled] += 1;
        if (step % 6 === 5) expectSameAsFresh(wb);
      }
      wb.destroy();
    }
    // Most of these edits take the direct path; the rest compile.
    expect(direct.none + direct.assumptions).toBeGreaterThan(direct.cases);
    expect(direct.cases).toBeGreaterThan(0);
    expect(direct.assumptions).toBeGreaterThan(0);
    expect(direct.plan).toBe(0);
  });

  it("counts daily entries into the month's actual", () => {
    const plan = loadFixture('saas-jpy-t2d3') as Record<string, unknown>;
    const wb = PlanWorkbook.build(plan, { asOf });
    wb.apply([
      { type: 'daily', caseIndex: 0, date: '2026-04-03', metric: 'order', value: 2 },
      { type: 'daily', caseIndex: 0, date: '2026-04-10', metric: 'order', value: 1 },
      { type: 'daily', caseIndex: 0, date: '2026-05-01', metric: 'meeting', value: 4 },
      { type: 'actual', caseIndex: 0, month: 1, values: { churn: 0 } },
    ]);
    // April (month 1) has no entered order: the daily 2 + 1 count.
    expect(new CaseReader(wb, 0).viewAt('order', 1)).toBe(3);
    expectSameAsFresh(wb);
  });
});
