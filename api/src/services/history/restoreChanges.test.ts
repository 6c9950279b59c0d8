/**
 * The change set between two states of a plan (a restore's answer): when it is answered, its engine edits take the
 * plan before to the plan after exactly; it is left out for what no change set says. A restore over HTTP, followed
 * by the cached and the browser's workbooks, is in `api/src/routes/changeSets.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { caseIdsAfter, engineEdits } from '@topline/contract';
import { applyEdits, type PlanFile, parsePlanFile, sameData } from '@topline/engine';
import { describe, expect, it } from 'vitest';
import { changesBetween, type StoredPlan } from './restoreChanges';

/** A fixture plan as the API stores it: each cost item named by a row id. */
function fixture(name: string): PlanFile {
  const plan = parsePlanFile(
    JSON.parse(readFileSync(new URL(`../../../../fixtures/plans/${name}.json`, import.meta.url), 'utf8')),
  );
  let id = 100;
  return {
    ...plan,
    cases: plan.cases.map((c) => ({ ...c, cost_items: c.cost_items.map((item) => ({ ...item, cost_id: id++ })) })),
  };
}

const stored = (plan: PlanFile, caseIds: number[]): StoredPlan => ({ plan, caseIds });

/** The plan the change set between `before` and `after` takes `before` to, with its case ids. */
function followed(before: StoredPlan, after: StoredPlan) {
  const changes = changesBetween(before, after);
  if (!changes) throw new Error('no change set');
  return {
    changes,
    plan: parsePlanFile(applyEdits(before.plan, engineEdits(changes, before.caseIds))),
    caseIds: caseIdsAfter(changes, before.caseIds),
  };
}

describe('changesBetween', () => {
  const three = fixture('three-cases');
  const revised = fixture('actuals-revisions');

  it('answers no change for the same plan, whatever the order of its memos', () => {
    const before = stored(revised, [1, 2]);
    const [first, second] = revised.cases;
    if (!first || !second) throw new Error('two cases');
    const memos = [...first.comments, { year: 1, column_name: 5, section: 'actual' as const, content: 'Second memo' }];
    const withMemos = { ...revised, cases: [{ ...first, comments: memos }, second] };
    const reordered = { ...revised, cases: [{ ...first, comments: [...memos].reverse() }, second] };
    expect(changesBetween(stored(withMemos, [1, 2]), stored(reordered, [1, 2]))).toEqual([]);
    expect(changesBetween(before, before)).toEqual([]);
  });

  it('puts a deleted case back in its place, whole, and takes it out again', () => {
    const full = stored(three, [10, 20, 30]);
    const [base, ideal, prudent] = three.cases;
    if (!base || !ideal || !prudent) throw new Error('three cases');
    const withoutIdeal = stored({ ...three, cases: [base, prudent] }, [10, 30]);
    const back = followed(withoutIdeal, full);
    expect(back.changes).toEqual([{ type: 'addCase', caseId: 20, case: ideal, index: 1 }]);
    expect(back.caseIds).toEqual([10, 20, 30]);
    expect(sameData(back.plan, three)).toBe(true);
    expect(followed(full, withoutIdeal).changes).toEqual([{ type: 'deleteCase', caseId: 20 }]);
  });

  it('replaces every case while the plan keeps one to three', () => {
    const [base, ideal, prudent] = three.cases;
    if (!base || !ideal || !prudent) throw new Error('three cases');
    const before = stored(three, [10, 20, 30]);
    const after = stored({ ...three, cases: [{ ...prudent, case_name: 'Only case' }] }, [40]);
    const { changes, plan, caseIds } = followed(before, after);
    expect(changes.map((c) => c.type)).toEqual(['deleteCase', 'deleteCase', 'addCase', 'deleteCase']);
    expect(caseIds).toEqual([40]);
    expect(sameData(plan, after.plan)).toBe(true);
  });

  it('says each input of a kept case: assumptions, cash, actuals, a reversed month, revisions, items and memos', () => {
    const before = stored(revised, [1, 2]);
    const [upward, downward] = revised.cases;
    if (!upward || !downward) throw new Error('two cases');
    const [firstItem, ...otherItems] = upward.cost_items;
    if (!firstItem) throw new Error('a cost item');
    const changed: PlanFile = {
      ...revised,
      business_plan_name: 'Renamed plan',
      cases: [
        {
          ...upward,
          case_rate: 1.5,
          years: { ...upward.years, 2: { ...upward.years[2], churn_rate: 0.03 } },
          cash: { ...upward.cash, 7: { equity_raised: 5_000_000 } },
          actuals: { ...upward.actuals, 5: { ...upward.actuals[5], status: 'EST' }, 6: { order: 4, status: 'ACT' } },
          revisions: { 1: { pattern: 'downward', month: 6 } },
          cost_items: [...otherItems, { ...firstItem, cost_id: 999, price: firstItem.price + 1 }],
          comments: [],
        },
        downward,
      ],
    };
    const { changes, plan } = followed(before, stored(changed, [1, 2]));
    expect(changes.map((c) => c.type)).toEqual([
      'plan',
      'caseRate',
      'year',
      'cash',
      'actual',
      'reverse',
      'actual',
      'revise',
      'deleteCostItem',
      'costItem',
      ...upward.comments.map(() => 'comment'),
    ]);
    expect(sameData(plan, changed)).toBe(true);
  });

  it('says nothing for what no change set says', () => {
    const before = stored(three, [10, 20, 30]);
    const [base, ideal, prudent] = three.cases;
    if (!base || !ideal || !prudent) throw new Error('three cases');
    // Cases in another order, a plan field no write changes.
    expect(changesBetween(before, stored({ ...three, cases: [ideal, base, prudent] }, [20, 10, 30]))).toBeUndefined();
    expect(changesBetween(before, stored({ ...three, arr: three.arr * 2 }, [10, 20, 30]))).toBeUndefined();
    // A revision taken back, a month's actuals gone with their status.
    const [upward, downward] = revised.cases;
    if (!upward || !downward) throw new Error('two cases');
    const { 1: _revision, ...noRevision } = upward.revisions;
    const { 5: _month, ...noMonth } = upward.actuals;
    const twoCases = stored(revised, [1, 2]);
    expect(
      changesBetween(twoCases, stored({ ...revised, cases: [{ ...upward, revisions: noRevision }, downward] }, [1, 2])),
    ).toBeUndefined();
    expect(
      changesBetween(twoCases, stored({ ...revised, cases: [{ ...upward, actuals: noMonth }, downward] }, [1, 2])),
    ).toBeUndefined();
  });
});
