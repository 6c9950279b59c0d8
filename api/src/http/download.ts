import type { AppContext } from './context';

/** A file name as plain ASCII for the `filename` parameter (the UTF-8 name goes in `filename*`, RFC 6266). */
const asciiName = (name: string) => name.replace(/[^\x20-\x7e]/g, '_').replaceAll('"', '_');

/** Answers a file to download under `name` (CSV, XLSX): the body, its type and both forms of the name. */
export function sendDownload(ctx: AppContext, name: string, type: string, body: string | Buffer): void {
  ctx.set(
    'Content-Disposition',
    `attachment; filename="${asciiName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  );
  ctx.type = type;
  ctx.body = body;
}

export const CSV_TYPE = 'text/csv; charset=utf-8';
