/**
 * Web budget of DESIGN.md ("Performance budgets"): the gzipped JavaScript the landing page and the app shell load
 * first, against `plotly.js-basic-dist-min` gzipped. "Load first" means the entry script and every chunk it or the
 * shell's chunk imports statically; chunks behind dynamic imports (screens, the engine, charts, grids) are left out.
 * Printed, never asserted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const WEB_ROOT = resolve(import.meta.dirname, '../web');

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

function totalGzip(outDir: string, manifest: Manifest, keys: Iterable<string>): number {
  let total = 0;
  for (const key of keys) {
    const chunk = manifest[key];
    if (chunk?.file.endsWith('.js')) total += gzipSize(join(outDir, chunk.file));
  }
  return total;
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
    const landingBytes = totalGzip(outDir, manifest, landing);
    const shellBytes = totalGzip(outDir, manifest, shell);
    console.log(`   plotly.js-basic-dist-min, gzipped          ${kb(plotly)}`);
    console.log(
      `   landing page first JS, gzipped             ${kb(landingBytes)}  ratio ${(landingBytes / plotly).toFixed(3)} (budget < 1)`,
    );
    console.log(
      `   app shell first JS (entry + shell), gzipped ${kb(shellBytes)}  ratio ${(shellBytes / plotly).toFixed(3)} (budget < 1)`,
    );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
