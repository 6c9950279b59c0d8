import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, startTestApi, type TestApi } from '../testing/harness';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

describe('the profile a plan creation saves', () => {
  it('keeps the stored position, employees and stage when a creation leaves them out', async () => {
    const { token } = await api.user('profile-keep@example.com', 'team');
    const first = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({ position: 'CFO', employees: '11-30', stage: 'angel/seed' }),
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const form = planForm({ name: 'Hana Sato-Ito', company_name: 'Acme Cloud', business_plan_name: 'Second plan' });
    form.delete('position');
    form.delete('employees');
    form.set('stage', '');
    const second = await api.call('POST', '/business-plan/create', { token, form });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const me = await api.call('GET', '/user/me', { token });
    expect(me.body.data.user).toMatchObject({
      name: 'Hana Sato-Ito',
      company: { company_name: 'Acme Cloud', position: 'CFO', employees: '11-30', stage: 'angel/seed' },
    });
  });

  it('saves the choices a creation gives', async () => {
    const { token } = await api.user('profile-set@example.com', 'basic');
    const created = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({ position: 'その他', employees: '50+', stage: 'listed' }),
    });
    expect(created.status).toBe(201);
    const me = await api.call('GET', '/user/me', { token });
    expect(me.body.data.user.company).toEqual({
      company_name: 'Acme SaaS',
      position: 'その他',
      employees: '50+',
      stage: 'listed',
    });
  });
});
