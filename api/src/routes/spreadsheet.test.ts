import { AREAS, asOfMonth } from '@topline/contract';
import { PlanWorkbook } from '@topline/engine';
import { sheetsGrid } from '@topline/engine/export';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SheetsSecrets } from '../services/spreadsheets/sheetsStore';
import type { GoogleStandIn } from '../testing/googleStandIn';
import { planForm, type TestApi } from '../testing/harness';
import { CLIENT_ID, type SheetsApi, startSheetsApi } from '../testing/sheetsApi';

/**
 * The Google Sheets round trip over HTTP, against the local Google stand-in (OAuth, userinfo, Sheets v4, Drive v3):
 * connecting, the spreadsheet written and imported. A grant that lapses, another account and disconnecting are in
 * `spreadsheetGrant.test.ts`.
 */
let sheets: SheetsApi;
let google: GoogleStandIn;
let api: TestApi;
let owner: SheetsApi['owner'];
let planId: number;
let get: SheetsApi['get'];
let post: SheetsApi['post'];
let consent: SheetsApi['consent'];
let connect: SheetsApi['connect'];
let linkRow: SheetsApi['linkRow'];

beforeAll(async () => {
  sheets = await startSheetsApi();
  ({ google, api, owner, planId, get, post, consent, connect, linkRow } = sheets);
});

afterAll(async () => {
  await sheets?.close();
});

describe('connecting a Google account', () => {
  it('is not connected at first, and the consent page asks for drive.file and openid email profile', async () => {
    const info = await get('/spreadsheet/retrieve');
    expect(info.status).toBe(200);
    expect(info.body.data).toEqual({ configured: true, google_account: null, spreadsheet: null });
    const url = new URL((await get('/spreadsheet/auth_url')).body.data.auth_url);
    expect(url.origin).toBe(google.base);
    expect(url.pathname).toBe('/o/oauth2/v2/auth');
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('redirect_uri')).toBe(new URL('/oauth/google-drive', api.config.PUBLIC_URL).href);
    expect(url.searchParams.get('scope')?.split(' ').sort()).toEqual(
      ['email', 'https://www.googleapis.com/auth/drive.file', 'openid', 'profile'].sort(),
    );
    // The state names this user and this plan, signed: it checks out for them and nobody else.
    const state = url.searchParams.get('state') ?? '';
    const secrets = new SheetsSecrets(api.config.APP_SECRET);
    expect(await secrets.stateMatches(state, owner.id, planId)).toBe(true);
    expect(await secrets.stateMatches(state, owner.id + 1, planId)).toBe(false);
    expect(await secrets.stateMatches(state, owner.id, planId + 1)).toBe(false);
    expect(await new SheetsSecrets('another-secret-another-secret-0123456').stateMatches(state, owner.id, planId)).toBe(
      false,
    );
  });

  it('refuses a state made for another plan, a forged one, a denied consent, and changes nothing', async () => {
    const other = await api.call('POST', '/business-plan/create', { token: owner.token, form: planForm() });
    const otherPlan = other.body.data.business_plan_id;
    const forOther = await consent((await get('/spreadsheet/auth_url', owner.token, otherPlan)).body.data.auth_url);
    const crossed = await post('/spreadsheet/connect', { auth_param: forOther });
    expect(crossed.status).toBe(400);
    expect(crossed.body.errors.auth_param).toMatch(/not started by you for this plan/);

    const genuine = new URLSearchParams(await consent((await get('/spreadsheet/auth_url')).body.data.auth_url));
    genuine.set('state', `${genuine.get('state')}x`);
    const forged = await post('/spreadsheet/connect', { auth_param: `?${genuine}` });
    expect(forged.status).toBe(400);
    expect((await post('/spreadsheet/connect', { auth_param: '?error=access_denied&state=x' })).status).toBe(400);
    expect((await post('/spreadsheet/connect', { auth_param: '' })).body.errors).toEqual({
      auth_param: 'auth_param is required',
    });
    // No code was exchanged, nothing kept.
    expect(google.counts().exchanges).toBe(0);
    expect(await linkRow()).toBeUndefined();
  });

  it('connects: the account is shown, its tokens are kept encrypted', async () => {
    const connected = await connect();
    expect(connected.status).toBe(200);
    expect(connected.body.data).toEqual({
      email: 'owner@example.com',
      name: 'Plan Owner',
      picture: 'https://example.com/owner.png',
      reconnect: false,
    });
    expect(google.counts().exchanges).toBe(1);
    const grant = google.grants().at(-1);
    const row = await linkRow();
    expect(row.user_id).toBe(owner.id);
    // Neither token is stored as Google gave it; each opens with the key derived from APP_SECRET, for this plan only.
    expect(row.refresh_token).not.toContain(grant?.refreshToken);
    const secrets = new SheetsSecrets(api.config.APP_SECRET);
    expect(secrets.open(row.refresh_token, planId)).toBe(grant?.refreshToken);
    expect(() => secrets.open(row.refresh_token, planId + 1)).toThrow();
    expect(() => new SheetsSecrets('another-secret-another-secret-0123456').open(row.refresh_token, planId)).toThrow();
    expect(secrets.open(row.access_token, planId)).toMatch(/^ya29\./);

    const info = await get('/spreadsheet/retrieve');
    expect(info.body.data.google_account).toEqual(connected.body.data);
    expect(info.body.data.spreadsheet).toBeNull();
    // A code is good once.
  });

  it('is for the owner only: a member gets 403 on every call', async () => {
    const member = await api.user('sheets-member@example.com', 'team');
    const added = await api.call('POST', '/authority/add', {
      token: owner.token,
      body: { business_plan_id: planId, email: 'sheets-member@example.com', ...fullRoles() },
    });
    expect(added.status).toBe(200);
    await api.db('plan_members').where({ email: 'sheets-member@example.com' }).update({
      status: 'received',
      user_id: member.user.id,
    });
    for (const path of ['/spreadsheet/retrieve', '/spreadsheet/auth_url']) {
      const answer = await get(path, member.token);
      expect(answer.status, path).toBe(403);
      expect(answer.body.message).toBeTruthy();
    }
    for (const path of [
      '/spreadsheet/create',
      '/spreadsheet/update',
      '/spreadsheet/import',
      '/spreadsheet/disconnect',
    ]) {
      expect((await post(path, {}, member.token)).status, path).toBe(403);
    }
    expect((await post('/spreadsheet/connect', { auth_param: '?code=x&state=y' }, member.token)).status).toBe(403);
  });
});

const fullRoles = () => Object.fromEntries(AREAS.map((area) => [area, 'can_edit']));

describe('the spreadsheet', () => {
  let sheetId: string;

  it('is created with the plan sheets, live formulas, number formats, the actual-inputs sheets and the marker', async () => {
    // An actual of the plan's first month (April 2026), which the sheet holds as typed and the Actual sheets read.
    const saved = await post('/pl/monthly/edit', { year: 1, month: 1, session: 3000, order: 12 });
    expect(saved.status).toBe(200);
    const created = await post('/spreadsheet/create');
    expect(created.status).toBe(200);
    sheetId = created.body.data.id;
    expect(created.body.data).toMatchObject({
      name: 'Acme plan',
      url: `${google.base}/spreadsheets/d/${sheetId}/edit`,
    });
    const file = google.spreadsheet(sheetId);
    const titles = file?.sheets.map((s) => s.title) ?? [];
    expect(titles).toContain('C1 Actuals');
    expect(titles.at(-1)).toBe('Topline');
    expect(file?.sheets.at(-1)?.hidden).toBe(true);
    expect(google.cell(sheetId, 'Topline', 'B1')?.value).toBe(String(planId));
    // The actual-inputs sheet: months headed YYYY/MM from C1 (a plan starting April 2026), keys in column B.
    expect(google.cell(sheetId, 'C1 Actuals', 'C1')?.value).toBe('2026/04');
    expect(google.cell(sheetId, 'C1 Actuals', 'E1')?.value).toBe('2026/06');
    expect(google.cell(sheetId, 'C1 Actuals', 'B2')?.value).toBe('session');
    expect(google.cell(sheetId, 'C1 Actuals', 'C2')?.value).toBe(3000);
    expect(google.cell(sheetId, 'C1 Actuals', 'B5')?.value).toBe('order');
    expect(google.cell(sheetId, 'C1 Actuals', 'C5')?.value).toBe(12);
    // Formulas are there as formulas, not values.
    const formulas = file?.sheets.flatMap((s) => [...s.cells.values()].filter((c) => c.formula)) ?? [];
    expect(formulas.length).toBeGreaterThan(1000);
    expect(formulas.some((c) => c.formula?.includes("'C1 Actuals'!"))).toBe(true);
    expect(file?.namedRanges.length).toBeGreaterThan(0);

    // Recalculated from its formulas and names alone, the spreadsheet shows the engine's numbers, cell by cell.
    const plan = (await get('/business-plan/file')).body.data.plan;
    const grid = sheetsGrid(PlanWorkbook.build(plan, { asOf: asOfMonth(new Date()) }), { planId });
    let compared = 0;
    for (const engineSheet of grid.sheets) {
      const shown = google.values(sheetId, engineSheet.title);
      for (const [r, row] of engineSheet.rows.entries()) {
        for (const [c, cell] of row.entries()) {
          if (cell.formula === undefined) continue;
          const value = shown.get(`${r},${c}`);
          const where = `${engineSheet.title}!${r},${c} ${cell.formula}`;
          if (typeof cell.value === 'number') expect(value as number, where).toBeCloseTo(cell.value, 6);
          else expect(value === '' ? null : value, where).toEqual(cell.value === '' ? null : cell.value);
          compared += 1;
        }
      }
    }
    expect(compared).toBe(formulas.length);
    // The recalculation held this process (and the API in it) for seconds: let the server close the connections that
    // went idle meanwhile before the next call, rather than as it reuses one.
    await new Promise((resolve) => setTimeout(resolve, 100));

    const info = await get('/spreadsheet/retrieve');
    expect(info.body.data.spreadsheet).toMatchObject({ id: sheetId, name: 'Acme plan' });
    expect(Date.parse(info.body.data.spreadsheet.modified)).toBeGreaterThan(Date.now() - 60_000);
    // One spreadsheet per plan: a second create is refused.
    expect((await post('/spreadsheet/create')).status).toBe(409);
  });

  it('is written over by an export, keeping its id: a sheet a person added and a typed cell are replaced', async () => {
    const before = google.spreadsheet(sheetId);
    const oldIds = before?.sheets.map((s) => s.sheetId) ?? [];
    google.typeInto(sheetId, 'C1 Actuals', 'C2', '777');
    google.typeInto(sheetId, 'C1 Actuals', 'D2', 'some text');
    await api.call('POST', '/business-plan/edit', {
      token: owner.token,
      form: (() => {
        const form = new FormData();
        form.set('business_plan_id', String(planId));
        form.set('business_plan_name', 'Acme plan v2');
        return form;
      })(),
    });
    const exported = await post('/spreadsheet/update');
    expect(exported.status).toBe(200);
    expect(exported.body.data.id).toBe(sheetId);
    const after = google.spreadsheet(sheetId);
    expect(after?.sheets.map((s) => s.title)).toEqual(before?.sheets.map((s) => s.title));
    expect(after?.sheets.some((s) => oldIds.includes(s.sheetId))).toBe(false);
    expect(google.cell(sheetId, 'C1 Actuals', 'C2')?.value).toBe(3000);
    expect(google.cell(sheetId, 'C1 Actuals', 'D2')).toBeUndefined();
    expect(after?.title).toBe('Acme plan v2');
    expect(after?.namedRanges.length).toBe(before?.namedRanges.length);
  });

  it('refreshes the access token once it has expired, and keeps the new one', async () => {
    const refreshes = google.counts().refreshes;
    const stale = (await linkRow()).access_token;
    await api
      .db('spreadsheet_links')
      .where({ business_plan_id: planId })
      .update({ access_expires_at: new Date(Date.now() - 1000) });
    const info = await get('/spreadsheet/retrieve');
    expect(info.body.data.spreadsheet?.id).toBe(sheetId);
    expect(google.counts().refreshes).toBe(refreshes + 1);
    const row = await linkRow();
    expect(row.access_token).not.toBe(stale);
    expect(row.access_expires_at.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    // Google refusing a token before its time (expired early) also refreshes, once.
    google.expireAccessTokens();
    expect((await get('/spreadsheet/retrieve')).body.data.spreadsheet?.id).toBe(sheetId);
    expect(google.counts().refreshes).toBe(refreshes + 2);
    // A good token is used as it is.
    await get('/spreadsheet/retrieve');
    expect(google.counts().refreshes).toBe(refreshes + 2);
  });
});

describe('importing actuals typed into the spreadsheet', () => {
  let sheetId: string;
  const monthly = async () => {
    const answer = await api.call('GET', '/actuals/retrieve', {
      token: owner.token,
      query: { business_plan_id: planId },
    });
    expect(answer.status).toBe(200);
    return answer.body.data;
  };
  const savedActuals = (month: number) =>
    api
      .db('monthly_inputs')
      .where({ layer: 'actual', month })
      .whereIn('case_id', api.db('cases').select('id').where({ plan_id: planId }));

  beforeAll(async () => {
    sheetId = (await get('/spreadsheet/retrieve')).body.data.spreadsheet.id;
  });

  it('saves a typed actual, clears an emptied one, and answers what changed', async () => {
    const caseId = (await api.db('cases').where({ plan_id: planId }).orderBy('id').first()).id;
    // June 2026 (plan month 3, column E): 4,200 sessions typed as a person types them; April's order emptied.
    google.typeInto(sheetId, 'C1 Actuals', 'E2', '4200');
    google.typeInto(sheetId, 'C1 Actuals', 'C5', '');
    const imported = await post('/spreadsheet/import');
    expect(imported.status).toBe(200);
    expect(imported.body.data.changes).toEqual(
      expect.arrayContaining([
        { case_id: caseId, month: '2026/06', key: 'session', old: null, new: 4200 },
        { case_id: caseId, month: '2026/04', key: 'order', old: 12, new: null },
      ]),
    );
    expect(imported.body.data.changes).toHaveLength(2);
    const june = await savedActuals(3);
    expect(june.map((r: { key: string; value: unknown }) => [r.key, Number(r.value)])).toEqual([['session', 4200]]);
    const april = await savedActuals(1);
    expect(april.map((r: { key: string }) => r.key)).toEqual(['session']);
    const status = await api.db('monthly_status').where({ case_id: caseId, month: 3 }).first();
    expect(status?.status).toBe('ACT');
    expect(await monthly()).toBeTruthy();
    // The same sheet again changes nothing.
    const again = await post('/spreadsheet/import');
    expect(again.body.data.changes).toEqual([]);

    // Exported again, the plan's sheets read June's sessions from the actual-inputs sheet: a number typed there
    // recomputes them in the spreadsheet.
    expect((await post('/spreadsheet/update')).status).toBe(200);
    const readers = (google.spreadsheet(sheetId)?.sheets ?? []).flatMap((sheet) =>
      [...sheet.cells]
        .filter(([, cell]) => cell.formula?.includes("'C1 Actuals'!E2"))
        .map(([at]) => ({ title: sheet.title, at })),
    );
    expect(readers.length).toBeGreaterThan(0);
    for (const { title, at } of readers) expect(google.values(sheetId, title).get(at)).toBe(4200);
    google.typeInto(sheetId, 'C1 Actuals', 'E2', '5100');
    for (const { title, at } of readers) expect(google.values(sheetId, title).get(at)).toBe(5100);
    google.typeInto(sheetId, 'C1 Actuals', 'E2', '4200');
    await new Promise((resolve) => setTimeout(resolve, 100));
  });

  it('refuses a sheet with wrong cells, listing each, and writes nothing', async () => {
    google.typeInto(sheetId, 'C1 Actuals', 'F2', 'lots');
    google.typeInto(sheetId, 'C1 Actuals', 'G5', '-3');
    const before = await savedActuals(4);
    const refused = await post('/spreadsheet/import');
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({
      'C1 Actuals!F2': expect.stringMatching(/not a number/),
      'C1 Actuals!G5': expect.any(String),
    });
    expect(refused.body.message).toMatch(/^C1 Actuals!F2: .*not a number/m);
    expect(refused.body.message).toMatch(/^C1 Actuals!G5: /m);
    expect(await savedActuals(4)).toEqual(before);
    google.typeInto(sheetId, 'C1 Actuals', 'F2', '');
    google.typeInto(sheetId, 'C1 Actuals', 'G5', '');
  });

  it("refuses another plan's spreadsheet by its marker", async () => {
    google.typeInto(sheetId, 'Topline', 'B1', String(planId + 1000));
    const refused = await post('/spreadsheet/import');
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(['Topline!B1']);
    google.typeInto(sheetId, 'Topline', 'B1', String(planId));
  });

  it('forgets a spreadsheet that went to the bin', async () => {
    const other = await api.call('POST', '/business-plan/create', { token: owner.token, form: planForm() });
    const otherPlan = other.body.data.business_plan_id;
    expect((await connect(owner.token, otherPlan)).status).toBe(200);
    const made = await api.call('POST', '/spreadsheet/create', {
      token: owner.token,
      body: { business_plan_id: otherPlan },
    });
    google.trash(made.body.data.id);
    const info = await get('/spreadsheet/retrieve', owner.token, otherPlan);
    expect(info.body.data.spreadsheet).toBeNull();
    expect(info.body.data.google_account.reconnect).toBe(false);
    const exported = await api.call('POST', '/spreadsheet/update', {
      token: owner.token,
      body: { business_plan_id: otherPlan },
    });
    expect(exported.status).toBe(409);
  });
});
