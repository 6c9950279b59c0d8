import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, Refusal, text } from './http';
import { columnName, key, parseA1, type StandInSpreadsheet, typeCell } from './spreadsheets';

/**
 * A spreadsheet's page (its webViewLink), as a person works in it: one sheet's cells, formulas as typed, each cell an
 * input typed into and saved as Sheets takes typed input; tabs go to the other sheets.
 */
export async function sheetPage(
  files: Map<string, StandInSpreadsheet>,
  id: string,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
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
