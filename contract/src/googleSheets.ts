/**
 * The Google Sheets round trip (working-screens.md sections 2, 4, 7 and 8): the /spreadsheet calls of a plan's
 * owner. The owner connects a Google account (Google's consent page, then `connect` with the callback's query
 * string), creates a spreadsheet that holds the XLSX export's sheets with live formulas, exports again over it, and
 * imports the actuals typed into its actual-inputs sheets, with the same reader and errors as the XLSX import.
 */
import { z } from 'zod';
import { successAnswer } from './answers';
import { jsonRoute } from './jsonRoute';
import { planIdField, planQuery, planScoped } from './plans';
import { actualChange } from './spreadsheets';
import { body } from './wire';

/** Where Google's consent page sends the browser back (a page of the web app, which then calls `connect`). */
export const GOOGLE_DRIVE_CALLBACK_PATH = '/oauth/google-drive';

/** What the app asks Google for: files it creates in the user's Drive, and who the user is. */
export const GOOGLE_SHEETS_SCOPES = [
  'https://www.googleapis.com/auth/drive.file',
  'openid',
  'email',
  'profile',
] as const;

/** The Google account connected to the plan; `reconnect` when Google no longer honours the grant (revoked, expired). */
export const googleAccount = z.object({
  email: z.string(),
  name: z.string(),
  picture: z.string().nullable(),
  reconnect: z.boolean(),
});
export type GoogleAccount = z.infer<typeof googleAccount>;

/** The spreadsheet linked to the plan; `modified` is when it last changed (ISO 8601), as Drive says. */
export const linkedSpreadsheet = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  modified: z.string().nullable(),
});
export type LinkedSpreadsheet = z.infer<typeof linkedSpreadsheet>;

/**
 * GET /spreadsheet/retrieve: whether the server can reach Google at all (`configured`: a client id is set), the
 * connected account and the linked spreadsheet, each null when there is none. The modal's three states follow:
 * not connected, connected without a sheet, connected with a sheet.
 */
export const spreadsheetInfo = z.object({
  configured: z.boolean(),
  google_account: googleAccount.nullable(),
  spreadsheet: linkedSpreadsheet.nullable(),
});
export type SpreadsheetInfo = z.infer<typeof spreadsheetInfo>;

/** POST /spreadsheet/connect: the plan and the query string Google's consent page gave the callback (`?code=…&state=…`). */
export const spreadsheetConnectRequest = body({
  business_plan_id: planIdField,
  auth_param: z.string('auth_param is required').min(1, 'auth_param is required').max(4096, 'auth_param is too long'),
});

/** POST /spreadsheet/disconnect: the plan, and the linked spreadsheet's id when one is shown. */
export const spreadsheetDisconnectRequest = body({
  business_plan_id: planIdField,
  spreadsheet_id: z.string().max(255).optional(),
});

/** POST /spreadsheet/import: what changed, as the XLSX import answers (an empty list when nothing did). */
export const spreadsheetImportAnswer = z.object({
  title: z.literal('Success'),
  message: z.string(),
  data: z.object({ changes: z.array(actualChange) }),
});

const OWNER = { kind: 'owner' } as const;
const data = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

/** A call of the plan's owner. */
const ownerCall = <M extends 'GET' | 'POST', P extends string, Request extends z.ZodType, Answer extends z.ZodType>(
  method: M,
  path: P,
  request: Request,
  answer: Answer,
) => jsonRoute(method, path, request, answer, OWNER);

/** The /spreadsheet calls, spread into the route table. Every one is the owner's. */
export const spreadsheetRoutes = {
  spreadsheetRetrieve: ownerCall('GET', '/spreadsheet/retrieve', planQuery, data(spreadsheetInfo)),
  /** Google's consent page for this plan; the browser keeps the plan id and goes there. */
  spreadsheetAuthUrl: ownerCall('GET', '/spreadsheet/auth_url', planQuery, data(z.object({ auth_url: z.string() }))),
  spreadsheetConnect: ownerCall('POST', '/spreadsheet/connect', spreadsheetConnectRequest, data(googleAccount)),
  spreadsheetCreate: ownerCall('POST', '/spreadsheet/create', planScoped, data(linkedSpreadsheet)),
  /** Export: the plan's sheets written over the linked spreadsheet's. */
  spreadsheetUpdate: ownerCall('POST', '/spreadsheet/update', planScoped, data(linkedSpreadsheet)),
  spreadsheetImport: ownerCall('POST', '/spreadsheet/import', planScoped, spreadsheetImportAnswer),
  /** Revokes the grant at Google and forgets the account and the spreadsheet (the file stays in the owner's Drive). */
  spreadsheetDisconnect: ownerCall('POST', '/spreadsheet/disconnect', spreadsheetDisconnectRequest, successAnswer),
};
