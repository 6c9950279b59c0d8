/**
 * The API with Google configured against the local Google stand-in (OAuth, userinfo, Sheets v4, Drive v3), a Team
 * owner and a plan starting April 2026: what the spreadsheet route tests share.
 */
import { expect } from 'vitest';
import { type GoogleStandIn, startGoogleStandIn } from './googleStandIn';
import { type Answer, planForm, startTestApi, type TestApi } from './harness';

export const CLIENT_ID = 'topline-sheets-client.apps.googleusercontent.com';

export interface SheetsApi {
  google: GoogleStandIn;
  api: TestApi;
  owner: { token: string; id: number };
  planId: number;
  get(path: string, token?: string, plan?: number): Promise<Answer>;
  post(path: string, body?: Record<string, unknown>, token?: string): Promise<Answer>;
  /** Opens the consent page of `auth_url` as the browser would; the query string "Allow" goes back with. */
  consent(authUrl: string): Promise<string>;
  /** Connects the stand-in's current account to the plan, as the owner's browser does. */
  connect(token?: string, plan?: number): Promise<Answer>;
  /** The plan's stored link to Google, undefined without one. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read the row column by column and assert every value they use
  linkRow(): Promise<any>;
  close(): Promise<void>;
}

export async function startSheetsApi(): Promise<SheetsApi> {
  const google = await startGoogleStandIn(CLIENT_ID);
  const api = await startTestApi({
    env: {
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: google.clientSecret,
      GOOGLE_CERTS_URL: google.certsUrl,
      GOOGLE_API_BASE: google.base,
      GOOGLE_OAUTH_BASE: google.base,
    },
  });
  const made = await api.user('sheets-owner@example.com', 'team');
  const owner = { token: made.token, id: made.user.id };
  const created = await api.call('POST', '/business-plan/create', {
    token: owner.token,
    form: planForm({ start_year: '2026', start_month: '4' }),
  });
  const planId: number = created.body.data.business_plan_id;
  const get = (path: string, token = owner.token, plan = planId) =>
    api.call('GET', path, { token, query: { business_plan_id: plan } });
  const post = (path: string, body: Record<string, unknown> = {}, token = owner.token) =>
    api.call('POST', path, { token, body: { business_plan_id: planId, ...body } });
  const consent = async (authUrl: string) => {
    const page = await (await fetch(authUrl)).text();
    const allow = page.match(/id="allow" href="([^"]+)"/)?.[1];
    if (!allow) throw new Error(`no Allow link on the consent page: ${page.slice(0, 200)}`);
    const back = new URL(allow.replaceAll('&#38;', '&'));
    expect(back.origin + back.pathname).toBe(new URL('/oauth/google-drive', api.config.PUBLIC_URL).href);
    return back.search;
  };
  const connect = async (token = owner.token, plan = planId) => {
    const url = await get('/spreadsheet/auth_url', token, plan);
    expect(url.status).toBe(200);
    const authParam = await consent(url.body.data.auth_url);
    return api.call('POST', '/spreadsheet/connect', { token, body: { business_plan_id: plan, auth_param: authParam } });
  };
  return {
    google,
    api,
    owner,
    planId,
    get,
    post,
    consent,
    connect,
    linkRow: () => api.db('spreadsheet_links').where({ business_plan_id: planId }).first(),
    close: async () => {
      await api.close();
      await google.close();
    },
  };
}
