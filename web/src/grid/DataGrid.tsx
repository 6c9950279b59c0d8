/**
 * The working screens' grid. AG Grid is the largest script a screen needs, and setting it up the longest step of a
 * cold screen, so the first grid of a page paints its rows as a plain table at once (`FirstPaint.tsx`) and AG Grid,
 * loaded meanwhile (`loadGrid.ts`), is set up after that paint; once it has drawn its rows, hidden under the table,
 * the table goes. Later grids of the page (a screen opened from the side menu) are AG Grid from the start.
 */
import { useCallback, useEffect, useState } from 'react';
import { FirstPaint } from './FirstPaint';
import type { DataGridProps } from './gridLayout';
import { type Grid, loadedGrid, loadGrid } from './loadGrid';

/** Whether a grid of this page has drawn its rows: the first paint is for a page's first grid only. */
let drawn = false;

export function DataGrid<Row>(props: DataGridProps<Row>) {
  const [Grid, setGrid] = useState<Grid | undefined>(() => (drawn ? loadedGrid() : undefined));
  // Whether the grid has drawn its rows: until then the first paint stays over it.
  const [shown, setShown] = useState(Grid !== undefined);
  const [failed, setFailed] = useState<unknown>(null);
  useEffect(() => {
    if (Grid) return;
    let live = true;
    // Set up once the first paint is on the screen (effects run after it is committed).
    loadGrid().then(
      (grid) => live && setGrid(() => grid),
      (error: unknown) => live && setFailed(error),
    );
    return () => {
      live = false;
    };
  }, [Grid]);
  const onShown = useCallback(() => {
    drawn = true;
    setShown(true);
  }, []);
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
