/**
 * How a worker thread of the API starts. Built (`npm run build`), the server is JavaScript with each worker's own file
 * beside it (`buildServer.ts` lists them). From source, a worker is TypeScript: it loads through tsx's loader, which
 * `npm start` and the tests run under.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** The script and `eval` option of `new Worker` for the worker module `name` beside this file (`xlsxWorker`). */
export function workerBoot(name: string): { script: string | URL; eval: boolean } {
  if (import.meta.url.endsWith('.js')) return { script: new URL(`./${name}.js`, import.meta.url), eval: false };
  const worker = new URL(`./${name}.ts`, import.meta.url).href;
  // tsx's ESM API beside the CommonJS one `require` resolves (its export map has both); the CommonJS one cannot
  // register the loader of a worker.
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const script = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(worker)}, ${JSON.stringify(worker)}));`;
  return { script, eval: true };
}
