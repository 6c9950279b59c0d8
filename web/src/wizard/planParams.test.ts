import { requestSchema } from '@topline/contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS, planForm } from './planParams';

const profile = { name: 'Aiko', company_name: 'Acme', position: 'CEO', employees: '1-10', stage: 'pre-founding' };

describe('the creation form', () => {
  it('sends numbers as text and the growth multiples as JSON, as the API reads a multipart body', () => {
    const form = planForm(profile, { ...DEFAULT_PARAMS, planName: '  Plan A  ', startYear: 2026, startMonth: 4 });
    const fields = Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)]));
    expect(fields).toMatchObject({
      arr: '5000000',
      start_month: '4',
      business_plan_name: 'Plan A',
      model_rate: '[3,3,2,2,2]',
    });
    const parsed = requestSchema('planCreate', new Date('2026-11-22T00:00:00Z')).safeParse(fields);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });
});
