import { type RouteName, requestSchema, routes } from '@topline/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costItem, planForm, startTestApi, type TestApi } from '../testing/harness';

/**
 * Hostile input: generated bad bodies sent to every plan write route. Each must be refused with a 400 that names a
 * field, and leave the plan exactly as it was.
 */
let api: TestApi;
let token: string;
let planId: number;
let caseId: number;
let costId: number;
let todoId: number;
let snapshotId: number;

/** A valid body of each plan-scoped JSON write route; the property breaks one field of it at a time. */
const validBodies = (): Partial<Record<RouteName, Record<string, unknown>>> => ({
  themeColor: { business_plan_id: planId, theme_color: 'black' },
  plColor: { business_plan_id: planId, colors: [{ arr: '#112233', pl: '#445566', gross_profit: '#778899' }] },
  caseCreate: { business_plan_id: planId, case_name: 'Prudent', case_rate: 0.5 },
  caseRename: { business_plan_id: planId, case_id: caseId, case_name: 'Base' },
  caseEdit: { business_plan_id: planId, case_id: caseId, year: 1, key: 'sm_rate', value: 0.4 },
  revenueEdit: { business_plan_id: planId, case_id: caseId, year: 1, value: 0.9 },
  modelEdit: { business_plan_id: planId, case_id: caseId, model: { name: 'custom', rates: [3, 3, 2, 2, 2] } },
  memberAdd: { business_plan_id: planId, email: 'viewer@example.com', pl: 'can_view' },
  memberEdit: { business_plan_id: planId, email: 'member@example.com', pl: 'can_view' },
  memberDelete: { business_plan_id: planId, email: 'member@example.com' },
  memberResend: { business_plan_id: planId, email: 'member@example.com' },
  homeEdit: { business_plan_id: planId, kpi_title: 'order', value: 2, date: '2026-05-01' },
  actualsEdit: { business_plan_id: planId, case_id: caseId, year: 1, month: 2, session: 100, arpa: 50_000 },
  monthReverse: { business_plan_id: planId, case_id: caseId, year: 1, month: 1 },
  cashflowEdit: { business_plan_id: planId, case_id: caseId, year: 1, month: 3, equity_raised: 1_000_000 },
  commentEdit: { business_plan_id: planId, case_id: caseId, year: 1, column_name: 4, section: 'actual', content: 'ok' },
  budgetRevise: { business_plan_id: planId, case_id: caseId, year: 1, pattern: 'upward' },
  costCreate: { business_plan_id: planId, case_id: caseId, ...costFields },
  costEdit: { business_plan_id: planId, case_id: caseId, cost_id: costId, version: 1, ...costFields },
  costDelete: { business_plan_id: planId, case_id: caseId, cost_id: costId },
  todoCreate: { business_plan_id: planId, text: 'Call the bank' },
  todoEdit: { business_plan_id: planId, todo_id: todoId, version: 1, done: true },
  todoDelete: { business_plan_id: planId, todo_id: todoId, version: 1 },
  historyRestore: { business_plan_id: planId, at: 1 },
  snapshotCreate: { business_plan_id: planId, name: 'Board plan' },
  snapshotRename: { business_plan_id: planId, snapshot_id: snapshotId, name: 'Board plan v2' },
  snapshotDelete: { business_plan_id: planId, snapshot_id: snapshotId },
  snapshotRestore: { business_plan_id: planId, snapshot_id: snapshotId },
});

const costFields = costItem({ item_name: 'Ads', price: 1000, end_year: 2026, end_month: 9 });

/** Values of the kinds that broke the API before: wrong types, numbers in disguise, unstorable or huge text. */
const badValue = fc.oneof(
  fc.constantFrom(true, false, [5], {}, '0x10', '', ' ', '5', '1e3', 'NaN', 'Infinity', '2025-13-45', null),
  fc.constantFrom(1e308, -1e308, -1, 1e20, 0.5, 13, 0, 2 ** 53),
  fc.string({ maxLength: 8 }).map((s) => `${s}\u0000`),
  fc.constantFrom('x'.repeat(2001), 'a'.repeat(101), '\uD800', '=HYPERLINK("http://x","y")'),
);

/** A body with one field replaced by a bad value, one field dropped, or an unknown field added. */
const badBody = (valid: Record<string, unknown>) =>
  fc.oneof(
    fc.tuple(fc.constantFrom(...Object.keys(valid)), badValue).map(([key, value]) => ({ ...valid, [key]: value })),
    fc.constantFrom(...Object.keys(valid)).map((key) => {
      const { [key]: _dropped, ...rest } = valid;
      return rest;
    }),
    fc.string({ minLength: 1, maxLength: 12 }).map((key) => ({ ...valid, [`x_${key}`]: 1 })),
  );

/**
 * A body that no API may take, whatever the contract says: a number field given a non-number (`true`, `[5]`, `"0x10"`,
 * `"5"`), a text field holding a NUL character, or an unknown field.
 */
const alwaysBad = (valid: Record<string, unknown>) => {
  const numbers = Object.keys(valid).filter((key) => typeof valid[key] === 'number');
  const texts = Object.keys(valid).filter((key) => typeof valid[key] === 'string');
  const notNumber = fc.constantFrom(true, false, [5], {}, '0x10', '5', '', '1e3');
  return fc.oneof(
    fc.tuple(fc.constantFrom(...numbers), notNumber).map(([key, value]) => ({ ...valid, [key]: value })),
    ...(texts.length
      ? [
          fc
            .tuple(fc.constantFrom(...texts), fc.string({ maxLength: 6 }))
            .map(([key, s]) => ({ ...valid, [key]: `${s}\u0000` })),
        ]
      : []),
    fc.string({ minLength: 1, maxLength: 12 }).map((key) => ({ ...valid, [`x_${key}`]: 1 })),
  );
};

/** Everything a plan's write can change, read straight from the database. */
async function snapshot(): Promise<string> {
  const caseIds = (await api.db('cases').where({ plan_id: planId }).pluck('id')) as number[];
  // Rows in a stable order whatever the table's keys.
  const sorted = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();
  const byCase = async (table: string) => sorted(await api.db(table).whereIn('case_id', caseIds));
  const [plan, cases, years, monthly, status, comments, revisions, costs, members, colors, daily, todos] =
    await Promise.all([
      api.db('business_plans').where({ id: planId }).first(),
      api.db('cases').where({ plan_id: planId }).orderBy('id'),
      byCase('case_year_inputs'),
      byCase('monthly_inputs'),
      byCase('monthly_status'),
      byCase('comments'),
      byCase('revisions'),
      byCase('cost_items'),
      api.db('plan_members').where({ plan_id: planId }).then(sorted),
      api.db('plan_colors').where({ plan_id: planId }).then(sorted),
      api.db('daily_entries').where({ plan_id: planId }).then(sorted),
      api.db('plan_todos').where({ plan_id: planId }).then(sorted),
    ]);
  return JSON.stringify({
    plan,
    cases,
    years,
    monthly,
    status,
    comments,
    revisions,
    costs,
    members,
    colors,
    daily,
    todos,
  });
}

beforeAll(async () => {
  api = await startTestApi();
  ({ token } = await api.user('owner@example.com', 'team'));
  planId = (await api.call('POST', '/business-plan/create', { token, form: planForm() })).body.data.business_plan_id;
  caseId = (await api.db('cases').where({ plan_id: planId }).first()).id;
  const call = (path: string, body: Record<string, unknown>) => api.call('POST', path, { token, body });
  costId = (await call('/cost/create', { business_plan_id: planId, case_id: caseId, ...costFields })).body.data.cost_id;
  await call('/authority/add', { business_plan_id: planId, email: 'member@example.com', pl: 'can_edit' });
  await call('/pl/monthly/edit', { business_plan_id: planId, case_id: caseId, year: 1, month: 1, session: 10 });
  todoId = (await call('/todos/create', { business_plan_id: planId, text: 'Call the bank' })).body.data.todo.id;
  snapshotId = (await call('/snapshot/create', { business_plan_id: planId, name: 'Board plan' })).body.data.snapshot.id;
});

afterAll(async () => {
  await api?.close();
});

describe('generated bad bodies to every plan write route', () => {
  it('covers every plan-scoped JSON write route of the contract', () => {
    const planWrites = (Object.keys(routes) as RouteName[]).filter((name) => {
      const route = routes[name];
      return route.method === 'POST' && route.body !== 'multipart' && route.needs.kind !== 'public';
    });
    const covered = Object.keys(validBodies());
    const uncovered = planWrites.filter(
      (name) =>
        !covered.includes(name) &&
        !['signout', 'profileEdit', 'planImport', 'planDelete', 'caseDelete'].includes(name) &&
        // Billing touches no plan (routes/billing.test.ts refuses its bad bodies).
        !name.startsWith('billing') &&
        // The Google Sheets calls write no plan input but the import (routes/spreadsheet.test.ts refuses their bodies).
        !name.startsWith('spreadsheet') &&
        // Accepting an invitation writes membership, not a plan input (routes/accountSecurity.test.ts refuses its keys).
        name !== 'invitationAccept',
    );
    expect(uncovered).toEqual([]);
  });

  const refusedUnchanged = async (path: string, body: Record<string, unknown>) => {
    const before = await snapshot();
    const answer = await api.call('POST', path, { token, body });
    expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400);
    expect(Object.keys(answer.body.errors ?? {}).length, `${path} names a field`).toBeGreaterThan(0);
    expect(await snapshot(), `${path} changed the plan`).toBe(before);
  };

  it('refuses non-numbers as numbers, unstorable text and unknown fields, changing nothing', async () => {
    for (const [name, valid] of Object.entries(validBodies()) as [RouteName, Record<string, unknown>][]) {
      await fc.assert(
        fc.asyncProperty(alwaysBad(valid), (body) => refusedUnchanged(routes[name].path, body)),
        { numRuns: 15, seed: 20261123 },
      );
    }
  }, 240_000);

  it('answers 400 naming a field and changes nothing for every body the contract refuses', async () => {
    const bodies = validBodies();
    for (const [name, valid] of Object.entries(bodies) as [RouteName, Record<string, unknown>][]) {
      const schema = requestSchema(name, new Date());
      const route = routes[name];
      await fc.assert(
        fc.asyncProperty(badBody(valid), async (body) => {
          // Only bodies the contract refuses: a dropped optional field or a value that happens to be valid is no test.
          fc.pre(!schema.safeParse(body).success);
          await refusedUnchanged(route.path, body);
        }),
        { numRuns: 25, seed: 20261123 },
      );
    }
  }, 240_000);
});
