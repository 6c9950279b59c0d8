/**
 * The /spreadsheet calls (working-screens.md sections 2, 7 and 8): the plan owner's Google Sheets round trip.
 * Google's side is `services/spreadsheets/sheets.ts`; what is kept, and its encryption, `services/spreadsheets/sheetsStore.ts`.
 */
import type Router from '@koa/router';
import {
  ApiError,
  asOfMonth,
  conflict,
  type DataOf,
  type GoogleAccount,
  inputError,
  type LinkedSpreadsheet,
  notFound,
  unavailable,
} from '@topline/contract';
import { sheetsGrid } from '@topline/engine/export';
import type { Services } from '../deps';
import type { AppState } from '../http/context';
import { handle } from '../http/route';
import type { PlanAccess } from '../services/access/access';
import { casesOf } from '../services/plans/plans';
import { GoogleFailed, type GoogleSession, GoogleSheetsService, GrantRevoked } from '../services/spreadsheets/sheets';
import { readLinkedSheets } from '../services/spreadsheets/sheetsImport';
import {
  deleteLink,
  linkOf,
  SheetsSecrets,
  type SpreadsheetLinkRow,
  saveLink,
  updateLink,
} from '../services/spreadsheets/sheetsStore';
import { saveActualInputs } from '../services/spreadsheets/xlsx';

const NOT_CONFIGURED = 'the Google Sheets connection is not configured on this server';
const RECONNECT = 'Google no longer accepts this connection: reconnect the Google account';

export function spreadsheetRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;
  const google = new GoogleSheetsService(services.config);
  const secrets = new SheetsSecrets(services.config.APP_SECRET);

  const requireConfigured = () => {
    if (!google.configured) throw unavailable(NOT_CONFIGURED);
  };

  /** The plan's link, which must hold a grant Google still honours. */
  const requireLink = async (planId: number): Promise<SpreadsheetLinkRow> => {
    requireConfigured();
    const link = await linkOf(db, planId);
    if (!link) throw conflict('connect a Google account first');
    if (link.needs_reconnect) throw conflict(RECONNECT);
    return link;
  };

  /** The plan's link with its spreadsheet. */
  const requireSheet = async (planId: number): Promise<SpreadsheetLinkRow & { spreadsheet_id: string }> => {
    const link = await requireLink(planId);
    if (!link.spreadsheet_id) throw conflict('no spreadsheet is linked to this plan: create one first');
    return link as SpreadsheetLinkRow & { spreadsheet_id: string };
  };

  /**
   * Runs Google calls with the link's grant. A new access token the library fetched is kept (encrypted) before the
   * call answers; a refused grant marks the link for reconnecting (409); Google failing otherwise is 503.
   */
  const withSession = async <T>(link: SpreadsheetLinkRow, run: (session: GoogleSession) => Promise<T>): Promise<T> => {
    const planId = link.business_plan_id;
    const saves: Promise<void>[] = [];
    const session = google.session(
      {
        refresh_token: secrets.open(link.refresh_token, planId),
        access_token: link.access_token ? secrets.open(link.access_token, planId) : '',
        expiry_date: link.access_token ? (link.access_expires_at?.getTime() ?? null) : 1,
      },
      (access, expiry) => {
        saves.push(
          updateLink(db, planId, {
            access_token: secrets.seal(access, planId),
            access_expires_at: expiry === null ? null : new Date(expiry),
          }),
        );
      },
    );
    try {
      return await run(session);
    } catch (error) {
      if (error instanceof GrantRevoked) {
        await updateLink(db, planId, { needs_reconnect: true, access_token: null, access_expires_at: null });
        throw conflict(RECONNECT);
      }
      if (error instanceof GoogleFailed) {
        services.logger.error(`Google Sheets call failed for plan ${planId}: ${error.message}`);
        throw unavailable('Google Sheets cannot be reached right now; try again in a few minutes');
      }
      throw error;
    } finally {
      await Promise.all(saves);
    }
  };

  const accountOf = (link: SpreadsheetLinkRow): GoogleAccount => ({
    email: link.google_email,
    name: link.google_name,
    picture: link.google_picture,
    reconnect: link.needs_reconnect,
  });

  const keepSpreadsheet = async (planId: number, file: LinkedSpreadsheet) => {
    await updateLink(db, planId, { spreadsheet_id: file.id, spreadsheet_name: file.name, spreadsheet_url: file.url });
  };

  /** The plan's sheets as Google Sheets cells: the XLSX export's sheets, actual inputs and the plan's marker. */
  const gridOf = async (access: PlanAccess) => {
    const compiled = await services.workbooks.get(db, access.plan, asOfMonth(services.now()));
    return sheetsGrid(compiled.workbook, { planId: access.plan.id });
  };

  handle(router, services, 'spreadsheetRetrieve', async ({ access }) => {
    const info: DataOf<'spreadsheetRetrieve'> = {
      configured: google.configured,
      google_account: null,
      spreadsheet: null,
    };
    if (!google.configured) return { data: info };
    const link = await linkOf(db, access.plan.id);
    if (!link) return { data: info };
    const stored: LinkedSpreadsheet | null = link.spreadsheet_id
      ? {
          id: link.spreadsheet_id,
          name: link.spreadsheet_name ?? '',
          url: link.spreadsheet_url ?? '',
          modified: null,
        }
      : null;
    if (link.needs_reconnect) return { data: { ...info, google_account: accountOf(link), spreadsheet: stored } };
    try {
      const spreadsheet = await withSession(link, async (session) => {
        if (!link.spreadsheet_id) {
          // Nothing to look up, but the grant is checked so that a revoked one shows "reconnect" at once.
          await session.profile();
          return null;
        }
        const file = await session.file(link.spreadsheet_id);
        if (!file) {
          // Deleted, in the bin, or no longer this app's to open: the plan has no spreadsheet any more.
          await updateLink(db, link.business_plan_id, {
            spreadsheet_id: null,
            spreadsheet_name: null,
            spreadsheet_url: null,
          });
          return null;
        }
        if (file.name !== link.spreadsheet_name || file.url !== link.spreadsheet_url) {
          await keepSpreadsheet(link.business_plan_id, file);
        }
        return file;
      });
      return { data: { ...info, google_account: accountOf(link), spreadsheet } };
    } catch (error) {
      if (error instanceof ApiError && error.body.message === RECONNECT) {
        return { data: { ...info, google_account: { ...accountOf(link), reconnect: true }, spreadsheet: stored } };
      }
      if (error instanceof ApiError && error.status === 503) {
        // Google is away: what is kept still tells the modal which state it is in.
        return { data: { ...info, google_account: accountOf(link), spreadsheet: stored } };
      }
      throw error;
    }
  });

  handle(router, services, 'spreadsheetAuthUrl', async ({ access, user }) => {
    requireConfigured();
    const state = await secrets.state(user.id, access.plan.id);
    return { data: { auth_url: google.authUrl(state) } };
  });

  handle(router, services, 'spreadsheetConnect', async ({ access, user, input }) => {
    requireConfigured();
    const planId = access.plan.id;
    const params = new URLSearchParams(input.auth_param.replace(/^[?#]/, ''));
    const denied = params.get('error');
    if (denied) throw inputError('auth_param', `Google did not grant access (${denied.slice(0, 100)})`);
    const state = params.get('state') ?? '';
    if (!(await secrets.stateMatches(state, user.id, planId))) {
      throw inputError(
        'auth_param',
        'this connection was not started by you for this plan, or it expired: start again',
      );
    }
    const code = params.get('code');
    if (!code) throw inputError('auth_param', 'Google gave no authorization code: start again');
    let granted: Awaited<ReturnType<GoogleSheetsService['exchange']>>;
    try {
      granted = await google.exchange(code);
    } catch (error) {
      if (error instanceof GrantRevoked) {
        throw inputError('auth_param', 'Google refused the authorization code (used or expired): start again');
      }
      if (error instanceof GoogleFailed) {
        services.logger.error(`Google Sheets connect failed for plan ${planId}: ${error.message}`);
        throw unavailable('Google cannot be reached right now; try again in a few minutes');
      }
      throw error;
    }
    const before = await linkOf(db, planId);
    // The same account again (a reconnect) keeps its spreadsheet; another account starts without one.
    const sameAccount = before?.google_email.toLowerCase() === granted.profile.email.toLowerCase();
    await saveLink(db, {
      business_plan_id: planId,
      user_id: user.id,
      google_email: granted.profile.email,
      google_name: granted.profile.name,
      google_picture: granted.profile.picture,
      refresh_token: secrets.seal(granted.tokens.refresh_token, planId),
      access_token: secrets.seal(granted.tokens.access_token, planId),
      access_expires_at: granted.tokens.expiry_date === null ? null : new Date(granted.tokens.expiry_date),
      ...(sameAccount && before
        ? {
            spreadsheet_id: before.spreadsheet_id,
            spreadsheet_name: before.spreadsheet_name,
            spreadsheet_url: before.spreadsheet_url,
          }
        : {}),
    });
    if (before && !before.needs_reconnect && !sameAccount) {
      // Another account's grant, replaced, is given back to Google, best effort (the new one is kept whatever Google
      // says). The same account's is not: Google revokes a user's whole grant to the app, the new tokens with it.
      const old = google.session(
        { refresh_token: secrets.open(before.refresh_token, planId), access_token: '', expiry_date: 1 },
        () => {},
      );
      await old.revoke().catch(() => undefined);
    }
    return {
      data: {
        email: granted.profile.email,
        name: granted.profile.name,
        picture: granted.profile.picture,
        reconnect: false,
      },
    };
  });

  handle(router, services, 'spreadsheetCreate', async ({ access }) => {
    const link = await requireLink(access.plan.id);
    if (link.spreadsheet_id) throw conflict('a spreadsheet is linked to this plan already: export over it');
    const grid = await gridOf(access);
    const file = await withSession(link, (session) => session.create(grid));
    await keepSpreadsheet(access.plan.id, file);
    return { data: file };
  });

  handle(router, services, 'spreadsheetUpdate', async ({ access }) => {
    const link = await requireSheet(access.plan.id);
    const grid = await gridOf(access);
    const file = await withSession(link, (session) => session.overwrite(link.spreadsheet_id, grid));
    if (!file) {
      await updateLink(db, access.plan.id, { spreadsheet_id: null, spreadsheet_name: null, spreadsheet_url: null });
      throw notFound('the linked spreadsheet (deleted or in the bin; create another)');
    }
    await keepSpreadsheet(access.plan.id, file);
    return { data: file };
  });

  handle(router, services, 'spreadsheetImport', async ({ access }) => {
    const link = await requireSheet(access.plan.id);
    const caseCount = (await casesOf(db, access.plan.id)).length;
    const sheets = await withSession(link, (session) => readLinkedSheets(session, link.spreadsheet_id, caseCount));
    if (!sheets) {
      await updateLink(db, access.plan.id, { spreadsheet_id: null, spreadsheet_name: null, spreadsheet_url: null });
      throw notFound('the linked spreadsheet (deleted or in the bin; create another)');
    }
    // The XLSX import's reader and save: the same rules, the same cell errors, one transaction.
    const changes = await saveActualInputs(db, access, sheets);
    return {
      title: 'Success',
      message: changes.length === 0 ? 'the actuals were up to date' : `${changes.length} actuals changed`,
      data: { changes },
    };
  });

  handle(router, services, 'spreadsheetDisconnect', async ({ access, input }) => {
    requireConfigured();
    const link = await linkOf(db, access.plan.id);
    if (!link) return { title: 'Success', message: 'no Google account was connected' };
    if (input.spreadsheet_id !== undefined && input.spreadsheet_id !== (link.spreadsheet_id ?? '')) {
      throw conflict('the spreadsheet shown is no longer the one linked: reload');
    }
    if (!link.needs_reconnect) {
      try {
        await withSession(link, (session) => session.revoke());
      } catch (error) {
        // A grant Google refuses is as good as revoked; Google away keeps the link, so the owner can try again.
        if (!(error instanceof ApiError && error.body.message === RECONNECT)) throw error;
      }
    }
    await deleteLink(db, access.plan.id);
    return { title: 'Success', message: 'the Google account was disconnected' };
  });
}
