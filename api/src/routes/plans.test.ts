import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, startTestApi, type TestApi } from '../testing/harness';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const pixels = sharp({ create: { width: 8, height: 8, channels: 3, background: '#6c4ed9' } });
const PNG = new Uint8Array(await pixels.clone().png().toBuffer());
const JPEG = new Uint8Array(await pixels.clone().jpeg().toBuffer());

async function createPlan(token: string, overrides: Record<string, string> = {}) {
  const answer = await api.call('POST', '/business-plan/create', { token, form: planForm(overrides) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data.business_plan_id as number;
}

const versionOf = async (planId: number) =>
  Number((await api.db('business_plans').where({ id: planId }).first()).version);

describe('business plan create', () => {
  it('creates a plan with a base case, saves the profile and lists it in /user/me', async () => {
    const { token } = await api.user('creator@example.com', 'basic');
    const answer = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({}, { bytes: PNG, name: 'icon.png' }),
    });
    expect(answer.status).toBe(201);
    const planId = answer.body.data.business_plan_id;
    const me = await api.call('GET', '/user/me', { token });
    expect(me.body.data.user).toMatchObject({ name: 'Hana Sato', company: { company_name: 'Acme SaaS' } });
    const [plan] = me.body.data.business_plans;
    expect(plan).toMatchObject({
      business_plan_id: planId,
      business_plan_name: 'Acme plan',
      is_owner: true,
      template: 'saas',
      currency: 'JPY',
      start_year: 2026,
      start_month: 4,
      theme_color: 'purple',
      cases: [{ case_name: 'Base case' }],
    });
    expect(plan.business_plan_icon).toMatch(/^\/api\/v1\/business-plan\/icon\?business_plan_id=\d+&v=[0-9a-f]{64}$/);
    const base = await api.db('cases').where({ plan_id: planId }).first();
    expect(base).toMatchObject({ rate: 1, model_name: 't2d3' });
  });

  it('checks icons by their bytes and size', async () => {
    const { token } = await api.user('icons@example.com', 'team');
    const jpeg = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({}, { bytes: JPEG, name: 'x.jpg' }),
    });
    expect(jpeg.status).toBe(201);
    const gif = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({}, { bytes: new TextEncoder().encode('GIF89a....'), name: 'fake.png' }),
    });
    expect(gif.status).toBe(400);
    expect(gif.body.errors.business_plan_icon).toMatch(/JPEG or PNG/);
    const big = new Uint8Array(2_000_001);
    big.set(PNG);
    const tooBig = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({}, { bytes: big, name: 'big.png' }),
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.errors.business_plan_icon).toBeTruthy();
    const owned = await api
      .db('business_plans')
      .join('users', 'users.id', 'owner_id')
      .where({ email: 'icons@example.com' });
    expect(owned).toHaveLength(1);
  });

  it('answers 400 per field for an invalid payload and writes nothing', async () => {
    const { token, user } = await api.user('invalid@example.com', 'team');
    const answer = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({
        business_plan_name: 'x'.repeat(51),
        template: 'other',
        arr: '10',
        period: '13',
        start_month: '0',
      }),
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors).sort()).toEqual(['business_plan_name', 'period', 'start_month', 'template']);
    const usd = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({ currency: 'USD', arr: '5000000', arpa: '50' }),
    });
    expect(usd.status).toBe(400);
    expect(usd.body.errors.arr).toMatch(/between 50000 and 1000000/);
    expect(await api.db('business_plans').where({ owner_id: user.id })).toEqual([]);
    expect((await api.db('users').where({ id: user.id }).first()).company_name).toBe('');
  });

  it('limits owned plans by tier: Free and trial 1, Basic 2, Team 3', async () => {
    for (const [tier, limit, trial] of [
      ['free', 1, null],
      ['team', 1, 7],
      ['basic', 2, null],
      ['team', 3, null],
    ] as const) {
      const { token } = await api.user(`limit-${tier}-${trial ?? 0}@example.com`, tier, trial);
      for (let i = 0; i < limit; i++) await createPlan(token);
      const over = await api.call('POST', '/business-plan/create', { token, form: planForm() });
      expect(over.status).toBe(403);
      expect(over.body).toMatchObject({ title: 'Upgrade required', code: 'tier_lock' });
      const me = await api.call('GET', '/user/me', { token });
      expect(me.body.data.user.plan.can_create_plan).toBe(false);
    }
  });
});

describe('business plan edit, theme, colours and delete', () => {
  it('lets the owner edit name, start and icon, bumping the version', async () => {
    const { token } = await api.user('editor@example.com', 'basic');
    const planId = await createPlan(token);
    const before = await versionOf(planId);
    const form = new FormData();
    form.set('business_plan_id', String(planId));
    form.set('business_plan_name', 'Renamed');
    form.set('start_year', '2027');
    form.set('start_month', '1');
    form.set('business_plan_icon', new Blob([JPEG]), 'i.jpg');
    const answer = await api.call('POST', '/business-plan/edit', { token, form });
    expect(answer.status).toBe(200);
    const row = await api.db('business_plans').where({ id: planId }).first();
    expect(row).toMatchObject({ name: 'Renamed', start_year: 2027, start_month: 1, icon_type: 'image/webp' });
    expect(await versionOf(planId)).toBe(before + 1);

    const theme = await api.call('POST', '/business-plan/theme-color', {
      token,
      body: { business_plan_id: planId, theme_color: 'black' },
    });
    expect(theme.status).toBe(200);
    const badTheme = await api.call('POST', '/business-plan/theme-color', {
      token,
      body: { business_plan_id: planId, theme_color: 'pink' },
    });
    expect(badTheme.status).toBe(400);
    expect(badTheme.body.errors.theme_color).toBeTruthy();

    const colors = await api.call('POST', '/pl/color', {
      token,
      body: { business_plan_id: planId, colors: [{ arr: '#ABC', pl: '112233', gross_profit: '#445566' }] },
    });
    expect(colors.status).toBe(201);
    const stored = await api.db('plan_colors').where({ plan_id: planId }).orderBy('set_index');
    expect(stored[0]).toMatchObject({ arr: '#aabbcc', pl: '#112233', gross_profit: '#445566' });
    expect(stored).toHaveLength(3);
  });

  it('deletes a plan with everything in it', async () => {
    const { token } = await api.user('deleter@example.com', 'basic');
    const planId = await createPlan(token);
    const answer = await api.call('POST', '/business-plan/delete', { token, body: { business_plan_id: planId } });
    expect(answer.status).toBe(200);
    expect(await api.db('business_plans').where({ id: planId })).toEqual([]);
    expect(await api.db('cases').where({ plan_id: planId })).toEqual([]);
    const again = await api.call('POST', '/business-plan/delete', { token, body: { business_plan_id: planId } });
    expect(again.status).toBe(404);
  });
});

describe('cases and growth model', () => {
  it('adds up to three cases, renames, edits per-year values and deletes down to one', async () => {
    const { token } = await api.user('cases@example.com', 'basic');
    const planId = await createPlan(token);
    const ids: number[] = [];
    for (const [name, rate] of [
      ['Ideal', 2],
      ['Prudent', 0.5],
    ] as const) {
      const answer = await api.call('POST', '/case/create', {
        token,
        body: { business_plan_id: planId, case_name: name, case_rate: rate },
      });
      expect(answer.status).toBe(200);
      ids.push(answer.body.data.new_case_id);
    }
    const fourth = await api.call('POST', '/case/create', {
      token,
      body: { business_plan_id: planId, case_name: 'Fourth', case_rate: 1 },
    });
    expect(fourth.status).toBe(400);
    expect(await api.db('cases').where({ plan_id: planId })).toHaveLength(3);

    const [ideal, prudent] = ids as [number, number];
    expect(
      (
        await api.call('POST', '/casename/edit', {
          token,
          body: { business_plan_id: planId, case_id: ideal, case_name: 'Best' },
        })
      ).status,
    ).toBe(200);
    const edit = await api.call('POST', '/case/edit', {
      token,
      body: { business_plan_id: planId, case_id: ideal, year: 2, key: 'churn_rate', value: 0.015 },
    });
    expect(edit.status).toBe(200);
    expect(await api.db('case_year_inputs').where({ case_id: ideal })).toEqual([
      { case_id: ideal, year: 2, key: 'churn_rate', value: 0.015 },
    ]);
    await api.call('POST', '/case/edit', {
      token,
      body: { business_plan_id: planId, case_id: ideal, year: 2, key: 'churn_rate', value: null },
    });
    expect(await api.db('case_year_inputs').where({ case_id: ideal })).toEqual([]);
    const rate = await api.call('POST', '/case/edit', {
      token,
      body: { business_plan_id: planId, case_id: ideal, year: 1, key: 'case_rate', value: 2.5 },
    });
    expect(rate.status).toBe(200);
    expect((await api.db('cases').where({ id: ideal }).first()).rate).toBe(2.5);

    const bad = await api.call('POST', '/case/edit', {
      token,
      body: { business_plan_id: planId, case_id: ideal, year: 7, key: 'nonsense', value: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['key', 'value', 'year']);
    const range = await api.call('POST', '/case/edit', {
      token,
      body: { business_plan_id: planId, case_id: ideal, year: 1, key: 'churn_rate', value: 3 },
    });
    expect(range.status).toBe(400);
    expect(range.body.errors.value).toMatch(/out of range/);

    const model = await api.call('POST', '/model/edit', {
      token,
      body: { business_plan_id: planId, case_id: prudent, model: { name: 'custom', rates: [2, 2, 2, 1.5, 1.5] } },
    });
    expect(model.status).toBe(200);
    const row = await api.db('cases').where({ id: prudent }).first();
    expect(row.model_name).toBe('custom');
    const sansan = await api.call('POST', '/model/edit', {
      token,
      body: { business_plan_id: planId, case_id: prudent, model: { name: 'sansan' } },
    });
    expect(sansan.status).toBe(200);
    const rates = (await api.db('cases').where({ id: prudent }).first()).model_rates;
    expect(typeof rates === 'string' ? JSON.parse(rates) : rates).toEqual([1.6, 1.5, 1.5, 1.4, 1.3]);

    for (const id of ids) {
      expect(
        (await api.call('POST', '/case/delete', { token, body: { business_plan_id: planId, case_id: id } })).status,
      ).toBe(200);
    }
    const [last] = await api.db('cases').where({ plan_id: planId });
    const lastDelete = await api.call('POST', '/case/delete', {
      token,
      body: { business_plan_id: planId, case_id: last.id },
    });
    expect(lastDelete.status).toBe(400);
  });

  it('does not touch a case of another plan through this plan', async () => {
    const a = await api.user('case-a@example.com', 'basic');
    const b = await api.user('case-b@example.com', 'basic');
    await createPlan(a.token);
    const planB = await createPlan(b.token);
    const caseB = (await api.db('cases').where({ plan_id: planB }).first()).id;
    const planA = (await api.db('business_plans').where({ owner_id: a.user.id }).first()).id;
    const answer = await api.call('POST', '/casename/edit', {
      token: a.token,
      body: { business_plan_id: planA, case_id: caseB, case_name: 'Hijack' },
    });
    expect(answer.status).toBe(404);
    expect((await api.db('cases').where({ id: caseB }).first()).name).toBe('Base case');
  });
});

describe('plan file import', () => {
  it('imports a plan file as a new plan, field errors on a bad one, and keeps the owned-plan limit', async () => {
    const { token, user } = await api.user('importer@example.com', 'basic');
    const sourceId = await createPlan(token);
    const file = await api.call('GET', '/business-plan/file', { token, query: { business_plan_id: sourceId } });
    expect(file.status).toBe(200);
    const imported = await api.call('POST', '/business-plan/import', { token, body: { plan: file.body.data.plan } });
    expect(imported.status).toBe(201);
    const copy = await api.call('GET', '/pl/retrieve', {
      token,
      query: { business_plan_id: imported.body.data.business_plan_id },
    });
    const original = await api.call('GET', '/pl/retrieve', { token, query: { business_plan_id: sourceId } });
    expect(copy.body.data.values[0].pl).toEqual(original.body.data.values[0].pl);

    await api.db('business_plans').where({ id: imported.body.data.business_plan_id }).delete();
    const bad = await api.call('POST', '/business-plan/import', {
      token,
      body: { plan: { ...file.body.data.plan, currency: 'EUR', cases: [] } },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['cases', 'currency']);
    expect(await api.db('business_plans').where({ owner_id: user.id })).toHaveLength(1);

    await api.call('POST', '/business-plan/import', { token, body: { plan: file.body.data.plan } });
    const over = await api.call('POST', '/business-plan/import', { token, body: { plan: file.body.data.plan } });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('tier_lock');
  });
});
