import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type Koa from 'koa';

/** The encodings a file may be sent in, the server's preference first. */
const ENCODINGS = ['br', 'gzip', 'identity'] as const;
type Encoding = (typeof ENCODINGS)[number];
/** Where the build writes each encoding's copy, beside the file itself. */
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz', identity: '' };

/** A content-hashed name never changes content: a browser keeps it a year and never asks again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Any other file keeps its name across builds: a browser keeps it but asks each time whether it changed. */
const REVALIDATE = 'no-cache';
/** Vite writes every content-hashed file, and only those, under /assets/. */
const HASHED = '/assets/';

interface Variant {
  body: Buffer;
  etag: string;
}

interface WebFile {
  /** The extension, for the Content-Type. */
  type: string;
  cacheControl: string;
  variants: Partial<Record<Encoding, Variant>> & { identity: Variant };
}

/** Every file of the build by its URL path, each with the compressed copies the build wrote beside it. */
function readBuild(root: string): Map<string, WebFile> {
  const files = new Map<string, WebFile>();
  const walk = (dir: string, urlPath: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // Dot files (the build's .vite manifest) are the build's own, not the site's.
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      const url = `${urlPath}/${entry.name}`;
      if (entry.isDirectory()) walk(path, url);
      else if (!entry.name.endsWith('.br') && !entry.name.endsWith('.gz')) files.set(url, readFile(path, url));
    }
  };
  walk(root, '');
  return files;
}

function readFile(path: string, url: string): WebFile {
  const body = readFileSync(path);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const variants: WebFile['variants'] = { identity: { body, etag: `"${hash}"` } };
  for (const encoding of ['br', 'gzip'] as const) {
    const copy = readOptional(path + SUFFIX[encoding]);
    // Each encoding's bytes differ, so each has its own validator.
    if (copy) variants[encoding] = { body: copy, etag: `"${hash}-${encoding}"` };
  }
  return { type: extname(path), cacheControl: url.startsWith(HASHED) ? IMMUTABLE : REVALIDATE, variants };
}

function readOptional(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/**
 * The q-value `header` gives `encoding`: its own entry's, else the `*` entry's; identity is acceptable unless refused.
 */
function quality(header: string, encoding: Encoding): number {
  let wildcard: number | null = null;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    const value = q ? Number.parseFloat(q.slice(2)) : 1;
    const weight = Number.isNaN(value) ? 0 : value;
    if (name.toLowerCase() === encoding) return weight;
    if (name === '*') wildcard = weight;
  }
  return wildcard ?? (encoding === 'identity' ? 1 : 0);
}

/**
 * The encoding to send: the best compression the client accepts and the build has. The server's preference decides
 * rather than the header's order, as browsers list gzip before br yet read both.
 */
export function chooseEncoding(header: string | undefined, available: readonly Encoding[]): Encoding | null {
  for (const encoding of ENCODINGS)
    if (available.includes(encoding) && quality(header ?? '', encoding) > 0) return encoding;
  return null;
}

function send(ctx: Koa.Context, file: WebFile): void {
  const available = ENCODINGS.filter((encoding) => file.variants[encoding]);
  // A client that refuses even identity still gets the file as it is (RFC 9110 allows it; a 406 helps no one).
  const encoding = chooseEncoding(ctx.get('Accept-Encoding'), available) ?? 'identity';
  const variant = file.variants[encoding] ?? file.variants.identity;
  ctx.vary('Accept-Encoding');
  ctx.status = 200;
  ctx.type = file.type;
  ctx.set('Cache-Control', file.cacheControl);
  ctx.etag = variant.etag;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
  ctx.body = variant.body;
}

/**
 * Serves the web build as a CDN would: each file in the compression the browser accepts, made once by the build
 * (web/vite.config.ts), never per request; hashed assets cached for good, every other file (index.html) revalidated
 * by its ETag. Paths the build does not hold get index.html, as the web app routes in the browser, except under
 * /assets/, where a missing file is a 404 rather than a page a script tag would read as code.
 */
export function serveWebBuild(root: string): Koa.Middleware {
  const files = readBuild(root);
  const index = files.get('/index.html');
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api/')) return next();
    const file = files.get(ctx.path === '/' ? '/index.html' : ctx.path);
    if (file) return send(ctx, file);
    await next();
    if (ctx.status === 404 && ctx.body === undefined && index && !ctx.path.startsWith(HASHED)) send(ctx, index);
  };
}
