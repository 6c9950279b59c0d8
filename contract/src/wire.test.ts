import { ACTUAL_KEYS, actualInputsSchema, inputSign } from '@topline/engine/schema';
import { describe, expect, it } from 'vitest';
import { caseEditRequest } from './plans';
import { type RouteName, requestSchema, routes, screenQuery } from './routes';
import { actualsEditRequest, homeEditRequest } from './screens';
import { dateField, ID_MAX, idField, idText, textField, textNumber } from './wire';

const edit = { business_plan_id: 1, case_id: 2, year: 1, key: 'arr', value: 5_000_000 };
const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('numbers on the wire', () => {
  it('takes only JSON numbers in a JSON body', () => {
    expect(caseEditRequest.safeParse(edit).success).toBe(true);
    for (const year of [true, [1], '1', '0x1', null]) {
      expect(issues(caseEditRequest.safeParse({ ...edit, year }))).toEqual([
        'year: year must be a whole number from 1 to 6',
      ]);
    }
    expect(caseEditRequest.safeParse({ ...edit, value: '0x10' }).success).toBe(false);
    expect(caseEditRequest.safeParse({ ...edit, value: [5] }).success).toBe(false);
  });

  it('reads plain decimal text in a query string, and nothing else', () => {
    expect(screenQuery.parse({ business_plan_id: '3', year: '2' })).toEqual({ business_plan_id: 3, year: 2 });
    const number = textNumber('period', { int: true, min: 1, max: 12 });
    for (const text of ['0x10', '1e1', '', ' 5', 'abc', '13', '1.5'])
      expect(number.safeParse(text).success).toBe(false);
    expect(issues(screenQuery.safeParse({ business_plan_id: 'abc' }))).toEqual([
      'business_plan_id: business_plan_id must be a whole number from 1 to 2147483647',
    ]);
  });

  it('takes ids from 1 to the largest a database integer holds, and nothing else', () => {
    expect(ID_MAX).toBe(2 ** 31 - 1);
    const json = idField('case_id');
    const text = idText('case_id');
    expect(json.parse(ID_MAX)).toBe(ID_MAX);
    expect(text.parse(String(ID_MAX))).toBe(ID_MAX);
    for (const wrong of [ID_MAX + 1, 1e20, -1, 0, 1.5, Number.NaN, '7'])
      expect(json.safeParse(wrong).success, String(wrong)).toBe(false);
    for (const wrong of ['2147483648', '1e20', '-1', '0', '1.5', 'abc', '99999999999999999999'])
      expect(text.safeParse(wrong).success, wrong).toBe(false);
    expect(issues(json.safeParse(2 ** 31))).toEqual([': case_id must be a whole number from 1 to 2147483647']);
  });

  it('names the real problem', () => {
    expect(issues(caseEditRequest.safeParse({ ...edit, key: 'case_rate', value: 123.5 }))).toEqual([
      'value: case_rate must be a number above 0 and at most 99.99',
    ]);
    expect(issues(actualsEditRequest.safeParse({ business_plan_id: 1, year: 1, month: 2, meeting: -1 }))).toEqual([
      'meeting: meeting must be a whole number from 0 to 1000000000',
    ]);
  });
});

describe('text and dates on the wire', () => {
  it('refuses text a column cannot store', () => {
    const name = textField('case_name', 50);
    expect(name.safeParse('Base\u0000').success).toBe(false);
    expect(name.safeParse('Base\uD800').success).toBe(false);
    expect(name.safeParse('x'.repeat(51)).success).toBe(false);
    expect(name.parse('  Base  ')).toBe('Base');
  });

  it('takes only dates of the calendar', () => {
    const date = dateField('date');
    expect(date.safeParse('2025-12-31').success).toBe(true);
    for (const bad of ['2025-13-45', '2025-02-30', '2025-2-3', '20250101'])
      expect(date.safeParse(bad).success).toBe(false);
  });

  it('refuses an unknown field by its name', () => {
    const result = homeEditRequest.safeParse({ business_plan_id: 1, kpi_title: 'order', value: 1, valeu: 2 });
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['valeu'] });
  });
});

describe('the route table', () => {
  it('reads every GET request from text, as a query string carries it', () => {
    for (const [name, route] of Object.entries(routes)) {
      if (route.method !== 'GET') continue;
      const schema = requestSchema(name as RouteName, new Date());
      if (!('shape' in schema) || !('business_plan_id' in (schema.shape as object))) continue;
      const shape = schema.shape as object;
      const query = {
        business_plan_id: '1',
        ...('case_id' in shape ? { case_id: '2' } : {}),
        // A revise preview names the plan year; a screen read may.
        ...('year' in shape ? { year: '1' } : {}),
        // A figure's explanation names the figure.
        ...('key' in shape ? { year: '1', period: 'q1', key: 'revenue' } : {}),
        // A moment of the plan's history names a change.
        ...('at' in shape ? { at: '7' } : {}),
        ...('from' in shape ? { from: '7', to: '9' } : {}),
        // A snapshot's download names the snapshot.
        ...('snapshot_id' in shape ? { snapshot_id: '3' } : {}),
      };
      expect(schema.safeParse(query).success, `${name} reads its query from text`).toBe(true);
    }
  });
});

describe('bounds of stored numbers', () => {
  it('refuse at the wire what the engine would refuse to store, and a figure of the sign its input does not take', () => {
    const samples = [0, 0.001, 0.01, 1, -1, 1.5, 1e9, 1e9 + 1, 1e12, 1e12 + 1, -1e12, 1e307, 1e308];
    const fields = actualsEditRequest.shape;
    for (const key of ACTUAL_KEYS) {
      const engine = actualInputsSchema.shape[key].unwrap();
      for (const value of samples) {
        const wire = fields[key].safeParse(value).success;
        const signed = inputSign(key)?.takes !== 'positive' || value >= 0;
        expect(wire, `${key} = ${value}`).toBe(engine.safeParse(value).success && signed);
      }
    }
  });
});
