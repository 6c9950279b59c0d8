/**
 * A write is stored as rows (the SQL of its service) and followed by the cached workbook as engine edits (the
 * contract's request-to-edit functions). The two must agree: after any sequence of writes, the workbook the cache
 * edited in place answers what a workbook built afresh from the stored inputs answers, and so does a workbook that
 * followed each write's answer as the browser's does (its `plan_changes`, through `engineEdits`). Random sequences of every kind
 * of edit, over HTTP, on every fixture plan; a write the API refuses (a reverse of a month without actuals, a
 * revision without actuals) must leave both sides as they were. A restore from the plan's history writes its rows as
 * they stood and answers the change set between the plan before and after it, which both follow the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { asOfMonth, COST_ITEM_TITLES, caseIdsAfter, engineEdits, planChangesIn } from '@topline/contract';
import { MODEL_NAMES, PlanWorkbook } from '@topline/engine';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanRow } from '../services/access/access';
import { loadPlanFile } from '../services/plans/planFile';
import { startTestApi, type TestApi } from '../testing/harness';

const today = new Date('2026-10-15T09:00:00Z');
const asOf = asOfMonth(today);
const fixturesDir = new URL('../../../fixtures/plans/', import.meta.url);
const fixtures = readdirSync(fixturesDir).filter((f) => f.endsWith('.json'));

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ now: () => today });
});
afterAll(async () => {
  await api.close();
});

/**
 * One write request: its path and its body, with the case named by its index among the plan's cases. A write of a
 * cost item (`item`) names the case's newest item, with the version it was read at.
 */
type Write = { path: string; body: Record<string, unknown>; caseIndex: number; item?: boolean; change?: number };

const month = fc.integer({ min: 1, max: 12 });
const year = fc.integer({ min: 1, max: 2 });
const caseIndex = fc.integer({ min: 0, max: 2 });
const money = fc.integer({ min: 0, max: 50_000_000 });

const costItem = fc.record({
  item_title: fc.constantFrom(...COST_ITEM_TITLES),
  item_name: fc.constantFrom('Office', 'Tools', 'Hiring fees'),
  price: fc.integer({ min: 1, max: 2_000_000 }),
  start_year: fc.constant(2026),
  start_month: fc.integer({ min: 1, max: 6 }),
  end_year: fc.constant(2027),
  end_month: fc.integer({ min: 1, max: 12 }),
});

const writes: fc.Arbitrary<Write> = fc.oneof(
  fc.record({
    path: fc.constant('/case/edit'),
    caseIndex,
    body: fc.record({
      year: fc.integer({ min: 1, max: 6 }),
      key: fc.constantFrom('cogs_rate', 'sm_rate', 'churn_rate'),
      value: fc.option(
        fc.integer({ min: 0, max: 40 }).map((n) => n / 100),
        { nil: null },
      ),
    }),
  }),
  fc.record({
    path: fc.constant('/case/edit'),
    caseIndex,
    body: fc.record({ year: fc.constant(1), key: fc.constant('case_rate'), value: fc.constantFrom(0.5, 1, 1.5) }),
  }),
  fc.record({
    path: fc.constant('/pl/monthly/edit'),
    caseIndex,
    body: fc.record({
      year,
      month,
      order: fc.integer({ min: 0, max: 40 }),
      churn: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
    }),
  }),
  fc.record({ path: fc.constant('/pl/monthly/reverse'), caseIndex, body: fc.record({ year, month }) }),
  fc.record({
    path: fc.constant('/pl/monthly/cashflow/edit'),
    caseIndex,
    body: fc.record({ year, month, equity_raised: money, other: fc.option(money, { nil: null }) }),
  }),
  fc.record({
    path: fc.constant('/pl/monthly/adjust/edit'),
    caseIndex,
    body: fc.record({ year, pattern: fc.constantFrom('upward', 'downward') }),
  }),
  fc.record({
    path: fc.constant('/pl/monthly/comment/edit'),
    caseIndex,
    body: fc.record({
      year,
      column_name: month,
      section: fc.constantFrom('estimate', 'actual', 'difference'),
      content: fc.constantFrom('', 'Churn from one large account', '見込みより受注が多い'),
    }),
  }),
  fc.record({ path: fc.constant('/cost/create'), caseIndex, body: fc.record({ item: costItem }) }),
  fc.record({ path: fc.constant('/cost/edit'), caseIndex, item: fc.constant(true), body: costItem }),
  fc.record({ path: fc.constant('/cost/delete'), caseIndex, item: fc.constant(true), body: fc.constant({}) }),
  fc.record({
    path: fc.constant('/case/create'),
    caseIndex,
    body: fc.record({ case_name: fc.constantFrom('Ideal case', '慎重ケース'), case_rate: fc.constantFrom(0.5, 1.5) }),
  }),
  fc.record({ path: fc.constant('/case/delete'), caseIndex, body: fc.constant({}) }),
  // A restore to one of the plan's earlier changes, picked by its place among them.
  {
    arbitrary: fc.record({ path: fc.constant('/history/restore'), caseIndex, change: fc.nat(), body: fc.constant({}) }),
    weight: 2,
  },
  fc.record({
    path: fc.constant('/model/edit'),
    caseIndex,
    body: fc.record({ model: fc.record({ name: fc.constantFrom(...MODEL_NAMES.filter((m) => m !== 'custom')) }) }),
  }),
);

/** The case's newest cost item as `/cost/edit` and `/cost/delete` name it, or null when the case has none. */
async function newestItem(caseId: number): Promise<{ cost_id: number; version: number } | null> {
  const row = await api.db('cost_items').where({ case_id: caseId }).orderBy('id', 'desc').first('id', 'version');
  return row ? { cost_id: Number(row.id), version: Number(row.version) } : null;
}

async function planRow(planId: number): Promise<PlanRow> {
  const plan = await api.db<PlanRow>('business_plans').where({ id: planId }).first();
  if (!plan) throw new Error(`no plan ${planId}`);
  return plan;
}

/** A workbook that follows the plan as the browser's does: built from the plan file, then by the answers' change sets. */
interface Follower {
  workbook: PlanWorkbook;
  caseIds: number[];
}

/** The cached workbook and the browser's (both followed by edits) against one built afresh from the stored inputs. */
async function expectFollowersEqualBuilt(planId: number, browser: Follower): Promise<void> {
  const plan = await planRow(planId);
  const cached = await api.workbooks.get(api.db, plan, asOf);
  expect(cached.version).toBe(Number(plan.version));
  const loaded = await loadPlanFile(api.db, plan);
  const built = PlanWorkbook.build(loaded.file, { asOf });
  try {
    expect(cached.caseIds).toEqual(loaded.caseIds);
    expect(browser.caseIds).toEqual(loaded.caseIds);
    for (const follower of [cached.workbook, browser.workbook]) {
      for (let c = 0; c < loaded.caseIds.length; c++) {
        expect(follower.annualPl(c)).toEqual(built.annualPl(c));
        for (let y = 1; y <= 2; y++) expect(follower.monthlyPl(c, y)).toEqual(built.monthlyPl(c, y));
        expect(follower.kpi(c)).toEqual(built.kpi(c));
        expect(follower.dashboard(c)).toEqual(built.dashboard(c));
        expect(follower.costs(c)).toEqual(built.costs(c));
      }
    }
  } finally {
    built.destroy();
  }
}

describe('a write as rows and as engine edits', () => {
  it.each(fixtures)(
    'leaves the workbooks that follow the writes (the API’s and the browser’s) equal to one built from the stored inputs, on %s',
    async (fixture) => {
      const file = JSON.parse(readFileSync(new URL(fixture, fixturesDir), 'utf8'));
      const { token } = await api.user(`change-sets-${fixture.replace(/\.json$/, '')}@example.com`, 'team');
      await fc.assert(
        fc.asyncProperty(fc.array(writes, { minLength: 1, maxLength: 8 }), async (sequence) => {
          // Each run on a plan of its own, so that a counterexample replays from the fixture as it is.
          const imported = await api.call('POST', '/business-plan/import', { token, body: { plan: file } });
          expect(imported.status).toBe(201);
          const planId = imported.body.data.business_plan_id as number;
          try {
            // The plan's cases as they stand before each write: cases come and go.
            const caseIdsNow = async () =>
              (await api.db('cases').where({ plan_id: planId }).orderBy(['position', 'id']).pluck('id')).map(Number);
            // The cached workbook, built once before the writes that it then follows.
            expect((await api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: planId } })).status).toBe(
              200,
            );
            const file = await api.call('GET', '/business-plan/file', { token, query: { business_plan_id: planId } });
            const browser: Follower = {
              workbook: PlanWorkbook.build(file.body.data.plan, { asOf }),
              caseIds: file.body.data.case_ids,
            };
            const before = { ...api.workbooks.stats };
            let applied = 0;
            let reloads = 0;
            for (const write of sequence) {
              const caseIds = await caseIdsNow();
              const caseId = caseIds[write.caseIndex % caseIds.length];
              const newest = write.item ? await newestItem(caseId ?? 0) : undefined;
              if (newest === null) continue;
              // A delete names the item alone; an edit also the version it read.
              const target = newest && write.path === '/cost/delete' ? { cost_id: newest.cost_id } : newest;
              const changeIds = (await api.db('plan_changes').where({ plan_id: planId }).orderBy('id').pluck('id')).map(
                Number,
              );
              const answer = await api.call('POST', write.path, {
                token,
                body: {
                  business_plan_id: planId,
                  ...(write.change !== undefined
                    ? { at: changeIds[write.change % changeIds.length] }
                    : write.path === '/case/create'
                      ? {}
                      : { case_id: caseId }),
                  ...target,
                  ...write.body,
                },
              });
              // A refusal (a month without actuals to reverse, a year without actuals to revise, a fourth case or
              // the last one deleted) writes nothing.
              expect([200, 400], `${write.path} ${answer.text}`).toContain(answer.status);
              if (answer.status !== 200) continue;
              applied++;
              // The answer carries the change set the write stored; the browser's workbook follows it.
              const changes = planChangesIn(answer.body);
              if (changes === undefined && write.path === '/history/restore') {
                // A restore that no change set says (a case put back among the others): both read the plan again.
                const file = await api.call('GET', '/business-plan/file', {
                  token,
                  query: { business_plan_id: planId },
                });
                browser.workbook.destroy();
                browser.workbook = PlanWorkbook.build(file.body.data.plan, { asOf });
                browser.caseIds = file.body.data.case_ids;
                reloads++;
                continue;
              }
              expect(changes, `${write.path} answers its change set`).toBeDefined();
              browser.workbook.apply(engineEdits(changes ?? [], browser.caseIds));
              browser.caseIds = caseIdsAfter(changes ?? [], browser.caseIds);
            }
            await expectFollowersEqualBuilt(planId, browser);
            browser.workbook.destroy();
            // Followed by edits, not by reading the plan afresh: the agreement above is the edits' own.
            const stats = api.workbooks.stats;
            // A write without a change set is followed by reading the plan again, and the edits queued after it
            // with it.
            const reloaded = stats.builds - before.builds + stats.synced - before.synced;
            expect(stats.fallbacks - before.fallbacks).toBe(0);
            expect(reloaded).toBe(reloads > 0 ? 1 : 0);
            if (reloads === 0) expect(stats.applied - before.applied).toBe(applied);
          } finally {
            await api.call('POST', '/business-plan/delete', { token, body: { business_plan_id: planId } });
          }
        }),
        { numRuns: 4, seed: 20261127 + fixture.length },
      );
    },
    240_000,
  );
});
