/**
 * The build plugin behind `virtual:grid-chunk-url`, in a file of its own so that the test configuration
 * (`vitest.config.ts`), whose runs import the web's modules too, resolves the same module (null there).
 */
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The module whose address `gridChunkUrl` gives, and the id it is imported by. */
const GRID_MODULE = resolve(import.meta.dirname, 'src/grid/AgDataGrid.tsx');
const GRID_URL_ID = 'virtual:grid-chunk-url';

/**
 * `virtual:grid-chunk-url`: the address of AG Grid's chunk in the build, so that a cold grid screen can have the
 * browser fetch and compile it (`<link rel="modulepreload">`) without running it before the screen's first paint
 * (`src/grid/loadGrid.ts`). The bundler writes the final, hashed name in; outside a build (the dev server, component
 * tests) it is null and the grid loads when first shown.
 */
export function gridChunkUrl(): Plugin {
  let building = false;
  return {
    name: 'topline-grid-chunk-url',
    configResolved(config) {
      building = config.command === 'build';
    },
    resolveId(id) {
      return id === GRID_URL_ID ? `\0${GRID_URL_ID}` : undefined;
    },
    load(id) {
      if (id !== `\0${GRID_URL_ID}`) return undefined;
      if (!building) return 'export default null;';
      const reference = this.emitFile({ type: 'chunk', id: GRID_MODULE });
      return `export default import.meta.ROLLUP_FILE_URL_${reference};`;
    },
  };
}
