import { describe, expect, it } from 'vitest';
import { columnWidths } from './formats';

/** The widths as every figure formatted in full gives them. */
function naiveWidths(grid: (string | number | null)[][]): number[] {
  const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  const columns = Math.max(0, ...grid.map((r) => r.length));
  return Array.from({ length: columns }, (_, c) => {
    const chars = Math.max(
      0,
      ...grid.map((row) => {
        const v = row[c] ?? null;
        return typeof v === 'number' ? grouped.format(v).length : (v ?? '').length;
      }),
    );
    return c === 0 ? Math.min(48, Math.max(12, chars + 2)) : Math.min(24, Math.max(10, chars + 3));
  });
}

describe('column widths', () => {
  it('fit the widest formatted figure, as formatting every figure gives', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const edges = [0, -0.001, 0.005, 999.995, -999.995, 9999.999, 99_999.5, 1e14 - 0.001, 1e15, -1e20, 1e21, 123.456];
    const grid: (string | number | null)[][] = Array.from({ length: 60 }, (_, r) =>
      Array.from({ length: 8 }, (_, c) => {
        if (c === 0) return `label ${r}`;
        if (r < edges.length && c === 1) return edges[r] ?? 0;
        const scale = 10 ** Math.floor(random() * (c * 2 + 1));
        return (random() - 0.3) * scale;
      }),
    );
    expect(columnWidths(grid, grid)).toEqual(naiveWidths(grid));
    for (const v of edges) expect(columnWidths([[null, v]], [[null, v]])).toEqual(naiveWidths([[null, v]]));
  });
});
