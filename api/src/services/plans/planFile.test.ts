import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PlanWorkbook, parsePlanFile } from '@topline/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../testing/harness';
import type { PlanRow } from '../access/access';
import { importPlanFile, loadPlanFile } from './planFile';

const PLANS_DIR = resolve(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'plans');
const fixtures = readdirSync(PLANS_DIR).filter((f) => f.endsWith('.json'));
let api: TestApi;
let ownerId: number;

beforeAll(async () => {
  api = await startTestApi();
  ownerId = (await api.user('files@example.com', 'team')).user.id;
});
afterAll(async () => {
  await api.close();
});

const comparable = (file: ReturnType<typeof parsePlanFile>) => ({
  ...file,
  cases: file.cases.map((c) => ({
    ...c,
    colors: undefined,
    cost_items: c.cost_items.map(({ cost_id: _id, ...item }) => item),
    // A month of actuals without a status is ACT (MODEL.md section 5); the database always stores it.
    actuals: Object.fromEntries(Object.entries(c.actuals).map(([t, v]) => [t, { ...v, status: v.status ?? 'ACT' }])),
  })),
});

describe('plan file <-> database rows', () => {
  it.each(fixtures)('stores %s and reads the same plan back, with the same numbers', async (name) => {
    const original = parsePlanFile(JSON.parse(readFileSync(resolve(PLANS_DIR, name), 'utf8')));
    // One owner per file: an owner holds at most as many plans as the tier allows.
    const owner = (await api.user(`files-${name}@example.com`, 'team')).user.id;
    const planId = await importPlanFile(api.db, owner, original, new Date());
    const plan = await api.db<PlanRow>('business_plans').where({ id: planId }).first();
    if (!plan) throw new Error('no plan');
    const loaded = await loadPlanFile(api.db, plan);
    const roundTrip = parsePlanFile(loaded.file);
    expect(comparable(roundTrip)).toEqual(comparable(original));
    const asOf = { year: 2026, month: 10 };
    const direct = PlanWorkbook.build(original, { asOf });
    const stored = PlanWorkbook.build(loaded.file, { asOf });
    for (let c = 0; c < original.cases.length; c++) {
      expect(stored.annualPl(c)).toEqual(direct.annualPl(c));
      expect(stored.monthlyPl(c)).toEqual(direct.monthlyPl(c));
    }
    direct.destroy();
    stored.destroy();
  });

  it('refuses an invalid plan file field by field and stores nothing', async () => {
    const before = await api.db('business_plans').count<{ count: number | string }[]>('id as count');
    await expect(
      importPlanFile(
        api.db,
        ownerId,
        { business_plan_name: '', template: 'x', currency: 'JPY', cases: [] },
        new Date(),
      ),
    ).rejects.toMatchObject({ status: 400 });
    const after = await api.db('business_plans').count<{ count: number | string }[]>('id as count');
    expect(Number(after[0]?.count)).toBe(Number(before[0]?.count));
  });
});
