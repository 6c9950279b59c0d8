/**
 * Web budget of DESIGN.md ("Performance budgets"): the JavaScript the landing page and the app shell load first, as
 * served (the bytes the API sends Chromium, which accepts brotli), against `plotly.js-basic-dist-min` gzipped. "Load
 * first" means the entry script and every chunk it or the shell's chunk imports statically; chunks behind dynamic
 * imports (screens, the engine, charts, grids) are left out. Printed, never asserted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import Koa from 'koa';
import { build } from 'vite';
import { serveWebBuild } from '../api/src/http/webBuild';
import { listen } from '../api/src/server';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const WEB_ROOT = resolve(import.meta.dirname, '../web');
/** What Chromium asks for over http://127.0.0.1 and https. */
const CHROMIUM_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

function gzipSize(path: string): number {
  return gzipSync(readFileSync(path), { level: 9 }).length;
}

/** The chunk files `key` loads statically, itself included. */
function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const next of manifest[key]?.imports ?? []) staticClosure(manifest, next, seen);
  return seen;
}

/** The body bytes the server sends for `path` to a client asking as Chromium does, and their encoding. */
function served(base: string, path: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      new URL(path, base),
      { headers: { 'Accept-Encoding': CHROMIUM_ACCEPT_ENCODING } },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`${path}: ${response.statusCode}`));
          else resolve({ bytes, encoding: response.headers['content-encoding'] ?? 'identity' });
        });
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

async function totalServed(
  base: string,
  manifest: Manifest,
  keys: Iterable<string>,
): Promise<{ bytes: number; encodings: Set<string> }> {
  let bytes = 0;
  const encodings = new Set<string>();
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk?.file.endsWith('.js')) continue;
    const answer = await served(base, `/${chunk.file}`);
    bytes += answer.bytes;
    encodings.add(answer.encoding);
  }
  return { bytes, encodings };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export async function run(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'topline-bench-web-'));
  try {
    await build({ root: WEB_ROOT, logLevel: 'error', build: { outDir, emptyOutDir: true, manifest: true } });
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
    const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
    if (!entry) throw new Error('the web build has no entry chunk');
    const landing = staticClosure(manifest, entry);
    const shellKey = Object.keys(manifest).find((key) => key.endsWith('shell/PlanShell.tsx'));
    const shell = new Set([...landing, ...(shellKey ? staticClosure(manifest, shellKey) : [])]);

    const plotlyPath = createRequire(join(WEB_ROOT, 'package.json')).resolve(
      'plotly.js-basic-dist-min/plotly-basic.min.js',
    );
    const plotly = gzipSize(plotlyPath);
    // The build as the API serves it, in the copies the build compressed.
    const server = await listen(new Koa().use(serveWebBuild(outDir)).callback(), 0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const landingServed = await totalServed(base, manifest, landing);
      const shellServed = await totalServed(base, manifest, shell);
      const as = (encodings: Set<string>) => [...encodings].join('+');
      console.log(`   plotly.js-basic-dist-min, gzipped                 ${kb(plotly)}`);
      console.log(
        `   landing page first JS, as served (${as(landingServed.encodings)})         ${kb(landingServed.bytes)}  ratio ${(landingServed.bytes / plotly).toFixed(3)} (budget < 1)`,
      );
      console.log(
        `   app shell first JS (entry + shell), as served (${as(shellServed.encodings)}) ${kb(shellServed.bytes)}  ratio ${(shellServed.bytes / plotly).toFixed(3)} (budget < 1)`,
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
