import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { AppContext } from './context';

const gzipped = promisify(gzip);

/** Smaller answers go as they are: compressing them saves less than it costs. */
const MIN_GZIP_BYTES = 1024;

/** An answer serialised once per plan version: its UTF-8 JSON and, once a client has asked for it, its gzip. */
export interface CachedAnswer {
  json: Buffer;
  gzip?: Promise<Buffer>;
}

export const cachedAnswer = (body: unknown): CachedAnswer => ({ json: Buffer.from(JSON.stringify(body)) });

/**
 * Sends a cached answer, gzipped for clients that accept it (every browser does). The gzip is made once per answer,
 * off the event loop, so a warm read costs the same either way.
 */
export async function sendCached(ctx: AppContext, answer: CachedAnswer): Promise<void> {
  ctx.type = 'application/json';
  ctx.vary('Accept-Encoding');
  if (answer.json.length >= MIN_GZIP_BYTES && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    answer.gzip ??= gzipped(answer.json);
    const body = await answer.gzip;
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = body;
    return;
  }
  ctx.body = answer.json;
}
