import { PlanWorkbook } from '@topline/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../db';
import { createPlan, startTestApi } from '../../testing/harness';
import { type EditsFor, type PlanAccess, type PlanRow, planAccess } from '../access/access';
import type { UserRow } from '../accounts/users';
import { saveCashflow } from '../plans/monthly';
import { loadPlanFile } from '../plans/planFile';
import { createCase, deleteCase, editCaseYear } from '../plans/plans';
import { type CompiledPlan, WorkbookCache } from './workbooks';

let api: Awaited<ReturnType<typeof startTestApi>>;
const databaseUrl = process.env.TEST_DATABASE_URL || undefined;
let token: string;
let user: UserRow;
let planId: number;
let caseId: number;

// A plan read in its seventh month: start 2026-04, "today" 2026-10-15.
const today = new Date('2026-10-15T09:00:00Z');
const asOf = { year: 2026, month: 10 };

beforeAll(async () => {
  api = await startTestApi({ now: () => today });
  ({ token, user } = await api.user('workbooks@example.com', 'team'));
  ({ planId, caseId } = await createPlan(api, token, { business_plan_name: 'Load plan' }));
});
afterAll(async () => {
  await api.close();
});

const get = (path: string, query: Record<string, string | number> = {}) =>
  api.call('GET', path, { token, query: { business_plan_id: planId, ...query } });
const post = (path: string, body: Record<string, unknown>) =>
  api.call('POST', path, { token, body: { business_plan_id: planId, ...body } });

const planRow = async (id = planId): Promise<PlanRow> => {
  const plan = await api.db<PlanRow>('business_plans').where({ id }).first();
  if (!plan) throw new Error(`no plan ${id}`);
  return plan;
};

/** The owner's access to the plan, recording each committed write as the routes report it to the cache. */
async function recordingAccess(id = planId) {
  const writes: { version: number; edits: EditsFor | null }[] = [];
  const access: PlanAccess = await planAccess(api.db, user, id, today);
  access.changed = (version, edits) => writes.push({ version, edits });
  return { access, writes };
}

/** Expects a compiled plan to answer what a workbook built afresh from the database answers. */
async function expectFresh(compiled: CompiledPlan, id = planId) {
  const plan = await planRow(id);
  const loaded = await loadPlanFile(api.db, plan);
  const fresh = PlanWorkbook.build(loaded.file, { asOf });
  try {
    expect(compiled.caseIds).toEqual(loaded.caseIds);
    for (let c = 0; c < loaded.caseIds.length; c++) {
      expect(compiled.workbook.annualPl(c)).toEqual(fresh.annualPl(c));
      expect(compiled.workbook.monthlyPl(c)).toEqual(fresh.monthlyPl(c));
      expect(compiled.workbook.dashboard(c)).toEqual(fresh.dashboard(c));
    }
  } finally {
    fresh.destroy();
  }
}

describe('screen reads under concurrent writes', () => {
  it('answers every read and ends where a fresh build does', async () => {
    await post('/case/create', { case_name: 'Ideal', case_rate: 2 });
    const caseIds = (await get('/pl/retrieve')).body.data.values.map((v: { case_id: number }) => v.case_id);
    expect(caseIds).toHaveLength(2);
    const reads = [
      ['/pl/retrieve', {}],
      ['/pl/monthly/retrieve', { year: 1 }],
      ['/pl/monthly/retrieve', { case_id: caseIds[1] }],
      ['/dashboard/retrieve', {}],
      ['/dashboard/retrieve', { case_id: caseIds[1] }],
      ['/kpi/retrieve', {}],
    ] as const;
    const failures: string[] = [];
    const check = (what: string) => (answer: { status: number; text: string }) => {
      if (answer.status !== 200) failures.push(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
    };
    // Twenty users, one call after another, one call in five a write: writes land among reads that started before
    // and after they commit.
    await Promise.all(
      Array.from({ length: 20 }, async (_, user) => {
        for (let n = 0; n < 15; n++) {
          const i = user * 15 + n;
          const target = caseIds[i % 2];
          if (i % 5 === 2) {
            const write = [
              () => post('/case/edit', { case_id: target, year: 1, key: 'cogs_rate', value: 0.3 + (i % 20) / 100 }),
              () => post('/pl/monthly/edit', { year: 1, month: 1 + (i % 6), order: 5 + (i % 7), churn: i % 3 }),
              () => post('/pl/monthly/cashflow/edit', { case_id: target, year: 1, month: 7, equity_raised: i * 1e6 }),
            ][i % 3];
            if (write) check(`write ${i}`)(await write());
          } else {
            const [path, query] = reads[i % reads.length] ?? reads[0];
            check(`${path} ${JSON.stringify(query)}`)(await get(path, query));
          }
        }
      }),
    );
    expect(failures).toEqual([]);
    expect(api.workbooks.stats.fallbacks).toBe(0);

    const answers = async () => Promise.all(reads.map(([path, query]) => get(path, query).then((a) => a.text)));
    const warm = await answers();
    // A restarted API: nothing cached, every workbook built from the database.
    api.workbooks.clear();
    expect(await answers()).toEqual(warm);
    const plan = await planRow();
    const compiled = await api.workbooks.get(api.db, plan, asOf);
    expect(compiled.version).toBe(plan.version);
    await expectFresh(compiled);
  });
});

describe('WorkbookCache', () => {
  it('moves a cached plan only forward: a reader of an older version gets the newer workbook', async () => {
    const cache = new WorkbookCache();
    const before = await planRow();
    const first = await cache.get(api.db, before, asOf);
    expect(first.version).toBe(before.version);
    const { access, writes } = await recordingAccess();
    await editCaseYear(api.db, access, caseId, 2, 'cogs_rate', 0.25);
    for (const w of writes) cache.advance(planId, w.version, w.edits);
    const current = await cache.get(api.db, await planRow(), asOf);
    expect(current.version).toBe(before.version + 1);
    // A read whose access was loaded before the write committed still asks for the old version: it gets the newer.
    const stale = await cache.get(api.db, before, asOf);
    expect(stale).toBe(current);
    expect(cache.stats.builds).toBe(1);
    await expectFresh(stale);
  });

  it('never destroys a workbook that a reader still holds', async () => {
    const { planId: secondPlan } = await createPlan(api, token, { business_plan_name: 'Second plan' });
    const cache = new WorkbookCache(1);
    const plan = await planRow();
    const held = await cache.get(api.db, plan, asOf);
    const pl = held.workbook.annualPl(0);

    // A write the workbook cannot follow by edits: the next newer read reads the plan afresh.
    cache.advance(planId, plan.version + 1, null);
    await api.db('business_plans').where({ id: planId }).increment('version', 1);
    const rebuilt = await cache.get(api.db, await planRow(), asOf);
    expect(rebuilt).not.toBe(held);
    expect(held.workbook.annualPl(0)).toEqual(pl);

    // An edit the engine refuses (a case it does not hold): rebuilt from the database.
    const refused: EditsFor = () => [{ type: 'year', caseIndex: -1, year: 1, key: 'cogs_rate', value: 0.5 }];
    const rebuiltHeld = rebuilt.workbook.annualPl(0);
    cache.advance(planId, rebuilt.version + 1, refused);
    await api.db('business_plans').where({ id: planId }).increment('version', 1);
    const afterRefusal = await cache.get(api.db, await planRow(), asOf);
    expect(cache.stats.fallbacks).toBe(1);
    expect(afterRefusal.version).toBe(rebuilt.version + 1);
    expect(rebuilt.workbook.annualPl(0)).toEqual(rebuiltHeld);

    // Eviction (room for one plan) and drop.
    const other = await cache.get(api.db, await planRow(secondPlan), asOf);
    expect(cache.size).toBe(1);
    expect(afterRefusal.workbook.annualPl(0)).toEqual(rebuiltHeld);
    cache.drop(secondPlan);
    expect(other.workbook.annualPl(0)).toHaveLength(6);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('applies writes reported out of order as edits, losing none', async () => {
    const cache = new WorkbookCache();
    const start = await cache.get(api.db, await planRow(), asOf);
    const { access, writes } = await recordingAccess();
    await editCaseYear(api.db, access, caseId, 1, 'cogs_rate', 0.41);
    await saveCashflow(api.db, access, { business_plan_id: planId, case_id: caseId, year: 1, month: 8, other: 7e6 });
    await editCaseYear(api.db, access, caseId, 2, 'cogs_rate', 0.33);
    expect(writes.map((w) => w.version)).toEqual([start.version + 1, start.version + 2, start.version + 3]);
    const [w1, w2, w3] = writes;
    if (!w1 || !w2 || !w3) throw new Error('three writes');
    cache.advance(planId, w3.version, w3.edits);
    cache.advance(planId, w1.version, w1.edits);
    // Version N+3 and N+1 are known, N+2 is not yet: the workbook follows as far as it can without a gap.
    const partial = await cache.get(api.db, { ...access.plan, version: w1.version }, asOf);
    expect(partial.version).toBe(w1.version);
    cache.advance(planId, w2.version, w2.edits);
    const latest = await cache.get(api.db, await planRow(), asOf);
    expect(latest.version).toBe(w3.version);
    expect(cache.stats).toMatchObject({ builds: 1, applied: 3, fallbacks: 0 });
    expect(latest.workbook).toBe(start.workbook);
    await expectFresh(latest);
  });

  it('catches up at once on a version not reported yet: reads the plan afresh in place, and ignores the late report', async () => {
    const cache = new WorkbookCache();
    const start = await cache.get(api.db, await planRow(), asOf);
    const { access, writes } = await recordingAccess();
    await editCaseYear(api.db, access, caseId, 5, 'cogs_rate', 0.29);
    const [w1] = writes;
    if (!w1) throw new Error('one write');
    // A read that loaded the new version before the write reported it, as a concurrent read may: no waiting.
    const after = await planRow();
    const compiled = await cache.get(api.db, after, asOf);
    expect(compiled.version).toBe(after.version);
    expect(compiled.workbook).toBe(start.workbook);
    cache.advance(planId, w1.version, w1.edits);
    expect(await cache.get(api.db, after, asOf)).toBe(compiled);
    expect(cache.stats).toMatchObject({ builds: 1, applied: 0, synced: 1 });
    await expectFresh(compiled);
  });

  it('follows a version whose write it has not heard of by reading the plan afresh, without a build', async () => {
    const cache = new WorkbookCache();
    const start = await cache.get(api.db, await planRow(), asOf);
    const { access, writes } = await recordingAccess();
    await editCaseYear(api.db, access, caseId, 3, 'cogs_rate', 0.2);
    await editCaseYear(api.db, access, caseId, 3, 'cogs_rate', 0.22);
    await saveCashflow(api.db, access, { business_plan_id: planId, case_id: caseId, year: 2, month: 4, other: 3e6 });
    const [w1, w2, w3] = writes;
    if (!w1 || !w2 || !w3) throw new Error('three writes');
    // As another process's writes: heard of through the version only (w1 never reported, so no edit fills the gap).
    cache.advance(planId, w2.version, w2.edits);
    const latest = await cache.get(api.db, await planRow(), asOf);
    expect(latest.version).toBe(w3.version);
    expect(cache.stats).toMatchObject({ builds: 1, synced: 1, fallbacks: 0 });
    // The same workbook, brought to the database's inputs in place.
    expect(latest.workbook).toBe(start.workbook);
    await expectFresh(latest);
    // The missing reports arrive late: the plan is already past them.
    cache.advance(planId, w1.version, w1.edits);
    cache.advance(planId, w3.version, w3.edits);
    expect(await cache.get(api.db, await planRow(), asOf)).toBe(latest);
    expect(start.version).toBe(w1.version - 1);
  });

  it('builds a new workbook when the plan it reads afresh holds other cases, leaving the old one to its readers', async () => {
    const cache = new WorkbookCache();
    const start = await cache.get(api.db, await planRow(), asOf);
    const pl = start.workbook.annualPl(0);
    const { access } = await recordingAccess();
    const added = await createCase(api.db, access, 'Upside', 1.2);
    const latest = await cache.get(api.db, await planRow(), asOf);
    expect(cache.stats).toMatchObject({ builds: 2, synced: 0 });
    expect(latest.workbook).not.toBe(start.workbook);
    expect(latest.caseIds).toContain(added);
    expect(start.workbook.annualPl(0)).toEqual(pl);
    await expectFresh(latest);
    await deleteCase(api.db, access, added);
    await expectFresh(await cache.get(api.db, await planRow(), asOf));
  });

  it.runIf(Boolean(databaseUrl))(
    'follows a version another process wrote by reading the plan afresh in place',
    async () => {
      const cache = new WorkbookCache();
      // Another API process: a pool of its own on the same schema.
      const other = openDb({ databaseUrl, ...(api.schema ? { schema: api.schema } : {}) });
      try {
        const start = await cache.get(api.db, await planRow(), asOf);
        const { access, writes } = await recordingAccess();
        await editCaseYear(other, access, caseId, 6, 'cogs_rate', 0.26);
        await saveCashflow(other, access, { business_plan_id: planId, case_id: caseId, year: 3, month: 2, other: 4e6 });
        const latest = await cache.get(api.db, await planRow(), asOf);
        expect(latest.version).toBe(writes.at(-1)?.version);
        expect(cache.stats).toMatchObject({ builds: 1, synced: 1 });
        expect(latest.workbook).toBe(start.workbook);
        await expectFresh(latest);
      } finally {
        await other.destroy();
      }
    },
  );

  it('gives a reader at least its version when a build that started before the write is in flight', async () => {
    const cache = new WorkbookCache();
    const before = await planRow();
    const early = cache.get(api.db, before, asOf);
    const { access, writes } = await recordingAccess();
    await editCaseYear(api.db, access, caseId, 4, 'cogs_rate', 0.27);
    const [w1] = writes;
    if (!w1) throw new Error('one write');
    const after = await planRow();
    const late = cache.get(api.db, after, asOf);
    cache.advance(planId, w1.version, w1.edits);
    expect((await early).version).toBeGreaterThanOrEqual(before.version);
    const compiled = await late;
    expect(compiled.version).toBe(after.version);
    await expectFresh(compiled);
    expect(await cache.get(api.db, after, asOf)).toBe(compiled);
  });
});
