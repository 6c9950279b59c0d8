import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HYPERFORMULA_CONFIG } from '@topline/engine';
import { HyperFormula, type RawCellContent } from 'hyperformula';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';

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

export interface StandInAccount {
  email: string;
  name: string;
  picture: string;
}

export interface StandInGrant {
  email: string;
  refreshToken: string;
  scope: string;
  revoked: boolean;
}

export interface StandInCell {
  formula?: string;
  value: string | number | boolean | null;
  numberFormat?: { type: string; pattern: string };
}

export interface StandInSheet {
  sheetId: number;
  title: string;
  index: number;
  hidden: boolean;
  frozenRowCount: number;
  frozenColumnCount: number;
  rowCount: number;
  columnCount: number;
  /** By `row,column`, 0-based. */
  cells: Map<string, StandInCell>;
  columnWidths: Map<number, number>;
}

export interface StandInSpreadsheet {
  id: string;
  title: string;
  owner: string;
  modified: Date;
  trashed: boolean;
  sheets: StandInSheet[];
  namedRanges: { namedRangeId: string; name: string; range: GridRange }[];
}

interface GridRange {
  sheetId: number;
  startRowIndex: number;
  endRowIndex: number;
  startColumnIndex: number;
  endColumnIndex: number;
}

const KID = 'topline-test-key';
/** Seconds an access token lives, as Google's do. */
const ACCESS_TTL = 3599;
const DRIVE_FILE = 'https://www.googleapis.com/auth/drive.file';

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly statusText = status === 404 ? 'NOT_FOUND' : status === 401 ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT',
  ) {
    super(message);
  }
}

interface Grant extends StandInGrant {
  access: Map<string, { expires: number }>;
}

export async function startGoogleStandIn(clientId: string): Promise<GoogleStandIn> {
  const google = await generateKeyPair('RS256', { extractable: true });
  // Another key under the same key id: a token it signs names a key Google has, with a signature Google never made.
  const impostor = await generateKeyPair('RS256', { extractable: true });
  const pem = await exportSPKI(google.publicKey);
  const jwk = { ...(await exportJWK(google.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const clientSecret = `secret-${randomBytes(8).toString('hex')}`;
  let fetches = 0;
  const counts = { exchanges: 0, refreshes: 0, revocations: 0 };
  const grants: Grant[] = [];
  const codes = new Map<string, { email: string; redirectUri: string; scope: string; used: boolean }>();
  const files = new Map<string, StandInSpreadsheet>();
  const stand: { account: StandInAccount; base: string } = {
    account: { email: 'owner@example.com', name: 'Plan Owner', picture: 'https://example.com/owner.png' },
    base: '',
  };

  const issueAccess = (grant: Grant) => {
    const token = `ya29.${randomBytes(18).toString('base64url')}`;
    grant.access.set(token, { expires: Date.now() + ACCESS_TTL * 1000 });
    return token;
  };
  const grantOfAccess = (request: IncomingMessage): Grant => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    for (const grant of grants) {
      const access = grant.access.get(token);
      if (access && !grant.revoked && access.expires > Date.now()) return grant;
    }
    throw new Refusal(401, 'Request had invalid authentication credentials.');
  };
  const fileOf = (grant: Grant, id: string): StandInSpreadsheet => {
    const file = files.get(id);
    // drive.file: only the files this app made for this account are there at all.
    if (!file || file.owner !== grant.email) throw new Refusal(404, `Requested entity was not found: ${id}`);
    return file;
  };

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
    if (path === '/o/oauth2/v2/auth' && method === 'GET') return consentPage(url, response);
    if (path === '/token' && method === 'POST') return token(request, response);
    if (path === '/revoke' && method === 'POST') {
      const form = new URLSearchParams(await text(request));
      const given = url.searchParams.get('token') ?? form.get('token') ?? '';
      const grant = grants.find((g) => g.refreshToken === given || g.access.has(given));
      if (!grant || grant.revoked) return json(response, 400, { error: 'invalid_token' });
      // As Google does, the user's whole grant to the app goes: every token of that account.
      for (const g of grants) if (g.email === grant.email) g.revoked = true;
      counts.revocations += 1;
      return json(response, 200, {});
    }
    if (path === '/oauth2/v2/userinfo') {
      const grant = grantOfAccess(request);
      const account = accountOf(grant.email);
      return json(response, 200, {
        id: `sub-${account.email}`,
        email: account.email,
        verified_email: true,
        name: account.name,
        picture: account.picture,
      });
    }

    // The spreadsheet page a person works in.
    const page = path.match(/^\/spreadsheets\/d\/([^/]+)\/edit$/);
    if (page?.[1]) return sheetPage(decodeURIComponent(page[1]), url, request, response);

    // Sheets v4.
    if (path === '/v4/spreadsheets' && method === 'POST') {
      const grant = grantOfAccess(request);
      const body = (await jsonBody(request)) as {
        properties?: { title?: string };
        sheets?: { properties?: { title?: string } }[];
      };
      const id = `sheet${randomBytes(10).toString('hex')}`;
      const file: StandInSpreadsheet = {
        id,
        title: body.properties?.title ?? 'Untitled spreadsheet',
        owner: grant.email,
        modified: new Date(),
        trashed: false,
        sheets: [],
        namedRanges: [],
      };
      const titles = body.sheets?.map((s) => s.properties?.title ?? '') ?? ['Sheet1'];
      titles.forEach((title, index) => {
        if (file.sheets.some((s) => s.title === title)) throw new Refusal(400, `duplicate sheet name ${title}`);
        file.sheets.push(newSheet(index === 0 ? 0 : nextSheetId(file), title || `Sheet${index + 1}`, index));
      });
      files.set(id, file);
      return json(response, 200, spreadsheetBody(file));
    }
    const sheetCall = path.match(/^\/v4\/spreadsheets\/([^/:]+)(:batchUpdate|\/values:batchGet)?$/);
    if (sheetCall?.[1]) {
      const grant = grantOfAccess(request);
      const file = fileOf(grant, decodeURIComponent(sheetCall[1]));
      if (!sheetCall[2] && method === 'GET') return json(response, 200, spreadsheetBody(file));
      if (sheetCall[2] === ':batchUpdate' && method === 'POST') {
        const body = (await jsonBody(request)) as { requests?: Record<string, unknown>[] };
        const replies = batchUpdate(file, body.requests ?? []);
        return json(response, 200, { spreadsheetId: file.id, replies });
      }
      if (sheetCall[2] === '/values:batchGet' && method === 'GET') {
        const render = url.searchParams.get('valueRenderOption') ?? 'FORMATTED_VALUE';
        const computed = render === 'FORMULA' ? undefined : recalculate(file);
        const valueRanges = url.searchParams.getAll('ranges').map((range) => {
          const sheet = sheetOfRange(file, range);
          return { range, majorDimension: 'ROWS', values: rowsOf(sheet, render, computed?.get(sheet.title)) };
        });
        return json(response, 200, { spreadsheetId: file.id, valueRanges });
      }
    }

    // Drive v3.
    const driveCall = path.match(/^\/drive\/v3\/files\/([^/]+)$/);
    if (driveCall?.[1]) {
      const grant = grantOfAccess(request);
      const file = fileOf(grant, decodeURIComponent(driveCall[1]));
      if (method === 'PATCH') {
        const body = (await jsonBody(request)) as { name?: string };
        if (body.name) file.title = body.name;
        file.modified = new Date();
      } else if (method !== 'GET') throw new Refusal(405, 'method not allowed');
      return json(response, 200, {
        id: file.id,
        name: file.title,
        mimeType: 'application/vnd.google-apps.spreadsheet',
        webViewLink: `${stand.base}/spreadsheets/d/${file.id}/edit`,
        modifiedTime: file.modified.toISOString(),
        trashed: file.trashed,
      });
    }
    throw new Refusal(404, `no such call: ${method} ${path}`);
  }

  function consentPage(url: URL, response: ServerResponse): void {
    const params = url.searchParams;
    const redirectUri = params.get('redirect_uri') ?? '';
    const scope = params.get('scope') ?? '';
    const problems = [
      params.get('client_id') === clientId ? null : 'unknown client_id',
      params.get('response_type') === 'code' ? null : 'response_type must be code',
      /^https?:\/\//.test(redirectUri) ? null : 'redirect_uri is missing',
      scope.split(' ').includes(DRIVE_FILE) ? null : 'drive.file is not asked for',
    ].filter(Boolean);
    if (problems.length > 0) {
      response.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Error</title><p id="error">${escapeHtml(problems.join('; '))}</p>`);
      return;
    }
    const code = `4/${randomBytes(16).toString('base64url')}`;
    codes.set(code, { email: stand.account.email, redirectUri, scope, used: false });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('scope', scope);
    const state = params.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const deny = new URL(redirectUri);
    deny.searchParams.set('error', 'access_denied');
    if (state !== null) deny.searchParams.set('state', state);
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><title>Sign in - Google Accounts</title></head><body>
<h1>Topline wants to access your Google Account</h1>
<p id="account">${escapeHtml(stand.account.email)}</p>
<ul id="scopes">${scope
      .split(' ')
      .map((s) => `<li>${escapeHtml(s)}</li>`)
      .join('')}</ul>
<a id="deny" href="${escapeHtml(deny.href)}">Cancel</a>
<a id="allow" href="${escapeHtml(back.href)}">Allow</a>
</body></html>`);
  }

  async function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await text(request));
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = request.headers.authorization ?? '';
    if (basic.startsWith('Basic ')) {
      const [user, pass] = Buffer.from(basic.slice(6), 'base64').toString('utf8').split(':');
      id = user ?? null;
      secret = pass ?? null;
    }
    if (id !== clientId || secret !== clientSecret) return json(response, 401, { error: 'invalid_client' });
    const kind = form.get('grant_type');
    if (kind === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      if (!code || code.used || code.redirectUri !== form.get('redirect_uri')) {
        return json(response, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
      }
      code.used = true;
      counts.exchanges += 1;
      const grant: Grant = {
        email: code.email,
        refreshToken: `1//${randomBytes(24).toString('base64url')}`,
        scope: code.scope,
        revoked: false,
        access: new Map(),
      };
      grants.push(grant);
      return json(response, 200, {
        access_token: issueAccess(grant),
        refresh_token: grant.refreshToken,
        expires_in: ACCESS_TTL,
        scope: code.scope,
        token_type: 'Bearer',
      });
    }
    if (kind === 'refresh_token') {
      const grant = grants.find((g) => g.refreshToken === form.get('refresh_token'));
      if (!grant || grant.revoked) {
        return json(response, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      }
      counts.refreshes += 1;
      return json(response, 200, {
        access_token: issueAccess(grant),
        expires_in: ACCESS_TTL,
        scope: grant.scope,
        token_type: 'Bearer',
      });
    }
    return json(response, 400, { error: 'unsupported_grant_type' });
  }

  async function sheetPage(id: string, url: URL, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const file = files.get(id);
    if (!file || file.trashed) {
      response.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>Not found</title><p>Sorry, the file you have requested does not exist.</p>');
      return;
    }
    const sheet = file.sheets.find((s) => s.title === url.searchParams.get('sheet')) ?? file.sheets[0];
    if (!sheet) throw new Refusal(404, 'no sheet');
    if (request.method === 'POST') {
      const form = new URLSearchParams(await text(request));
      for (const [a1, typed] of form) {
        const at = parseA1(a1);
        const before = sheet.cells.get(key(at.row, at.column));
        const shown =
          before?.formula ?? (before?.value === null || before?.value === undefined ? '' : String(before.value));
        if (typed !== shown) typeCell(file, sheet, at.row, at.column, typed);
      }
      response.writeHead(303, { Location: `${url.pathname}?sheet=${encodeURIComponent(sheet.title)}` });
      response.end();
      return;
    }
    const rows = Math.max(0, ...[...sheet.cells.keys()].map((k) => Number(k.split(',')[0]) + 1));
    const columns = Math.max(0, ...[...sheet.cells.keys()].map((k) => Number(k.split(',')[1]) + 1));
    const body: string[] = [];
    for (let r = 0; r < rows; r += 1) {
      const cells: string[] = [`<th>${r + 1}</th>`];
      for (let c = 0; c < columns; c += 1) {
        const cell = sheet.cells.get(key(r, c));
        const shown = cell?.formula ?? (cell?.value === null || cell?.value === undefined ? '' : String(cell.value));
        const a1 = `${columnName(c)}${r + 1}`;
        cells.push(`<td><input name="${a1}" data-cell="${a1}" value="${escapeHtml(shown)}"></td>`);
      }
      body.push(`<tr>${cells.join('')}</tr>`);
    }
    const tabs = file.sheets
      .map(
        (s) =>
          `<a class="tab" data-sheet="${escapeHtml(s.title)}" href="?sheet=${encodeURIComponent(s.title)}">${escapeHtml(s.title)}</a>`,
      )
      .join(' ');
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><title>${escapeHtml(file.title)} - Google Sheets</title></head><body>
<h1 id="title">${escapeHtml(file.title)}</h1><nav>${tabs}</nav>
<form method="post" action="?sheet=${encodeURIComponent(sheet.title)}"><h2 id="sheet">${escapeHtml(sheet.title)}</h2>
<table>${body.join('\n')}</table><button id="save" type="submit">Save</button></form></body></html>`);
  }

  function typeCell(file: StandInSpreadsheet, sheet: StandInSheet, row: number, column: number, typed: string): void {
    const at = key(row, column);
    const format = sheet.cells.get(at)?.numberFormat;
    const trimmed = typed.trim();
    let cell: StandInCell | undefined;
    if (trimmed === '') cell = undefined;
    else if (trimmed.startsWith('=')) cell = { formula: trimmed, value: null };
    else if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed.replaceAll(',', ''))) {
      cell = { value: Number(trimmed.replaceAll(',', '')) };
    } else cell = { value: typed };
    if (cell && format) cell.numberFormat = format;
    if (cell) sheet.cells.set(at, cell);
    else if (format) sheet.cells.set(at, { value: null, numberFormat: format });
    else sheet.cells.delete(at);
    file.modified = new Date();
  }

  function batchUpdate(file: StandInSpreadsheet, requests: Record<string, unknown>[]): unknown[] {
    // Applied to a copy, kept only when every request succeeds, as Google applies a batch.
    const draft = copyOf(file);
    const replies = requests.map((request) => apply(draft, request));
    Object.assign(file, draft, { modified: new Date() });
    return replies;
  }

  function apply(file: StandInSpreadsheet, request: Record<string, unknown>): unknown {
    const [kind, body] = Object.entries(request)[0] ?? [];
    // biome-ignore lint/suspicious/noExplicitAny: a request is checked field by field below
    const b = body as any;
    const sheetById = (sheetId: unknown) => {
      const sheet = file.sheets.find((s) => s.sheetId === sheetId);
      if (!sheet) throw new Refusal(400, `No grid with id: ${String(sheetId)}`);
      return sheet;
    };
    switch (kind) {
      case 'addSheet': {
        const title = String(b?.properties?.title ?? `Sheet${file.sheets.length + 1}`);
        if (file.sheets.some((s) => s.title === title)) {
          throw new Refusal(400, `A sheet with the name "${title}" already exists. Please enter another name.`);
        }
        const sheet = newSheet(nextSheetId(file), title, file.sheets.length);
        file.sheets.push(sheet);
        return { addSheet: { properties: sheetProperties(sheet) } };
      }
      case 'deleteSheet': {
        const sheet = sheetById(b?.sheetId);
        if (file.sheets.length === 1) throw new Refusal(400, "You can't remove all the sheets in a document.");
        file.sheets = file.sheets.filter((s) => s !== sheet);
        file.namedRanges = file.namedRanges.filter((n) => n.range.sheetId !== sheet.sheetId);
        return {};
      }
      case 'updateSheetProperties': {
        const properties = b?.properties ?? {};
        const sheet = sheetById(properties.sheetId);
        const fields = String(b?.fields ?? '');
        if (fields.includes('title') && properties.title !== undefined) {
          if (file.sheets.some((s) => s !== sheet && s.title === properties.title)) {
            throw new Refusal(400, `A sheet with the name "${properties.title}" already exists.`);
          }
          sheet.title = String(properties.title);
        }
        if (fields.includes('hidden')) sheet.hidden = Boolean(properties.hidden);
        const grid = properties.gridProperties ?? {};
        for (const name of ['rowCount', 'columnCount', 'frozenRowCount', 'frozenColumnCount'] as const) {
          if (fields.includes(name) && typeof grid[name] === 'number') sheet[name] = grid[name];
        }
        return {};
      }
      case 'addNamedRange': {
        const named = b?.namedRange ?? {};
        if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(String(named.name ?? ''))) {
          throw new Refusal(400, `Invalid namedRange.name: ${String(named.name)}`);
        }
        if (file.namedRanges.some((n) => n.name.toLowerCase() === String(named.name).toLowerCase())) {
          throw new Refusal(400, `Invalid requests[0].addNamedRange: Named range "${named.name}" already exists.`);
        }
        sheetById(named.range?.sheetId);
        const namedRangeId = randomBytes(6).toString('hex');
        file.namedRanges.push({ namedRangeId, name: String(named.name), range: named.range as GridRange });
        return { addNamedRange: { namedRange: { ...named, namedRangeId } } };
      }
      case 'deleteNamedRange': {
        const before = file.namedRanges.length;
        file.namedRanges = file.namedRanges.filter((n) => n.namedRangeId !== b?.namedRangeId);
        if (file.namedRanges.length === before) throw new Refusal(400, `No named range with id ${b?.namedRangeId}`);
        return {};
      }
      case 'updateCells': {
        const sheet = sheetById(b?.start?.sheetId);
        const fields = String(b?.fields ?? '');
        const top = Number(b?.start?.rowIndex ?? 0);
        const left = Number(b?.start?.columnIndex ?? 0);
        (b?.rows ?? []).forEach((row: { values?: Record<string, unknown>[] }, r: number) => {
          (row.values ?? []).forEach((data, c) => {
            const at = key(top + r, left + c);
            const cell: StandInCell = { ...(sheet.cells.get(at) ?? { value: null }) };
            if (fields.includes('userEnteredValue')) {
              const entered = data.userEnteredValue as Record<string, unknown> | undefined;
              delete cell.formula;
              cell.value = null;
              if (entered && 'formulaValue' in entered) cell.formula = String(entered.formulaValue);
              else if (entered && 'numberValue' in entered) cell.value = Number(entered.numberValue);
              else if (entered && 'stringValue' in entered) cell.value = String(entered.stringValue);
              else if (entered && 'boolValue' in entered) cell.value = Boolean(entered.boolValue);
            }
            if (fields.includes('numberFormat')) {
              const format = (data.userEnteredFormat as { numberFormat?: StandInCell['numberFormat'] } | undefined)
                ?.numberFormat;
              if (format) cell.numberFormat = format;
              else delete cell.numberFormat;
            }
            if (cell.formula === undefined && cell.value === null && !cell.numberFormat) sheet.cells.delete(at);
            else sheet.cells.set(at, cell);
          });
        });
        return {};
      }
      case 'updateDimensionProperties': {
        const range = b?.range ?? {};
        const sheet = sheetById(range.sheetId);
        for (let c = Number(range.startIndex); c < Number(range.endIndex); c += 1) {
          sheet.columnWidths.set(c, Number(b?.properties?.pixelSize));
        }
        return {};
      }
      default:
        throw new Refusal(400, `Invalid JSON payload received. Unknown name "${String(kind)}"`);
    }
  }

  function sheetOfRange(file: StandInSpreadsheet, range: string): StandInSheet {
    // The whole sheet, by its title quoted as A1 notation quotes it, or bare.
    const match = range.match(/^'((?:[^']|'')*)'$/);
    const title = match?.[1] !== undefined ? match[1].replaceAll("''", "'") : range;
    const sheet = file.sheets.find((s) => s.title === title);
    if (!sheet) throw new Refusal(400, `Unable to parse range: ${range}`);
    return sheet;
  }

  function accountOf(email: string): StandInAccount {
    return email === stand.account.email ? stand.account : { email, name: email.split('@')[0] ?? '', picture: '' };
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

function newSheet(sheetId: number, title: string, index: number): StandInSheet {
  return {
    sheetId,
    title,
    index,
    hidden: false,
    frozenRowCount: 0,
    frozenColumnCount: 0,
    rowCount: 1000,
    columnCount: 26,
    cells: new Map(),
    columnWidths: new Map(),
  };
}

function nextSheetId(file: StandInSpreadsheet): number {
  let id = 0;
  while (id === 0 || file.sheets.some((s) => s.sheetId === id)) id = 1 + Math.floor(Math.random() * 2_000_000_000);
  return id;
}

function sheetProperties(sheet: StandInSheet) {
  return {
    sheetId: sheet.sheetId,
    title: sheet.title,
    index: sheet.index,
    sheetType: 'GRID',
    hidden: sheet.hidden,
    gridProperties: {
      rowCount: sheet.rowCount,
      columnCount: sheet.columnCount,
      frozenRowCount: sheet.frozenRowCount,
      frozenColumnCount: sheet.frozenColumnCount,
    },
  };
}

function spreadsheetBody(file: StandInSpreadsheet) {
  return {
    spreadsheetId: file.id,
    properties: { title: file.title, locale: 'en_US' },
    sheets: file.sheets.map((sheet, index) => ({ properties: { ...sheetProperties(sheet), index } })),
    namedRanges: file.namedRanges,
    spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${file.id}/edit`,
  };
}

function copyOf(file: StandInSpreadsheet): StandInSpreadsheet {
  return {
    ...file,
    sheets: file.sheets.map((sheet) => ({
      ...sheet,
      cells: new Map([...sheet.cells].map(([k, cell]) => [k, { ...cell }])),
      columnWidths: new Map(sheet.columnWidths),
    })),
    namedRanges: file.namedRanges.map((n) => ({ ...n, range: { ...n.range } })),
  };
}

/** A sheet's cells as rows, trailing blanks left out as Sheets leaves them out. */
function rowsOf(
  sheet: StandInSheet,
  render: string,
  computed?: Map<string, string | number | boolean | null>,
): (string | number | boolean)[][] {
  const rows: (string | number | boolean)[][] = [];
  for (const [at, cell] of sheet.cells) {
    const [r, c] = at.split(',').map(Number) as [number, number];
    const shown =
      render === 'FORMULA' && cell.formula !== undefined
        ? cell.formula
        : cell.formula !== undefined
          ? (computed?.get(at) ?? null)
          : cell.value;
    if (shown === null || shown === undefined) continue;
    const row = rows[r] ?? [];
    rows[r] = row;
    row[c] = render === 'FORMATTED_VALUE' ? String(shown) : shown;
  }
  const dense: (string | number | boolean)[][] = [];
  for (let r = 0; r < rows.length; r += 1) dense.push(Array.from(rows[r] ?? [], (v) => (v === undefined ? '' : v)));
  return dense;
}

const key = (row: number, column: number) => `${row},${column}`;

/**
 * Every cell's value with the formulas recalculated, by sheet title and `row,column`: the spreadsheet's sheets and
 * named ranges in HyperFormula (the engine's settings). An error shows as its text (`#REF!`), as Sheets shows it.
 */
function recalculate(file: StandInSpreadsheet): Map<string, Map<string, string | number | boolean | null>> {
  const kept = recalculated.get(file);
  if (kept && kept.modified === file.modified) return kept.values;
  const values = recalculateNow(file);
  recalculated.set(file, { modified: file.modified, values });
  return values;
}

/** The last recalculation of each spreadsheet, good while the spreadsheet has not changed since. */
const recalculated = new WeakMap<
  StandInSpreadsheet,
  { modified: Date; values: Map<string, Map<string, string | number | boolean | null>> }
>();

function recalculateNow(file: StandInSpreadsheet): Map<string, Map<string, string | number | boolean | null>> {
  const sheets: Record<string, RawCellContent[][]> = {};
  for (const sheet of file.sheets) {
    const grid: RawCellContent[][] = [];
    for (const [at, cell] of sheet.cells) {
      const [r, c] = at.split(',').map(Number) as [number, number];
      grid[r] ??= [];
      (grid[r] as RawCellContent[])[c] = cell.formula ?? cell.value;
    }
    sheets[sheet.title] = Array.from(grid, (row) => Array.from(row ?? [], (v) => (v === undefined ? null : v)));
  }
  const titleOf = new Map(file.sheets.map((s) => [s.sheetId, s.title]));
  const names = file.namedRanges.map(({ name, range }) => {
    const title = `'${(titleOf.get(range.sheetId) ?? '').replaceAll("'", "''")}'`;
    const corner = (row: number, column: number) => `$${columnName(column)}$${row + 1}`;
    const single = range.endRowIndex - range.startRowIndex === 1 && range.endColumnIndex - range.startColumnIndex === 1;
    const end = single ? '' : `:${corner(range.endRowIndex - 1, range.endColumnIndex - 1)}`;
    return { name, expression: `=${title}!${corner(range.startRowIndex, range.startColumnIndex)}${end}` };
  });
  const hf = HyperFormula.buildFromSheets(sheets, { ...HYPERFORMULA_CONFIG }, names);
  const out = new Map<string, Map<string, string | number | boolean | null>>();
  for (const sheet of file.sheets) {
    const id = hf.getSheetId(sheet.title);
    const values = new Map<string, string | number | boolean | null>();
    for (const at of sheet.cells.keys()) {
      const [row, col] = at.split(',').map(Number) as [number, number];
      const value = id === undefined ? null : hf.getCellValue({ sheet: id, row, col });
      values.set(at, value === null || typeof value !== 'object' ? value : String(value.value));
    }
    out.set(sheet.title, values);
  }
  hf.destroy();
  return out;
}

function columnName(column: number): string {
  let name = '';
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function parseA1(a1: string): { row: number; column: number } {
  const match = a1.toUpperCase().match(/^([A-Z]+)(\d+)$/);
  if (!match?.[1] || !match[2]) throw new Refusal(400, `not a cell address: ${a1}`);
  let column = 0;
  for (const letter of match[1]) column = column * 26 + (letter.charCodeAt(0) - 64);
  return { row: Number(match[2]) - 1, column: column - 1 };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

async function text(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function jsonBody(request: IncomingMessage): Promise<unknown> {
  const body = await text(request);
  try {
    return body ? JSON.parse(body) : {};
  } catch {
    throw new Refusal(400, 'Invalid JSON payload received.');
  }
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
