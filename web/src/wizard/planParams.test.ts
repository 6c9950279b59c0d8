import { ARPA_RANGE, ARR_RANGE, requestSchema } from '@topline/contract';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../lib/wizardRules';
import { amountRange, DEFAULT_PARAMS, defaultParams, planForm, readAmount, startingProfile } from './planParams';

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

describe('the wizard defaults', () => {
  it('starts in dollars in English and in yen in Japanese, from the current year', () => {
    const today = new Date(2026, 10, 23);
    expect(defaultParams('en', today)).toMatchObject({ currency: 'USD', arr: 50_000, arpa: 150, startYear: 2026 });
    expect(defaultParams('ja', today)).toMatchObject({
      currency: 'JPY',
      arr: 5_000_000,
      arpa: 15_000,
      startYear: 2026,
      startMonth: 1,
      period: 12,
    });
    expect(defaultParams('en', new Date(2031, 0, 1)).startYear).toBe(2031);
  });

  it('sends the shown choice for a profile choice stored empty or unknown, and keeps the known ones', () => {
    const shown = startingProfile(
      { name: 'Aiko', company_name: 'Acme', position: '', employees: '', stage: '' },
      {
        name: '',
        company_name: '',
        position: 'CEO',
        employees: '1-10',
        stage: 'pre-founding',
      },
    );
    expect(shown).toEqual({
      name: 'Aiko',
      company_name: 'Acme',
      position: 'CEO',
      employees: '1-10',
      stage: 'pre-founding',
    });
    const fields = Object.fromEntries(
      [...planForm(shown, { ...DEFAULT_PARAMS, planName: 'P' }).entries()].map(([k, v]) => [k, String(v)]),
    );
    expect([fields.position, fields.employees, fields.stage]).toEqual(['CEO', '1-10', 'pre-founding']);
    const demo = startingProfile(
      { name: 'Demo', company_name: 'Demo SaaS', position: '顧問', employees: '11-30', stage: 'angel/seed' },
      shown,
    );
    expect(demo).toMatchObject({ position: '顧問', employees: '11-30', stage: 'angel/seed' });
    expect(startingProfile({ stage: 'angel-seed' }, shown).stage).toBe('angel/seed');
  });

  it('offers the demo account stage among the stage choices', () => {
    expect(STAGES.map((s) => s.value)).toContain('angel/seed');
  });
});

describe('amounts typed beside the sliders', () => {
  const arrYen = ARR_RANGE.JPY;
  const arpaDollars = ARPA_RANGE.USD;
  it('reads digits, thousands separators and full-width digits as the number they mean', () => {
    expect(readAmount('7500000', arrYen)).toEqual({ value: 7_500_000 });
    expect(readAmount('7,500,000', arrYen)).toEqual({ value: 7_500_000 });
    expect(readAmount('７，５００，０００', arrYen)).toEqual({ value: 7_500_000 });
    expect(readAmount('¥100,000,000', arrYen)).toEqual({ value: 100_000_000 });
    expect(readAmount('5', arpaDollars)).toEqual({ value: 5 });
    expect(readAmount('5,000', arpaDollars)).toEqual({ value: 5_000 });
  });

  it('refuses what is not a whole number', () => {
    for (const raw of ['', 'ten', '12abc', '1,5', '-500', '1e7', '7500000.5', '75,00,000'])
      expect(readAmount(raw, arrYen), raw).toEqual({ problem: 'number' });
  });

  it('refuses what is off the slider: below, above or between its steps', () => {
    // JPY ARR: 5,000,000 to 100,000,000 in steps of 500,000; USD ARPA: 5 to 5,000 in steps of 5.
    expect(readAmount('4500000', arrYen)).toEqual({ problem: 'range' });
    expect(readAmount('100500000', arrYen)).toEqual({ problem: 'range' });
    expect(readAmount('7250000', arrYen)).toEqual({ problem: 'range' });
    expect(readAmount('0', arpaDollars)).toEqual({ problem: 'range' });
    expect(readAmount('5005', arpaDollars)).toEqual({ problem: 'range' });
    expect(readAmount('152', arpaDollars)).toEqual({ problem: 'range' });
    expect(amountRange('arpa', 'JPY')).toEqual({ min: 500, max: 500_000, step: 500 });
  });
});
