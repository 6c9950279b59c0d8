/**
 * Google's side of the Sheets round trip, through googleapis (`@googleapis/sheets`, `@googleapis/drive`) and the
 * google-auth-library OAuth2 client they carry:
 * - the consent page (`drive.file` and `openid email profile`, offline access so that a refresh token comes back),
 *   the code exchange, and who the account is (the userinfo API);
 * - a session per plan whose access token the library refreshes when it expires (or when Google refuses it early),
 *   each new access token handed to the caller to keep; a grant Google no longer honours is `GrantRevoked`;
 * - the spreadsheet written with Sheets v4: `spreadsheets.create` with the plan's sheet titles, then one
 *   `spreadsheets.batchUpdate` of the engine's `sheetsBatchRequests` (every cell as typed values, formulas as
 *   `formulaValue`, the named ranges, number formats, frozen panes, column widths), so the sheet has the XLSX's
 *   layout and live formulas; an export over an existing spreadsheet first replaces its sheets and names in one
 *   batch (old sheets renamed aside, new ones added, old ones deleted) and keeps its id and address;
 * - the file's name, address and last change from Drive v3 (`files.get`), and the actual-inputs sheets' values from
 *   `spreadsheets.values.batchGet` (unformatted: numbers as numbers).
 * GOOGLE_API_BASE and GOOGLE_OAUTH_BASE point all of it at another server (the tests' stand-in).
 */
import { type drive_v3, drive as googleDrive } from '@googleapis/drive';
import { auth, sheets as googleSheets, type sheets_v4 } from '@googleapis/sheets';
import { GOOGLE_SHEETS_SCOPES } from '@topline/contract';
import { type SheetsGrid, sheetsBatchRequests } from '@topline/engine/export';
import type { Config } from '../../config';

type OAuth2Client = InstanceType<typeof auth.OAuth2>;

/** A cell's value as the Sheets API answers it unformatted: number, text, boolean, or absent. */
export type SheetCellValue = string | number | boolean | null;

export interface GoogleTokens {
  access_token: string;
  refresh_token: string;
  /** Milliseconds since the epoch. */
  expiry_date: number | null;
}

export interface GoogleProfile {
  email: string;
  name: string;
  picture: string | null;
}

export interface SpreadsheetFile {
  id: string;
  name: string;
  url: string;
  /** ISO 8601. */
  modified: string | null;
}

/** Google no longer honours the grant (the user revoked it, or it expired): the owner must connect again. */
export class GrantRevoked extends Error {
  override readonly name = 'GrantRevoked';
}

/** Google answered with something other than what was asked (down, a refusal the app cannot act on). */
export class GoogleFailed extends Error {
  override readonly name = 'GoogleFailed';
}

const SHEETS_MIME = 'application/vnd.google-apps.spreadsheet';
const TIMEOUT_MS = 30_000;

/** The Google client of this server: configured when a client id and secret are set. */
export class GoogleSheetsService {
  private readonly apiBase: string | undefined;
  private readonly oauthBase: string | undefined;

  constructor(private readonly config: Config) {
    this.apiBase = config.GOOGLE_API_BASE ? withSlash(config.GOOGLE_API_BASE) : undefined;
    this.oauthBase = config.GOOGLE_OAUTH_BASE ? withSlash(config.GOOGLE_OAUTH_BASE) : undefined;
  }

  get configured(): boolean {
    return Boolean(this.config.GOOGLE_CLIENT_ID && this.config.GOOGLE_CLIENT_SECRET);
  }

  /** Where Google's consent page sends the browser back: the web app's callback page. */
  get redirectUri(): string {
    return new URL('/oauth/google-drive', this.config.PUBLIC_URL).href;
  }

  /** Google's consent page for this `state`; asks for consent every time, so that Google hands a refresh token. */
  authUrl(state: string): string {
    return this.client().generateAuthUrl({
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: true,
      scope: [...GOOGLE_SHEETS_SCOPES],
      state,
    });
  }

  /**
   * The tokens for the code the consent page gave, and the account they belong to.
   * @throws GrantRevoked when Google refuses the code (used, expired, another client's).
   * @throws GoogleFailed when Google gives no refresh token or cannot be reached.
   */
  async exchange(code: string): Promise<{ tokens: GoogleTokens; profile: GoogleProfile }> {
    const client = this.client();
    const { tokens } = await call(() => client.getToken(code));
    if (!tokens.access_token || !tokens.refresh_token) throw new GoogleFailed('Google gave no refresh token');
    client.setCredentials(tokens);
    const profile = await call(() =>
      client.request<{ email?: string; name?: string; picture?: string }>({
        url: this.userinfoUrl,
        timeout: TIMEOUT_MS,
      }),
    );
    if (!profile.data.email) throw new GoogleFailed('Google named no e-mail address');
    return {
      tokens: {
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
        expiry_date: tokens.expiry_date ?? null,
      },
      profile: { email: profile.data.email, name: profile.data.name ?? '', picture: profile.data.picture || null },
    };
  }

  /**
   * A session with a grant's tokens; `onRefresh` is told of each new access token the library fetches.
   */
  session(tokens: GoogleTokens, onRefresh: (access: string, expiry: number | null) => void): GoogleSession {
    const client = this.client();
    client.setCredentials({
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      ...(tokens.expiry_date === null ? {} : { expiry_date: tokens.expiry_date }),
    });
    client.on('tokens', (fresh) => {
      if (fresh.access_token) onRefresh(fresh.access_token, fresh.expiry_date ?? null);
    });
    const root = this.apiBase ? { rootUrl: this.apiBase } : {};
    return new GoogleSession(
      client,
      this.userinfoUrl,
      googleSheets({ version: 'v4', auth: client, timeout: TIMEOUT_MS, ...root }),
      googleDrive({ version: 'v3', auth: client, timeout: TIMEOUT_MS, ...root }),
    );
  }

  private get userinfoUrl(): string {
    return new URL('oauth2/v2/userinfo', this.apiBase ?? 'https://www.googleapis.com/').href;
  }

  private client(): OAuth2Client {
    const base = this.oauthBase;
    return new auth.OAuth2({
      clientId: this.config.GOOGLE_CLIENT_ID,
      clientSecret: this.config.GOOGLE_CLIENT_SECRET,
      redirectUri: this.redirectUri,
      forceRefreshOnFailure: true,
      ...(base
        ? {
            endpoints: {
              oauth2AuthBaseUrl: new URL('o/oauth2/v2/auth', base).href,
              oauth2TokenUrl: new URL('token', base).href,
              oauth2RevokeUrl: new URL('revoke', base).href,
            },
          }
        : {}),
    });
  }
}

/** One plan's grant at work. Every method throws GrantRevoked or GoogleFailed as `call` says. */
export class GoogleSession {
  constructor(
    private readonly client: OAuth2Client,
    private readonly userinfoUrl: string,
    private readonly sheets: sheets_v4.Sheets,
    private readonly drive: drive_v3.Drive,
  ) {}

  /** Who the grant belongs to, which also proves Google still honours it. */
  async profile(): Promise<GoogleProfile> {
    const answer = await call(() =>
      this.client.request<{ email?: string; name?: string; picture?: string }>({ url: this.userinfoUrl }),
    );
    return { email: answer.data.email ?? '', name: answer.data.name ?? '', picture: answer.data.picture || null };
  }

  /** A new spreadsheet in the user's Drive holding the grid. */
  async create(grid: SheetsGrid): Promise<SpreadsheetFile> {
    const made = await call(() =>
      this.sheets.spreadsheets.create({
        requestBody: {
          properties: { title: grid.title },
          sheets: grid.sheets.map((sheet) => ({ properties: { title: sheet.title } })),
        },
      }),
    );
    const id = made.data.spreadsheetId;
    if (!id) throw new GoogleFailed('Google made no spreadsheet');
    const ids: Record<string, number> = {};
    for (const sheet of made.data.sheets ?? []) {
      const { title, sheetId } = sheet.properties ?? {};
      if (title && typeof sheetId === 'number') ids[title] = sheetId;
    }
    await this.write(id, grid, ids);
    return this.file(id).then((file) => file ?? fail('the new spreadsheet is gone'));
  }

  /**
   * Writes the grid over the spreadsheet's sheets and names: its old sheets are renamed aside, the grid's added and
   * the old ones deleted in one batch (Google applies a batch whole or not at all), then the cells are written.
   * @returns null when the spreadsheet is gone (deleted, or no longer this app's to open).
   */
  async overwrite(spreadsheetId: string, grid: SheetsGrid): Promise<SpreadsheetFile | null> {
    const current = await optional(() =>
      this.sheets.spreadsheets.get({
        spreadsheetId,
        fields: 'sheets.properties(sheetId,title),namedRanges(namedRangeId)',
      }),
    );
    if (!current) return null;
    const old = (current.data.sheets ?? [])
      .map((sheet) => sheet.properties?.sheetId)
      .filter((id): id is number => typeof id === 'number');
    const requests: sheets_v4.Schema$Request[] = [
      ...(current.data.namedRanges ?? []).map((range) => ({
        deleteNamedRange: { namedRangeId: range.namedRangeId ?? '' },
      })),
      ...old.map((sheetId) => ({
        updateSheetProperties: { properties: { sheetId, title: `replaced ${sheetId}` }, fields: 'title' },
      })),
      ...grid.sheets.map((sheet) => ({ addSheet: { properties: { title: sheet.title } } })),
      ...old.map((sheetId) => ({ deleteSheet: { sheetId } })),
    ];
    const replaced = await call(() =>
      this.sheets.spreadsheets.batchUpdate({
        spreadsheetId,
        requestBody: { requests, includeSpreadsheetInResponse: false },
      }),
    );
    const ids: Record<string, number> = {};
    for (const reply of replaced.data.replies ?? []) {
      const { title, sheetId } = reply.addSheet?.properties ?? {};
      if (title && typeof sheetId === 'number') ids[title] = sheetId;
    }
    await this.write(spreadsheetId, grid, ids);
    if (grid.title) {
      await call(() => this.drive.files.update({ fileId: spreadsheetId, requestBody: { name: grid.title } }));
    }
    return this.file(spreadsheetId);
  }

  /** The spreadsheet's name, address and last change, or null when it is gone or not this app's to open. */
  async file(spreadsheetId: string): Promise<SpreadsheetFile | null> {
    const answer = await optional(() =>
      this.drive.files.get({ fileId: spreadsheetId, fields: 'id,name,mimeType,webViewLink,modifiedTime,trashed' }),
    );
    if (!answer || answer.data.trashed || answer.data.mimeType !== SHEETS_MIME) return null;
    return {
      id: spreadsheetId,
      name: answer.data.name ?? '',
      url: answer.data.webViewLink ?? `https://docs.google.com/spreadsheets/d/${spreadsheetId}/edit`,
      modified: answer.data.modifiedTime ?? null,
    };
  }

  /** The titles of the spreadsheet's sheets, in order; null when it is gone. */
  async sheetTitles(spreadsheetId: string): Promise<string[] | null> {
    const answer = await optional(() =>
      this.sheets.spreadsheets.get({ spreadsheetId, fields: 'sheets.properties(title)' }),
    );
    if (!answer) return null;
    return (answer.data.sheets ?? []).map((sheet) => sheet.properties?.title ?? '');
  }

  /** Every cell of the named sheets, unformatted (numbers as numbers, formulas as their values), by sheet title. */
  async values(spreadsheetId: string, titles: string[]): Promise<Record<string, SheetCellValue[][]>> {
    if (titles.length === 0) return {};
    const answer = await call(() =>
      this.sheets.spreadsheets.values.batchGet({
        spreadsheetId,
        ranges: titles.map(quoteSheet),
        majorDimension: 'ROWS',
        valueRenderOption: 'UNFORMATTED_VALUE',
        dateTimeRenderOption: 'SERIAL_NUMBER',
      }),
    );
    const grids: Record<string, SheetCellValue[][]> = {};
    (answer.data.valueRanges ?? []).forEach((range, index) => {
      const title = titles[index];
      if (title !== undefined) grids[title] = (range.values ?? []) as SheetCellValue[][];
    });
    return grids;
  }

  /** Revokes the grant at Google (its refresh token, and with it every access token it gave). */
  async revoke(): Promise<void> {
    const token = this.client.credentials.refresh_token ?? this.client.credentials.access_token;
    if (!token) return;
    try {
      await this.client.revokeToken(token);
    } catch (error) {
      // A grant already revoked or expired is what was asked for.
      if (status(error) === 400) return;
      throw new GoogleFailed(`Google did not revoke the grant: ${describe(error)}`);
    }
  }

  private async write(spreadsheetId: string, grid: SheetsGrid, ids: Record<string, number>): Promise<void> {
    const requests = sheetsBatchRequests(grid, ids) as sheets_v4.Schema$Request[];
    await call(() => this.sheets.spreadsheets.batchUpdate({ spreadsheetId, requestBody: { requests } }));
  }
}

/** A sheet title as an A1 range of the whole sheet. */
function quoteSheet(title: string): string {
  return `'${title.replaceAll("'", "''")}'`;
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function fail(message: string): never {
  throw new GoogleFailed(message);
}

function status(error: unknown): number | undefined {
  const response = (error as { response?: { status?: number } } | null)?.response;
  return typeof response?.status === 'number' ? response.status : undefined;
}

/** Google's error code (`invalid_grant`) or message, never a token: the request's URL and body are left out. */
function describe(error: unknown): string {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  if (data && typeof data === 'object') {
    const body = data as { error?: unknown; error_description?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (body.error && typeof body.error === 'object') {
      const inner = body.error as { status?: unknown; message?: unknown };
      return String(inner.status ?? inner.message ?? 'error');
    }
  }
  const code = status(error);
  return code ? `HTTP ${code}` : 'no answer';
}

/**
 * Runs a Google call: a refused grant (`invalid_grant`, or 401 once the library has refreshed) is GrantRevoked;
 * anything else that fails is GoogleFailed, described without tokens.
 */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw googleError(error);
  }
}

/** As `call`, but a 404 (the file is gone, or no longer this app's to open under drive.file) is null. */
async function optional<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (status(error) === 404) return null;
    throw googleError(error);
  }
}

function googleError(error: unknown): Error {
  if (error instanceof GrantRevoked || error instanceof GoogleFailed) return error;
  const code = status(error);
  const reason = describe(error);
  if (reason === 'invalid_grant' || code === 401) return new GrantRevoked('Google refused the grant');
  return new GoogleFailed(`Google answered ${reason}`);
}
