/**
 * The memory a workbook holds, as `patches/hyperformula+3.5.0.patch` makes it: a formula's parsed form (its AST) is
 * shared by every cell whose formula reads alike (HyperFormula 3.5.0 copied it for each cell while ordering the ends of
 * its ranges), and a cell's short list of dependents has no room to spare (a push left room for 16 more ids). Both of
 * the package's builds are checked; each check fails without its part of the patch, and the values, edits and
 * structural changes around shared ASTs answer what hand arithmetic gives. HYPERLINK, which writes its URL on its node
 * when evaluated, keeps a node per cell.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { HyperFormula as HyperFormulaType } from 'hyperformula';
import { describe, expect, it } from 'vitest';
import { HYPERFORMULA_BUILDS, type HyperFormulaBuild, hyperformulaExport } from './testing';

const load = (build: HyperFormulaBuild) => hyperformulaExport<typeof HyperFormulaType>(build, 'index', 'HyperFormula');

interface RangeAst {
  type: string;
  start: { row: number };
  end: { row: number };
}

/** The parsed formula HyperFormula keeps for a cell (its vertex's AST), read through its internal graph. */
function astOf(hf: HyperFormulaType, row: number, col: number): { args?: RangeAst[] } {
  const internal = hf as unknown as {
    dependencyGraph: { getCell(address: object): { getFormula(service: unknown): { args?: RangeAst[] } } };
    lazilyTransformingAstService: unknown;
  };
  const vertex = internal.dependencyGraph.getCell({ sheet: 0, row, col });
  return vertex.getFormula(internal.lazilyTransformingAstService);
}

const CONFIG = { licenseKey: 'gpl-v3' };
const ROWS = 50;

/** A{r} = r; B{r} = A{r} x 2 + SUM(A{r}:A{r+1}) = 4r + 1; C{r} = SUM(A{r+1}:A{r}) = 2r + 1, its range written reversed. */
const sheet = (): (number | string)[][] =>
  Array.from({ length: ROWS + 1 }, (_, i) => {
    const r = i + 1;
    return r > ROWS ? [r] : [r, `=A${r}*2+SUM(A${r}:A${r + 1})`, `=SUM(A${r + 1}:A${r})`];
  });

/** `gc()` without starting node with --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe.each(Object.entries(HYPERFORMULA_BUILDS))('HyperFormula memory, patched (%s)', (_, build) => {
  it('shares the parsed formula of cells that read alike, and orders a reversed range', async () => {
    const HyperFormula = await load(build);
    const hf = HyperFormula.buildFromArray(sheet(), CONFIG);
    try {
      const first = astOf(hf, 0, 1);
      // Fails without the patch, which gave each cell its own copy.
      for (let row = 1; row < ROWS; row++) expect(astOf(hf, row, 1)).toBe(first);
      for (let row = 0; row < ROWS; row++) {
        const r = row + 1;
        expect(hf.getCellValue({ sheet: 0, row, col: 1 })).toBe(4 * r + 1);
        expect(hf.getCellValue({ sheet: 0, row, col: 2 })).toBe(2 * r + 1);
        // The reversed range is kept in order: its start is the row above its end.
        const range = astOf(hf, row, 2).args?.[0];
        expect(range?.type).toBe('CELL_RANGE');
        expect((range?.end.row ?? 0) - (range?.start.row ?? 0)).toBe(1);
      }
      // An edit, then a row inserted above everything: the shared formula is transformed, not changed in place.
      hf.setCellContents({ sheet: 0, row: 4, col: 0 }, 100);
      expect(hf.getCellValue({ sheet: 0, row: 3, col: 1 })).toBe(8 + 4 + 100);
      expect(hf.getCellValue({ sheet: 0, row: 4, col: 1 })).toBe(200 + 100 + 6);
      expect(hf.getCellValue({ sheet: 0, row: 3, col: 2 })).toBe(4 + 100);
      expect(hf.getCellValue({ sheet: 0, row: 4, col: 2 })).toBe(100 + 6);
      hf.addRows(0, [0, 1]);
      expect(hf.getCellFormula({ sheet: 0, row: 5, col: 1 })).toBe('=A6*2+SUM(A6:A7)');
      expect(hf.getCellFormula({ sheet: 0, row: 5, col: 2 })).toBe('=SUM(A6:A7)');
      expect(hf.getCellValue({ sheet: 0, row: 5, col: 1 })).toBe(200 + 100 + 6);
      expect(hf.getCellValue({ sheet: 0, row: 1, col: 1 })).toBe(5);
      expect(hf.getCellValue({ sheet: 0, row: ROWS, col: 2 })).toBe(2 * ROWS + 1);
      hf.setCellContents({ sheet: 0, row: 1, col: 0 }, 10);
      expect(hf.getCellValue({ sheet: 0, row: 1, col: 1 })).toBe(20 + 10 + 2);
      expect(hf.getCellValue({ sheet: 0, row: 2, col: 1 })).toBe(4 + 2 + 3);
    } finally {
      hf.destroy();
    }
  });

  it("keeps each HYPERLINK cell's own link, which HyperFormula writes on the formula's node", async () => {
    const HyperFormula = await load(build);
    // B1 and B2 read alike (a link to the cell on their left), so they would share one node.
    const hf = HyperFormula.buildFromArray(
      [
        ['https://a.example', '=HYPERLINK(A1)'],
        ['https://b.example', '=HYPERLINK(A2)'],
      ],
      CONFIG,
    );
    try {
      expect(hf.getCellHyperlink({ sheet: 0, row: 0, col: 1 })).toBe('https://a.example');
      expect(hf.getCellHyperlink({ sheet: 0, row: 1, col: 1 })).toBe('https://b.example');
      expect(astOf(hf, 0, 1)).not.toBe(astOf(hf, 1, 1));
    } finally {
      hf.destroy();
    }
  });

  it('keeps a cell with one dependent without room for more', async () => {
    const HyperFormula = await load(build);
    const gc = collector();
    const rows = 20_000;
    const kept: HyperFormulaType[] = [];
    /** Heap held per row by a sheet of `rows` numbers in A and the formula `formula(row)` in B. */
    const held = (formula: (r: number) => string) => {
      gc();
      gc();
      const before = process.memoryUsage().heapUsed;
      kept.push(
        HyperFormula.buildFromArray(
          Array.from({ length: rows }, (_, i) => [i, formula(i + 1)]),
          CONFIG,
        ),
      );
      gc();
      gc();
      return (process.memoryUsage().heapUsed - before) / rows;
    };
    HyperFormula.buildFromArray([[1, '=A1']], CONFIG).destroy();
    try {
      // Every A cell with one dependent, against none (every B reads C1): the difference is the lists of dependents.
      // About 60 bytes a row with the patch; about 190 without it, each list having room for 16 more ids.
      const one = held((r) => `=A${r}`);
      const none = held(() => '=$C$1');
      expect(one - none).toBeLessThan(120);
      expect(kept[0]?.getCellValue({ sheet: 0, row: 9, col: 1 })).toBe(9);
    } finally {
      for (const hf of kept) hf.destroy();
    }
  });
});
