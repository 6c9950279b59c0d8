/**
 * The Google link over HTTP once it is made, against the local Google stand-in: a grant Google no longer honours,
 * another Google account, disconnecting; and the calls without Google configured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SheetsSecrets } from '../services/spreadsheets/sheetsStore';
import type { GoogleStandIn } from '../testing/googleStandIn';
import { planForm, startTestApi, type TestApi } from '../testing/harness';
import { type SheetsApi, startSheetsApi } from '../testing/sheetsApi';

let sheets: SheetsApi;
let google: GoogleStandIn;
let api: TestApi;
let owner: SheetsApi['owner'];
let planId: number;
let get: SheetsApi['get'];
let post: SheetsApi['post'];
let connect: SheetsApi['connect'];
let linkRow: SheetsApi['linkRow'];
/** A second plan of the owner, not connected. */
let sparePlan: number;

beforeAll(async () => {
  sheets = await startSheetsApi();
  ({ google, api, owner, planId, get, post, connect, linkRow } = sheets);
  expect((await connect()).status).toBe(200);
  expect((await post('/spreadsheet/create')).status).toBe(200);
  const spare = await api.call('POST', '/business-plan/create', { token: owner.token, form: planForm() });
  sparePlan = spare.body.data.business_plan_id;
});

afterAll(async () => {
  await sheets?.close();
});

describe('a grant Google no longer honours', () => {
  it('shows reconnect, refuses the calls with 409, and a reconnect keeps the spreadsheet', async () => {
    const sheetId = (await get('/spreadsheet/retrieve')).body.data.spreadsheet.id;
    google.revokeAccessOf('owner@example.com');
    const info = await get('/spreadsheet/retrieve');
    expect(info.status).toBe(200);
    expect(info.body.data.google_account).toMatchObject({ email: 'owner@example.com', reconnect: true });
    expect(info.body.data.spreadsheet?.id).toBe(sheetId);
    expect((await linkRow()).needs_reconnect).toBe(true);
    for (const path of ['/spreadsheet/update', '/spreadsheet/import']) {
      const refused = await post(path);
      expect(refused.status, path).toBe(409);
      expect(refused.body.message).toMatch(/reconnect/);
    }
    expect((await connect()).status).toBe(200);
    const back = await get('/spreadsheet/retrieve');
    expect(back.body.data.google_account.reconnect).toBe(false);
    expect(back.body.data.spreadsheet?.id).toBe(sheetId);
    expect((await post('/spreadsheet/update')).status).toBe(200);
  });
});

describe('another Google account', () => {
  it('replaces the one connected: its grant is revoked and the plan starts without a spreadsheet', async () => {
    // The owner's second plan, not connected so far.
    const otherPlan = sparePlan;
    const mainAccount = google.account;
    try {
      google.account = { email: 'first@example.com', name: 'First', picture: '' };
      expect((await connect(owner.token, otherPlan)).status).toBe(200);
      const made = await api.call('POST', '/spreadsheet/create', {
        token: owner.token,
        body: { business_plan_id: otherPlan },
      });
      expect(made.status).toBe(200);
      const first = google.grants().at(-1);
      google.account = { email: 'second@example.com', name: 'Second', picture: '' };
      const second = await connect(owner.token, otherPlan);
      expect(second.body.data).toEqual({
        email: 'second@example.com',
        name: 'Second',
        picture: null,
        reconnect: false,
      });
      expect(google.grants().find((g) => g.refreshToken === first?.refreshToken)?.revoked).toBe(true);
      const info = await get('/spreadsheet/retrieve', owner.token, otherPlan);
      expect(info.body.data.google_account.email).toBe('second@example.com');
      expect(info.body.data.spreadsheet).toBeNull();
    } finally {
      google.account = mainAccount;
    }
  });
});

describe('disconnecting', () => {
  it('revokes the grant at Google and forgets the account and the spreadsheet', async () => {
    const refreshToken = new SheetsSecrets(api.config.APP_SECRET).open((await linkRow()).refresh_token, planId);
    const grant = google.grants().find((g) => g.refreshToken === refreshToken);
    expect(grant?.revoked).toBe(false);
    const revocations = google.counts().revocations;
    expect((await post('/spreadsheet/disconnect', { spreadsheet_id: 'another-sheet' })).status).toBe(409);
    const sheetId = (await get('/spreadsheet/retrieve')).body.data.spreadsheet.id;
    const done = await post('/spreadsheet/disconnect', { spreadsheet_id: sheetId });
    expect(done.status).toBe(200);
    expect(google.counts().revocations).toBe(revocations + 1);
    expect(google.grants().find((g) => g.refreshToken === grant?.refreshToken)?.revoked).toBe(true);
    expect(await linkRow()).toBeUndefined();
    expect((await get('/spreadsheet/retrieve')).body.data).toEqual({
      configured: true,
      google_account: null,
      spreadsheet: null,
    });
    // The file stays in the owner's Drive.
    expect(google.spreadsheet(sheetId)?.trashed).toBe(false);
    expect((await post('/spreadsheet/create')).status).toBe(409);
  });

  it('refuses bad bodies by field', async () => {
    const bad = await api.call('POST', '/spreadsheet/disconnect', {
      token: owner.token,
      body: { business_plan_id: 'x', extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['business_plan_id', 'extra']);
    const noParam = await post('/spreadsheet/connect', { auth_param: 42 });
    expect(Object.keys(noParam.body.errors)).toEqual(['auth_param']);
  });
});

describe('not configured', () => {
  it('says so in retrieve and answers 503 to every other call', async () => {
    const bare = await startTestApi();
    try {
      const { token } = await bare.user('bare@example.com', 'team');
      const plan = (await bare.call('POST', '/business-plan/create', { token, form: planForm() })).body.data
        .business_plan_id;
      const info = await bare.call('GET', '/spreadsheet/retrieve', { token, query: { business_plan_id: plan } });
      expect(info.status).toBe(200);
      expect(info.body.data).toEqual({ configured: false, google_account: null, spreadsheet: null });
      const url = await bare.call('GET', '/spreadsheet/auth_url', { token, query: { business_plan_id: plan } });
      expect(url.status).toBe(503);
      expect(url.body.message).toMatch(/not configured/);
      for (const path of ['/spreadsheet/create', '/spreadsheet/update', '/spreadsheet/import']) {
        const answer = await bare.call('POST', path, { token, body: { business_plan_id: plan } });
        expect(answer.status, path).toBe(503);
      }
    } finally {
      await bare.close();
    }
  });
});
