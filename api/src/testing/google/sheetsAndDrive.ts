import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { batchUpdate } from './batchUpdate';
import { json, jsonBody, Refusal } from './http';
import type { Grant, OAuth, Stand } from './oauth';
import { recalculate } from './recalculate';
import { newSheet, nextSheetId, rowsOf, type StandInSpreadsheet, sheetOfRange, spreadsheetBody } from './spreadsheets';

/**
 * Sheets v4 (spreadsheets.create, get, batchUpdate, values.batchGet) and Drive v3 (files.get, files.update of the
 * name), on the spreadsheets the grant's account made (drive.file). False when the call is none of these.
 */
export async function sheetsAndDrive(
  files: Map<string, StandInSpreadsheet>,
  oauth: OAuth,
  stand: Stand,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  const path = url.pathname;
  const method = request.method ?? 'GET';
  const { grantOfAccess } = oauth;
  const fileOf = (grant: Grant, id: string): StandInSpreadsheet => {
    const file = files.get(id);
    // drive.file: only the files this app made for this account are there at all.
    if (!file || file.owner !== grant.email) throw new Refusal(404, `Requested entity was not found: ${id}`);
    return file;
  };

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
    json(response, 200, spreadsheetBody(file));
    return true;
  }
  const sheetCall = path.match(/^\/v4\/spreadsheets\/([^/:]+)(:batchUpdate|\/values:batchGet)?$/);
  if (sheetCall?.[1]) {
    const grant = grantOfAccess(request);
    const file = fileOf(grant, decodeURIComponent(sheetCall[1]));
    if (!sheetCall[2] && method === 'GET') {
      json(response, 200, spreadsheetBody(file));
      return true;
    }
    if (sheetCall[2] === ':batchUpdate' && method === 'POST') {
      const body = (await jsonBody(request)) as { requests?: Record<string, unknown>[] };
      const replies = batchUpdate(file, body.requests ?? []);
      json(response, 200, { spreadsheetId: file.id, replies });
      return true;
    }
    if (sheetCall[2] === '/values:batchGet' && method === 'GET') {
      const render = url.searchParams.get('valueRenderOption') ?? 'FORMATTED_VALUE';
      const computed = render === 'FORMULA' ? undefined : recalculate(file);
      const valueRanges = url.searchParams.getAll('ranges').map((range) => {
        const sheet = sheetOfRange(file, range);
        return { range, majorDimension: 'ROWS', values: rowsOf(sheet, render, computed?.get(sheet.title)) };
      });
      json(response, 200, { spreadsheetId: file.id, valueRanges });
      return true;
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
    json(response, 200, {
      id: file.id,
      name: file.title,
      mimeType: 'application/vnd.google-apps.spreadsheet',
      webViewLink: `${stand.base}/spreadsheets/d/${file.id}/edit`,
      modifiedTime: file.modified.toISOString(),
      trashed: file.trashed,
    });
    return true;
  }
  return false;
}
