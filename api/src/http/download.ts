import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { type CsvRows, csvLines } from '@topline/engine';
import type { AppContext } from './context';

/** A file name as plain ASCII for the `filename` parameter (the UTF-8 name goes in `filename*`, RFC 6266). */
const asciiName = (name: string) => name.replace(/[^\x20-\x7e]/g, '_').replaceAll('"', '_');

/** Answers a file to download under `name` (CSV, XLSX): the body, its type and both forms of the name. */
export function sendDownload(
  ctx: AppContext,
  name: string,
  type: string,
  body: string | Buffer | NodeJS.ReadableStream,
): void {
  ctx.set(
    'Content-Disposition',
    `attachment; filename="${asciiName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  );
  ctx.type = type;
  ctx.body = body;
}

const CSV_TYPE = 'text/csv; charset=utf-8';

/** How much CSV text is gathered before it is sent on: a network write per line would cost more than the line. */
const CSV_CHUNK_CHARS = 16 * 1024;

/** The lines gathered into chunks of about `CSV_CHUNK_CHARS`, as UTF-8. */
function* csvChunks(rows: CsvRows): Generator<Buffer, void, undefined> {
  let pending = '';
  for (const line of csvLines(rows)) {
    pending += line;
    if (pending.length >= CSV_CHUNK_CHARS) {
      yield Buffer.from(pending);
      pending = '';
    }
  }
  if (pending !== '') yield Buffer.from(pending);
}

/**
 * Streams a CSV download: its rows are written as the response is read (chunked, gzipped for a client that accepts
 * it), so the file is never held whole. The rows' figures are read when `rows` was made (`CsvRows`); a failure while
 * writing ends the connection without its last chunk, which a client takes as a failed download, not a short file.
 */
export function sendCsv(ctx: AppContext, name: string, rows: CsvRows): void {
  const text = Readable.from(csvChunks(rows), { objectMode: false });
  ctx.vary('Accept-Encoding');
  if (ctx.acceptsEncodings('gzip', 'identity') !== 'gzip') {
    sendDownload(ctx, name, CSV_TYPE, text);
    return;
  }
  ctx.set('Content-Encoding', 'gzip');
  // A failure of either stream destroys the other, and Koa's pipe to the response ends the connection.
  sendDownload(
    ctx,
    name,
    CSV_TYPE,
    pipeline(text, createGzip(), () => {}),
  );
}
