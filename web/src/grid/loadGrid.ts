/**
 * AG Grid's chunk (`AgDataGrid.tsx`), loaded once per page: by the first grid shown (`DataGrid.tsx`), or ahead of need
 * by a cold start on a grid screen and by the side menu's idle prefetch (`shell/preload.ts`).
 */

import gridChunkUrl from 'virtual:grid-chunk-url';
import type { ComponentType } from 'react';
import type { DataGridProps } from './gridLayout';

export type Grid = ComponentType<DataGridProps<unknown> & { onShown?: () => void }>;

let loaded: Grid | undefined;
let loading: Promise<Grid> | undefined;

/** Loads the grid's chunk (once; again after a failure); resolves to the grid. */
export function loadGrid(): Promise<Grid> {
  loading ??= import('./AgDataGrid').then(
    (module) => {
      loaded = module.default as Grid;
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The grid, once its chunk has loaded. */
export const loadedGrid = (): Grid | undefined => loaded;

/**
 * Has the browser fetch and compile the grid's chunk without running it (a module preload), where the build names it:
 * a cold grid screen then sets the grid up right after its first paint, without waiting for the chunk, and without
 * running it before that paint.
 */
export function prefetchGrid(): void {
  if (loaded || loading || !gridChunkUrl || document.querySelector(`link[href="${gridChunkUrl}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = gridChunkUrl;
  document.head.append(link);
}
