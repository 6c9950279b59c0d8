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
  /** `gzip` once it has resolved. */
  gzipped?: Buffer;
}

const cachedAnswer = (body: unknown): CachedAnswer => ({ json: Buffer.from(JSON.stringify(body)) });

/** Answers being computed, by the map they will be kept in and their key. */
const computing = new WeakMap<Map<string, CachedAnswer>, Map<string, Promise<CachedAnswer>>>();

/**
 * The answer kept in `answers` under `key`, else `body()` serialised and kept. Reads that miss the same answer while
 * it is computed share that one computation: right after a plan's new version, every reader of a screen misses it
 * at once.
 */
export async function cachedOnce(
  answers: Map<string, CachedAnswer>,
  key: string,
  body: () => Promise<unknown>,
): Promise<CachedAnswer> {
  const kept = answers.get(key);
  if (kept) return kept;
  const inFlight = computing.get(answers) ?? new Map<string, Promise<CachedAnswer>>();
  computing.set(answers, inFlight);
  let answer = inFlight.get(key);
  if (!answer) {
    answer = body()
      .then((value) => {
        const serialised = cachedAnswer(value);
        answers.set(key, serialised);
        return serialised;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, answer);
  }
  return answer;
}

/**
 * Sends a cached answer, gzipped for clients that accept it (every browser does). The gzip is made once per answer,
 * off the event loop, so a warm read costs the same either way.
 */
export async function sendCached(ctx: AppContext, answer: CachedAnswer): Promise<void> {
  if (sendCachedNow(ctx, answer)) return;
  answer.gzip ??= gzipped(answer.json).then(
    (body) => {
      answer.gzipped = body;
      return body;
    },
    (error: unknown) => {
      // Not kept: the next read tries again.
      answer.gzip = undefined;
      throw error;
    },
  );
  send(ctx, await answer.gzip, 'gzip');
}

/** Sends a cached answer if nothing needs waiting for (its gzip, when wanted, is made); answers whether it did. */
function sendCachedNow(ctx: AppContext, answer: CachedAnswer): boolean {
  const wantsGzip = answer.json.length >= MIN_GZIP_BYTES && ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  if (!wantsGzip) send(ctx, answer.json, null);
  else if (answer.gzipped) send(ctx, answer.gzipped, 'gzip');
  else return false;
  return true;
}

function send(ctx: AppContext, body: Buffer, encoding: 'gzip' | null): void {
  ctx.type = 'application/json';
  ctx.vary('Accept-Encoding');
  if (encoding) ctx.set('Content-Encoding', encoding);
  ctx.body = body;
}
