/**
 * The working screens' grid. AG Grid is the largest script a screen needs (its chunk: `AgDataGrid.tsx`), so a grid
 * first shown before that chunk has loaded paints its rows as a plain table at once (`FirstPaint.tsx`) and asks for the
 * chunk only then, so that loading and starting AG Grid does not hold the numbers back. Once the grid has drawn its
 * rows, hidden under the table, the table goes. A grid shown after the chunk has loaded (a screen opened from the side
 * menu) is AG Grid from the start.
 */
import { type ComponentType, useCallback, useEffect, useState } from 'react';
import { FirstPaint } from './FirstPaint';
import type { DataGridProps } from './gridLayout';

type Grid = ComponentType<DataGridProps<unknown> & { onShown?: () => void }>;

let loaded: Grid | undefined;
let loading: Promise<Grid> | undefined;

/** Loads AG Grid's chunk (once; again after a failure). */
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

export function DataGrid<Row>(props: DataGridProps<Row>) {
  const [Grid, setGrid] = useState<Grid | undefined>(() => loaded);
  // Whether the grid has drawn its rows: until then the first paint stays over it.
  const [shown, setShown] = useState(Grid !== undefined);
  const [failed, setFailed] = useState<unknown>(null);
  useEffect(() => {
    if (Grid) return;
    let live = true;
    // Asked for once the first paint is on the screen (effects run after it is committed).
    loadGrid().then(
      (grid) => live && setGrid(() => grid),
      (error: unknown) => live && setFailed(error),
    );
    return () => {
      live = false;
    };
  }, [Grid]);
  const onShown = useCallback(() => setShown(true), []);
  // A chunk that could not load shows as any screen's failure does (the app's error boundary).
  if (failed) throw failed;
  return (
    <div className="data-grid-frame">
      {Grid && <Grid {...(props as DataGridProps<unknown>)} {...(shown ? {} : { onShown })} />}
      {!shown && <FirstPaint {...props} overlaid={Grid !== undefined} />}
    </div>
  );
}

export type { ColDef, GridApi } from 'ag-grid-community';
