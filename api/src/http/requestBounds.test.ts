import { readFileSync } from 'node:fs';
import {
  CHANGE_ID_MAX,
  ERROR_FIELDS_MAX,
  ID_MAX,
  REQUEST_VALUES_MAX,
  type RouteName,
  requestSchema,
  routes,
} from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestApi, type TestApi } from '../testing/harness';

/**
 * The bounds every request meets before any handler runs (`validate.ts`, the contract's `idField`): ids within their
 * columns, error bodies of a bounded size, bodies of a bounded number of values.
 */
let api: TestApi;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  ({ token } = await api.user('bounds@example.com', 'team'));
});
afterAll(async () => {
  await api.close();
});

/** The fields of a request schema, through its refinements, transforms and preprocessing. */
function fieldsOf(schema: z.ZodType): Record<string, z.ZodType> {
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  if (schema instanceof z.ZodPipe) {
    return { ...fieldsOf(schema.in as z.ZodType), ...fieldsOf(schema.out as z.ZodType) };
  }
  return {};
}

/** The history's change ids are `bigint`s; every other id is an `integer` of PostgreSQL. */
const CHANGE_ID_FIELDS = new Set(['cursor', 'at', 'from', 'to']);
/** Google's id of a spreadsheet is text of Google's, not an id of ours. */
const NOT_OURS = new Set(['spreadsheet_id']);

interface IdField {
  route: RouteName;
  field: string;
  max: number;
}

const idFields: IdField[] = (Object.keys(routes) as RouteName[]).flatMap((route) =>
  Object.keys(fieldsOf(requestSchema(route, new Date()) as z.ZodType)).flatMap((field) => {
    const change = routes[route].path.startsWith('/history') && CHANGE_ID_FIELDS.has(field);
    if (!change && (NOT_OURS.has(field) || !/(^|_)id$/.test(field))) return [];
    return [{ route, field, max: change ? CHANGE_ID_MAX : ID_MAX }];
  }),
);

/** Out of range or not a whole number, as JSON numbers and as the text of a query string or a form. */
const outOfRange = (max: number): (number | string)[] => [max + 1, 1e20, -1, 0, 1.5, 'abc'];
const asText = (value: number | string) => (value === 1e20 ? '1e20' : String(value));

async function send(id: IdField, value: number | string) {
  const route = routes[id.route];
  if (route.method === 'GET') return api.call('GET', route.path, { token, query: { [id.field]: asText(value) } });
  if (route.body === 'multipart') {
    const form = new FormData();
    form.set(id.field, asText(value));
    return api.call('POST', route.path, { token, form });
  }
  return api.call('POST', route.path, { token, body: { [id.field]: value } });
}

describe('ids', () => {
  it('are found in the route table', () => {
    const names = new Set(idFields.map((id) => id.field));
    for (const field of ['business_plan_id', 'case_id', 'cost_id', 'todo_id', 'cursor', 'at', 'from', 'to']) {
      expect(names).toContain(field);
    }
  });

  it('out of range or not whole answer 400 naming the field on every call that takes one, never 500', async () => {
    const wrong: string[] = [];
    for (const id of idFields) {
      for (const value of outOfRange(id.max)) {
        const answer = await send(id, value);
        const message: unknown = answer.body?.errors?.[id.field];
        if (answer.status !== 400 || typeof message !== 'string' || !message.includes(id.field)) {
          wrong.push(`${id.route} ${id.field}=${String(value)}: ${answer.status} ${answer.text.slice(0, 200)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('are taken up to the largest the database holds', () => {
    for (const id of idFields) {
      const field = fieldsOf(requestSchema(id.route, new Date()) as z.ZodType)[id.field];
      const text = routes[id.route].method === 'GET' || routes[id.route].body === 'multipart';
      const largest = text ? String(id.max) : id.max;
      expect(field?.safeParse(largest).success, `${id.route} ${id.field}`).toBe(true);
      expect(field?.safeParse(text ? String(id.max + 1) : id.max + 1).success, `${id.route} ${id.field}`).toBe(false);
    }
  });
});

describe('error bodies', () => {
  it(`name at most ${ERROR_FIELDS_MAX} fields, however many are wrong`, async () => {
    const body: Record<string, number> = {};
    for (let i = 0; i < 50_000; i++) body[`unknown_field_${i}`] = i;
    const answer = await api.call('POST', '/case/create', { token, body });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors)).toHaveLength(ERROR_FIELDS_MAX);
    expect(answer.body.message).toMatch(/fields are not valid/);
    expect(answer.text.length).toBeLessThan(5_000);
  });
});

describe('request size', () => {
  it(`refuses a body of more than ${REQUEST_VALUES_MAX} values before validating it`, async () => {
    const cases = Array.from({ length: REQUEST_VALUES_MAX }, () => ({}));
    const answer = await api.call('POST', '/business-plan/import', { token, body: { plan: { cases } } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual({ body: `a request may hold at most ${REQUEST_VALUES_MAX} fields and items` });
    const nested = await api.call('POST', '/case/create', {
      token,
      body: { business_plan_id: 1, deep: Array.from({ length: 300 }, () => Array.from({ length: 400 }, () => 0)) },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.errors).toHaveProperty('body');
  });

  it('takes the largest plan file: every daily count of six years in three cases', async () => {
    const plan = JSON.parse(readFileSync(new URL('../../../fixtures/plans/three-cases.json', import.meta.url), 'utf8'));
    for (const planCase of plan.cases) {
      planCase.daily = {};
      for (let day = 0; day < 6 * 366; day++) {
        const date = new Date(Date.UTC(2026, 3, 1 + day)).toISOString().slice(0, 10);
        planCase.daily[date] = { meeting: 3, order: 1, registration: 5, billing: 2 };
      }
    }
    const answer = await api.call('POST', '/business-plan/import', { token, body: { plan } });
    expect(answer.status).toBe(201);
  });
});
