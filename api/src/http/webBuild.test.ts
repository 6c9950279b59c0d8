import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { listen } from '../server';
import { startTestApi, type TestApi } from '../testing/harness';
import { chooseEncoding } from './webBuild';

const webDist = mkdtempSync(join(tmpdir(), 'topline-web-build-'));
const INDEX = `<!doctype html><html><head><script src="/config.js"></script></head><body>${'<div></div>'.repeat(50)}</body></html>`;
const SCRIPT = `export const screens = [${Array.from({ length: 400 }, (_, i) => `"screen-${i}"`).join(',')}];\n`;
let api: TestApi;
let server: Server;
let base: string;

/** Writes a file of the build with the compressed copies the web build writes beside it. */
function writeBuilt(path: string, text: string): void {
  writeFileSync(join(webDist, path), text);
  writeFileSync(join(webDist, `${path}.br`), brotliCompressSync(text));
  writeFileSync(join(webDist, `${path}.gz`), gzipSync(text));
}

beforeAll(async () => {
  mkdirSync(join(webDist, 'assets'));
  mkdirSync(join(webDist, '.vite'));
  writeBuilt('index.html', INDEX);
  writeBuilt('assets/index-Bx3kQ9aZ.js', SCRIPT);
  writeFileSync(join(webDist, 'assets/logo-C1a2b3c4.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
  writeFileSync(join(webDist, '.vite/manifest.json'), '{}');
  api = await startTestApi();
  const app = createApp({
    db: api.db,
    config: api.config,
    mailer: { send: async () => {} },
    logger: { info: () => {}, error: () => {} },
    workbooks: api.workbooks,
    accessCache: api.accessCache,
    webDist,
  });
  server = await listen(app.callback(), 0, '127.0.0.1');
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await api?.close();
  rmSync(webDist, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they crossed the wire, still encoded. */
  body: Buffer;
}

/** A GET with exactly the headers given: fetch would add its own Accept-Encoding and decode the answer. */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(new URL(path, base), { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

const CHROMIUM = 'gzip, deflate, br, zstd';

describe('the web build as served', () => {
  it('sends a hashed script in brotli to a browser that reads it, kept for a year', async () => {
    const answer = await get('/assets/index-Bx3kQ9aZ.js', { 'Accept-Encoding': CHROMIUM });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(SCRIPT.length / 3);
    expect(brotliDecompressSync(answer.body).toString()).toBe(SCRIPT);
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('sends gzip to a client that reads gzip only, and the file as it is to one that reads neither', async () => {
    const gzipped = await get('/assets/index-Bx3kQ9aZ.js', { 'Accept-Encoding': 'gzip, deflate' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(SCRIPT);
    expect(gzipped.headers.vary).toMatch(/Accept-Encoding/i);

    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const plain = await get('/assets/index-Bx3kQ9aZ.js', accept ? { 'Accept-Encoding': accept } : {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(SCRIPT);
      expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('sends a file the build did not compress as it is', async () => {
    const answer = await get('/assets/logo-C1a2b3c4.png', { 'Accept-Encoding': CHROMIUM });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/png');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.length).toBe(7);
  });

  it('revalidates index.html by its ETag, for every path the web app routes', async () => {
    for (const path of ['/', '/index.html', '/plans/12/monthly-pl']) {
      const first = await get(path, { 'Accept-Encoding': CHROMIUM });
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toMatch(/^text\/html/);
      expect(first.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(first.body).toString()).toBe(INDEX);
      expect(first.headers['cache-control']).toBe('no-cache');
      const etag = first.headers.etag ?? '';
      expect(etag).toMatch(/^"/);

      const again = await get(path, { 'Accept-Encoding': CHROMIUM, 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['content-security-policy']).toContain("default-src 'self'");

      // Another encoding's bytes are another representation: the brotli copy's validator does not match them.
      const gzipped = await get(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': etag });
      expect(gzipped.status).toBe(200);
      expect(gzipped.headers.etag).not.toBe(etag);
      expect(gunzipSync(gzipped.body).toString()).toBe(INDEX);
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const answer = await get('/assets/index-Bx3kQ9aZ.js', { 'Accept-Encoding': CHROMIUM }, 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.body.length).toBe(0);
  });

  it('gives a missing asset a 404 rather than the page, and keeps the build manifest to itself', async () => {
    const missing = await get('/assets/index-Old0Hash.js', { 'Accept-Encoding': CHROMIUM });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type'] ?? '').not.toMatch(/html/);
    const manifest = await get('/.vite/manifest.json');
    expect(manifest.headers['content-type']).toMatch(/^text\/html/);
    expect(manifest.body.toString()).toBe(INDEX);
  });

  it('revalidates the runtime configuration by its ETag', async () => {
    const first = await get('/config.js');
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.body.toString()).toContain('window.TOPLINE_CONFIG');
    const etag = first.headers.etag ?? '';
    expect(etag).toMatch(/^"/);
    const again = await get('/config.js', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const changed = await get('/config.js', { 'If-None-Match': '"another"' });
    expect(changed.status).toBe(200);
  });

  it('leaves the API answers to the API', async () => {
    const answer = await get('/api/v1/no-such-call', { 'Accept-Encoding': CHROMIUM });
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/json/);
  });
});

describe('chooseEncoding', () => {
  const all = ['br', 'gzip', 'identity'] as const;
  it('prefers brotli, then gzip, whatever order the header lists them in', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', all)).toBe('br');
    expect(chooseEncoding('gzip;q=0.5, br;q=0.1', all)).toBe('br');
    expect(chooseEncoding('gzip, deflate, br', ['gzip', 'identity'])).toBe('gzip');
    expect(chooseEncoding('*', all)).toBe('br');
  });
  it('honours a refusal', () => {
    expect(chooseEncoding('br;q=0, gzip', all)).toBe('gzip');
    expect(chooseEncoding('*;q=0, gzip', all)).toBe('gzip');
    expect(chooseEncoding('br;q=0, *;q=0', all)).toBeNull();
    expect(chooseEncoding(undefined, all)).toBe('identity');
    expect(chooseEncoding('', all)).toBe('identity');
  });
});
