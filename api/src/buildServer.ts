/**
 * Builds the server to plain JavaScript for `npm run serve`: `api/dist/server/main.js` (the service),
 * `migrate.js` (`npm run migrate`), `xlsxWorker.js` (the XLSX reader's thread) and `xlsxExportWorker.js` (the XLSX
 * writer's). The workspace packages (`@topline/engine`, `@topline/contract`) and the migrations are TypeScript and are
 * bundled in; every other package is left to Node to load from node_modules, as installed.
 * Run as `tsx api/src/buildServer.ts [outdir]`.
 */
import { resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

const API = resolve(import.meta.dirname, '..');
/** Three folders below the repository's root, as `src/routes/` is: paths a module finds from its own are kept. */
export const SERVER_DIST = resolve(API, 'dist', 'server');

/** Packages stay outside the bundle, except the workspace's own, which are TypeScript sources. */
const packagesOutside: Plugin = {
  name: 'packages-outside',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@topline/') ? undefined : { path: args.path, external: true },
    );
  },
};

export async function buildServer(outdir = SERVER_DIST): Promise<void> {
  await build({
    entryPoints: ['main', 'migrate', 'services/spreadsheets/xlsxWorker', 'services/spreadsheets/xlsxExportWorker'].map(
      (name) => resolve(API, 'src', `${name}.ts`),
    ),
    outdir,
    entryNames: '[name]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    plugins: [packagesOutside],
    logLevel: 'warning',
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await buildServer(process.argv[2] ? resolve(process.argv[2]) : SERVER_DIST);
}
