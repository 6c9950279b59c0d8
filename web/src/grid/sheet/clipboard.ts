/**
 * The clipboard's two forms of a block of cells, read and written without a DOM: tab-separated text (what Excel,
 * LibreOffice and Google Sheets put as text/plain: tabs, CRLF or LF, cells with a tab, a newline or a quote quoted
 * with `"` and doubled quotes) and an HTML table (text/html, which Excel reads with the cells in their columns).
 */

/** A block of cell texts, rows then columns. */
export type Block = string[][];

/** Reads tab-separated text into rows of cells; one trailing line end (as the spreadsheets write) ends no row. */
export function parseTsv(text: string): Block {
  const rows: Block = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let atCellStart = true;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (atCellStart && ch === '"') {
      // A quoted cell runs to the quote not doubled; what follows it up to the next tab or line end is kept too.
      let j = i + 1;
      let quoted = '';
      while (j < text.length) {
        if (text[j] === '"') {
          if (text[j + 1] === '"') {
            quoted += '"';
            j += 2;
            continue;
          }
          break;
        }
        quoted += text[j];
        j += 1;
      }
      if (j >= text.length) {
        // No closing quote: the quote was the cell's own text.
        cell += ch;
        i += 1;
        atCellStart = false;
        continue;
      }
      cell += quoted;
      i = j + 1;
      atCellStart = false;
      continue;
    }
    if (ch === '\t') {
      row.push(cell);
      cell = '';
      atCellStart = true;
      i += 1;
    } else if (ch === '\r' || ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      atCellStart = true;
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      cell += ch;
      atCellStart = false;
      i += 1;
    }
  }
  if (!atCellStart || cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The cells of the first HTML table in `html` (Excel's, LibreOffice's or Google Sheets' text/html), or null. */
export function parseHtmlTable(html: string): Block | null {
  const table = /<table[\s>][\s\S]*?<\/table>/i.exec(html);
  if (!table) return null;
  const body = table[0].replace(/<!--[\s\S]*?-->/g, '').replace(/<style[\s\S]*?<\/style>/gi, '');
  const rows: Block = [];
  for (const tr of body.split(/<tr\b/i).slice(1)) {
    const cells: string[] = [];
    for (const td of tr.matchAll(/<t[dh]\b([^>]*)>([\s\S]*?)<\/t[dh]>/gi)) {
      const text = decodeEntities(
        (td[2] ?? '')
          .replace(/<br\s*\/?>/gi, ' ')
          .replace(/<[^>]+>/g, '')
          .replace(/\s+/g, ' '),
      ).trim();
      cells.push(text);
      const span = /colspan\s*=\s*["']?(\d+)/i.exec(td[1] ?? '');
      for (let k = 1; k < Number(span?.[1] ?? 1); k++) cells.push('');
    }
    rows.push(cells);
  }
  return rows;
}

/** A pasted clipboard's block: its text form, or its HTML table when it has no text. */
export function readClipboard(text: string, html: string): Block {
  if (text.trim() !== '') return parseTsv(text);
  return parseHtmlTable(html) ?? [];
}

/** A figure as shown (`▲3,000`, `-1,234.5`, `12.5%`) as plain text for a spreadsheet: a minus, no separators. */
export function plainFigure(shown: string): string {
  const text = shown.trim().replace(/[▲△\u2212]/g, '-');
  return /^-?[\d,]+(\.\d+)?%?$/.test(text) ? text.replaceAll(',', '') : text;
}

const quoteTsv = (cell: string) => (/[\t\r\n"]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

/** A block as tab-separated text, CRLF between rows (as Excel writes it). */
export const blockTsv = (block: Block): string => block.map((row) => row.map(quoteTsv).join('\t')).join('\r\n');

const escapeHtml = (cell: string) =>
  cell.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** A block as an HTML table, which Excel and Google Sheets paste into their cells. */
export const blockHtml = (block: Block): string =>
  `<table>${block.map((row) => `<tr>${row.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('')}</table>`;
