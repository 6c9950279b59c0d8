import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { json, Refusal } from './google/http';
import { createOAuth, type Stand, type StandInAccount, type StandInGrant } from './google/oauth';
import { sheetPage } from './google/pages';
import { recalculate } from './google/recalculate';
import { sheetsAndDrive } from './google/sheetsAndDrive';
import { key, parseA1, type StandInCell, type StandInSpreadsheet, typeCell } from './google/spreadsheets';

export type { StandInAccount, StandInGrant } from './google/oauth';
export type { StandInCell, StandInSheet, StandInSpreadsheet } from './google/spreadsheets';

/**
 * A local stand-in for Google, for tests. Sign-in: it serves the public key of a key pair made here in both of
 * Google's forms (PEM at /oauth2/v1/certs, JWK at /oauth2/v3/certs), and signs ID tokens with it as Google Identity
 * Services would hand them to the page; the API reaches it through its GOOGLE_CERTS_URL setting.
 *
 * The Sheets round trip, reached through GOOGLE_OAUTH_BASE and GOOGLE_API_BASE (both `base`):
 * - OAuth 2.0: a consent page (/o/oauth2/v2/auth) whose "Allow" link sends the browser back to the redirect URI with
 *   a code and the state, the token endpoint (/token: authorization_code and refresh_token grants, checking the client
 *   id and secret), and /revoke (of any token: the account's every grant to the app, as Google does); access tokens
 *   expire and a revoked grant refuses its refresh token (`invalid_grant`);
 * - userinfo (/oauth2/v2/userinfo);
 * - Sheets v4: spreadsheets.create, get, batchUpdate (addSheet, deleteSheet, updateSheetProperties, addNamedRange,
 *   deleteNamedRange, updateCells, updateDimensionProperties, applied whole or not at all) and values.batchGet
 *   (FORMULA, or the values: the spreadsheet is recalculated with HyperFormula, named ranges included, as Sheets
 *   recalculates it);
 * - Drive v3: files.get and files.update (the name) of the spreadsheets the grant's account made (drive.file);
 * - a page per spreadsheet (its webViewLink) that shows one sheet's cells, formulas as typed, each cell an input a
 *   person types into and saves as Sheets takes typed input (a number, a formula after '=', else text).
 */
export interface GoogleStandIn {
  /** The PEM certs address, for GOOGLE_CERTS_URL. */
  certsUrl: string;
  /** The root of every other endpoint, for GOOGLE_OAUTH_BASE and GOOGLE_API_BASE. */
  base: string;
  /** The OAuth client secret the token endpoint wants with the client id. */
  clientSecret: string;
  /** How often the keys were fetched. */
  fetches(): number;
  /** An ID token for `email` issued to `clientId`, as Google signs it; `claims` override or add claims. */
  idToken(email: string, claims?: IdTokenClaims, options?: { signedBy?: 'google' | 'impostor' }): Promise<string>;
  /** The account the consent page signs in as (until changed). */
  account: StandInAccount;
  /** How many codes were exchanged, access tokens refreshed, and grants revoked through /revoke. */
  counts(): { exchanges: number; refreshes: number; revocations: number };
  /** The grants given, newest last. */
  grants(): readonly StandInGrant[];
  /** The user takes the app's access away in their Google account: every token of the grants of `email` stops working. */
  revokeAccessOf(email: string): void;
  /** Every access token given so far stops working, as when they expire (their refresh tokens still work). */
  expireAccessTokens(): void;
  spreadsheet(id: string): StandInSpreadsheet | undefined;
  /** A cell by sheet title and A1 address: its formula (with '='), if any, and its value. */
  cell(id: string, sheet: string, a1: string): StandInCell | undefined;
  /** The values of a sheet's cells as Sheets shows them, every formula recalculated, by `row,column` (0-based). */
  values(id: string, sheet: string): Map<string, string | number | boolean | null>;
  /** Types into a cell as a person does in Sheets (USER_ENTERED): '' clears, '=…' is a formula, a number is a number. */
  typeInto(id: string, sheet: string, a1: string, typed: string): void;
  /** The file goes to the bin. */
  trash(id: string): void;
  close(): Promise<void>;
}

export interface IdTokenClaims {
  aud?: string;
  iss?: string;
  sub?: string;
  email_verified?: boolean;
  /** Seconds since the epoch. */
  iat?: number;
  exp?: number;
}

const KID = 'topline-test-key';

export async function startGoogleStandIn(clientId: string): Promise<GoogleStandIn> {
  const google = await generateKeyPair('RS256', { extractable: true });
  // Another key under the same key id: a token it signs names a key Google has, with a signature Google never made.
  const impostor = await generateKeyPair('RS256', { extractable: true });
  const pem = await exportSPKI(google.publicKey);
  const jwk = { ...(await exportJWK(google.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const clientSecret = `secret-${randomBytes(8).toString('hex')}`;
  let fetches = 0;
  const files = new Map<string, StandInSpreadsheet>();
  const stand: Stand = {
    account: { email: 'owner@example.com', name: 'Plan Owner', picture: 'https://example.com/owner.png' },
    base: '',
  };

  const oauth = createOAuth(clientId, clientSecret, stand);
  const { counts, grants } = oauth;

  const server: Server = createServer((request, response) => {
    void route(request, response).catch((error: unknown) => {
      if (error instanceof Refusal) {
        json(response, error.status, {
          error: { code: error.status, message: error.message, status: error.statusText },
        });
      } else {
        json(response, 500, { error: { code: 500, message: String(error), status: 'INTERNAL' } });
      }
    });
  });

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const method = request.method ?? 'GET';

    // Sign-in keys.
    if (path === '/oauth2/v1/certs' || path === '/oauth2/v3/certs') {
      fetches += 1;
      const body = path === '/oauth2/v1/certs' ? { [KID]: pem } : { keys: [jwk] };
      response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=3600' });
      response.end(JSON.stringify(body));
      return;
    }

    // OAuth 2.0.
    if (path === '/o/oauth2/v2/auth' && method === 'GET') return oauth.consentPage(url, response);
    if (path === '/token' && method === 'POST') return oauth.token(request, response);
    if (path === '/revoke' && method === 'POST') return oauth.revoke(url, request, response);
    if (path === '/oauth2/v2/userinfo') return oauth.userinfo(request, response);

    // The spreadsheet page a person works in.
    const page = path.match(/^\/spreadsheets\/d\/([^/]+)\/edit$/);
    if (page?.[1]) return sheetPage(files, decodeURIComponent(page[1]), url, request, response);

    // Sheets v4 and Drive v3.
    if (await sheetsAndDrive(files, oauth, stand, url, request, response)) return;
    throw new Refusal(404, `no such call: ${method} ${path}`);
  }

  // Google keeps idle connections open for minutes; Node's 5-second default would close a kept-alive socket just as
  // the API reuses it after a few seconds' work (a reset the API would take for Google failing).
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  stand.base = base;

  return {
    certsUrl: `${base}/oauth2/v1/certs`,
    base,
    clientSecret,
    fetches: () => fetches,
    async idToken(email, claims = {}, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      const key = options.signedBy === 'impostor' ? impostor.privateKey : google.privateKey;
      return new SignJWT({ email, email_verified: claims.email_verified ?? true, azp: claims.aud ?? clientId })
        .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
        .setIssuer(claims.iss ?? 'https://accounts.google.com')
        .setAudience(claims.aud ?? clientId)
        .setSubject(claims.sub ?? `sub-${email}`)
        .setIssuedAt(claims.iat ?? now)
        .setExpirationTime(claims.exp ?? now + 3600)
        .sign(key);
    },
    get account() {
      return stand.account;
    },
    set account(account: StandInAccount) {
      stand.account = account;
    },
    counts: () => ({ ...counts }),
    grants: () => grants.map(({ email, refreshToken, scope, revoked }) => ({ email, refreshToken, scope, revoked })),
    revokeAccessOf(email) {
      for (const grant of grants) if (grant.email === email) grant.revoked = true;
    },
    expireAccessTokens() {
      for (const grant of grants) for (const access of grant.access.values()) access.expires = 0;
    },
    spreadsheet: (id) => files.get(id),
    values(id, title) {
      const file = files.get(id);
      const sheet = file?.sheets.find((s) => s.title === title);
      if (!file || !sheet) throw new Error(`no sheet ${title} in ${id}`);
      return recalculate(file).get(title) ?? new Map();
    },
    cell(id, sheet, a1) {
      const at = parseA1(a1);
      return files
        .get(id)
        ?.sheets.find((s) => s.title === sheet)
        ?.cells.get(key(at.row, at.column));
    },
    typeInto(id, sheetTitle, a1, typed) {
      const file = files.get(id);
      const sheet = file?.sheets.find((s) => s.title === sheetTitle);
      if (!file || !sheet) throw new Error(`no sheet ${sheetTitle} in ${id}`);
      const at = parseA1(a1);
      typeCell(file, sheet, at.row, at.column, typed);
    },
    trash(id) {
      const file = files.get(id);
      if (file) file.trashed = true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
