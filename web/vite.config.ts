import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { gridChunkUrl } from './gridChunkUrl';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text files worth compressing; images and fonts are compressed formats already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map|wasm)$/;

/** Every file under `dir`, its path relative to it. */
async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = join(prefix, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(dir, path)));
    else found.push(path);
  }
  return found;
}

/**
 * Writes `x.br` and `x.gz` beside each text file of the build, at the strongest settings, once per build: the API
 * sends the one the browser accepts as it is, so no request pays for compression. A variant that saves nothing is not
 * written, and the file then goes as it is.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'topline-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const raw = await readFile(path);
          const [br, gz] = await Promise.all([
            brotli(raw, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: (await stat(path)).size,
              },
            }),
            gzipped(raw, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < raw.length) await writeFile(`${path}.br`, br);
          if (gz.length < raw.length) await writeFile(`${path}.gz`, gz);
        }),
      );
    },
  };
}

const SOURCE = `${resolve(import.meta.dirname, 'src')}/`;
const ENTRY = `${SOURCE}main.tsx`;
/** The lazily loaded parts of the plan pages: the shell, its settings and the screens. */
const PLAN_PARTS = /\/src\/(shell\/PlanShell|settings\/SettingsModal|screens\/[A-Za-z]+Screen)\.tsx$/;

interface ModuleLinks {
  importedIds: readonly string[];
  dynamicallyImportedIds: readonly string[];
}
type InfoOf = (id: string) => ModuleLinks | null;

/** The modules reached from `from` through `next`, transitively. */
function closure(from: readonly string[], next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...from];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...next(id));
  }
  return seen;
}

/**
 * The app's own modules that only the plan pages' lazily loaded parts share: not run by the entry, not used by the
 * other pages (sign-in, the wizard, the legal pages...), not lazily loaded themselves.
 */
function planShared(infoOf: InfoOf): Set<string> {
  const statically = (id: string) => infoOf(id)?.importedIds ?? [];
  const lazily = (id: string) => infoOf(id)?.dynamicallyImportedIds ?? [];
  const app = closure([ENTRY], (id) => [...statically(id), ...lazily(id)]);
  const lazy = new Set([...app].flatMap(lazily));
  const entry = closure([ENTRY], statically);
  const plan = closure(
    [...lazy].filter((id) => PLAN_PARTS.test(id)),
    statically,
  );
  const other = closure(
    [...lazy].filter((id) => !PLAN_PARTS.test(id)),
    statically,
  );
  return new Set([...plan].filter((id) => id.startsWith(SOURCE) && !lazy.has(id) && !entry.has(id) && !other.has(id)));
}

/**
 * Puts the modules of `planShared` in one chunk, `plan-shared`, so that a plan page loads the code its shell and
 * screens share in one request instead of some twenty small ones over the browser's six connections to a server;
 * every other module goes where the bundler puts it. Their own dependencies stay where they are (the entry's chunk,
 * the libraries', a few small chunks the other pages share too): none is drawn into this chunk.
 */
function planSharedChunk(): Plugin {
  let shared: Set<string> | undefined;
  const name = (id: string, ctx: { getModuleInfo: InfoOf }) => {
    shared ??= planShared((module) => ctx.getModuleInfo(module));
    return shared.has(id) ? 'plan-shared' : null;
  };
  return {
    name: 'topline-plan-shared-chunk',
    apply: 'build',
    buildStart() {
      shared = undefined;
    },
    config: () => ({
      build: {
        rolldownOptions: {
          output: { codeSplitting: { groups: [{ name, minShareCount: 2, includeDependenciesRecursively: false }] } },
        },
      },
    }),
  };
}

// The API serves web/dist under `npm start`; in development Vite proxies /api and /config.js (the deployment's links
// and landing content) to it.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), gridChunkUrl(), planSharedChunk(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/config.js': 'http://localhost:3000' },
  },
});
