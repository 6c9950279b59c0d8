/**
 * HyperFormula's list of changed cells as `patches/hyperformula+3.5.0.patch` makes it (a number key per cell where the
 * address allows, the address's string elsewhere) answers exactly what HyperFormula 3.5.0's own list answers: each
 * changed cell once, with its last value, in the order the cells first changed, and a range value's cells dropped.
 * Both of the package's builds are checked, and so is a recalculation through HyperFormula itself across the bounds
 * of the number key.
 */
import { HyperFormula } from 'hyperformula';
import { describe, expect, it } from 'vitest';
import { HYPERFORMULA_BUILDS, hyperformulaExport, seededRandom } from './testing';

interface Address {
  sheet: number;
  row: number;
  col: number;
}

interface Change {
  address: Address;
  value: unknown;
  oldValue?: unknown;
}

interface ContentChangesClass {
  empty(): {
    changes: Map<unknown, Change>;
    add(address: Address, change: Change): void;
    addChange(value: unknown, address: Address): void;
    addAll(other: unknown): unknown;
    getChanges(): Change[];
  };
}

interface RangeValueClass {
  onlyValues(data: unknown[][]): unknown;
}

/**
 * HyperFormula 3.5.0's `ContentChanges.add` as published (src/ContentChanges.ts, Copyright (c) 2025 Handsoncode,
 * GPL-3.0): changes keyed by `sheet,row,col`; a range value first drops the cells it covers. The reference.
 */
function referenceAdd(changes: Map<string, Change>, address: Address, change: Change, covered: Address[]): void {
  const key = (a: Address) => `${a.sheet},${a.row},${a.col}`;
  for (const cell of covered) changes.delete(key(cell));
  changes.set(key(address), change);
}

const summary = (list: Change[]) => list.map((c) => [c.address.sheet, c.address.row, c.address.col, c.value]);

describe.each(Object.entries(HYPERFORMULA_BUILDS))("HyperFormula's changed cells, patched (%s)", (_, build) => {
  it('keys a cell inside the bounds by a number and one outside them by its string', async () => {
    const ContentChanges = await hyperformulaExport<ContentChangesClass>(build, 'ContentChanges', 'ContentChanges');
    const changes = ContentChanges.empty();
    changes.addChange(1, { sheet: 2, row: 300, col: 80 });
    changes.addChange(2, { sheet: 0, row: 32_768, col: 0 });
    changes.addChange(3, { sheet: 0, row: 0, col: 1024 });
    changes.addChange(4, { sheet: 64, row: 0, col: 0 });
    // Fails without the patch, whose keys are all strings.
    expect([...changes.changes.keys()].map((k) => typeof k)).toEqual(['number', 'string', 'string', 'string']);
  });

  it('lists what the published list lists, for random changes on both sides of the bounds', async () => {
    const ContentChanges = await hyperformulaExport<ContentChangesClass>(build, 'ContentChanges', 'ContentChanges');
    const SimpleRangeValue = await hyperformulaExport<RangeValueClass>(build, 'SimpleRangeValue', 'SimpleRangeValue');
    const random = seededRandom(20261125);
    const pick = (values: number[]) => values[Math.floor(random() * values.length)] ?? 0;
    for (let round = 0; round < 200; round++) {
      const patched = ContentChanges.empty();
      const reference = new Map<string, Change>();
      for (let n = 0; n < 60; n++) {
        // Few distinct addresses, so that cells change more than once; some where a careless number key would make
        // two addresses one (row r + 1, column 0 against row r, column 1024), some past every bound.
        const address = {
          sheet: pick([0, 1, 63, 64]),
          row: pick([0, 1, 2, 32_767, 32_768, 39_999]),
          col: pick([0, 1, 1023, 1024, 2047]),
        };
        if (random() < 0.1) {
          // A range value (an array formula's result) covers the cells to its right and below.
          const value = SimpleRangeValue.onlyValues([
            [n, n],
            [n, n],
          ]);
          const covered = [0, 1].flatMap((r) =>
            [0, 1].map((c) => ({ ...address, row: address.row + r, col: address.col + c })),
          );
          patched.add(address, { address, value });
          referenceAdd(reference, address, { address, value }, covered);
        } else {
          patched.addChange(n, address);
          referenceAdd(reference, address, { address, value: n }, []);
        }
      }
      expect(summary(patched.getChanges())).toEqual(summary([...reference.values()]));
      const merged = ContentChanges.empty();
      merged.addAll(patched);
      expect(summary(merged.getChanges())).toEqual(summary([...reference.values()]));
    }
  });
});

describe("HyperFormula's changed cells through a recalculation", () => {
  it('names every dependent that changed once, with its new value, inside and outside the number key', () => {
    const hf = HyperFormula.buildEmpty({ licenseKey: 'gpl-v3', maxRows: 40_000, maxColumns: 2_000 });
    const sheet = hf.getSheetId(hf.addSheet('S')) ?? 0;
    // Dependents of A1 at (1, 0) and (0, 1024), which a number key of row * 1024 + column would confuse, and one past
    // the row bound.
    const cells: [number, number][] = [
      [1, 0],
      [0, 1024],
      [32_768, 3],
      [0, 1023],
    ];
    hf.setCellContents({ sheet, row: 0, col: 0 }, [[1]]);
    cells.forEach(([row, col], i) => {
      hf.setCellContents({ sheet, row, col }, [[`=A1*${i + 2}`]]);
    });
    const changes = hf.setCellContents({ sheet, row: 0, col: 0 }, [[10]]);
    const changed = changes
      .map((c) => ('address' in c ? [c.address.row, c.address.col, c.newValue] : []))
      .sort((a, b) => Number(a[0]) - Number(b[0]) || Number(a[1]) - Number(b[1]));
    expect(changed).toEqual([
      [0, 0, 10],
      [0, 1023, 50],
      [0, 1024, 30],
      [1, 0, 20],
      [32_768, 3, 40],
    ]);
    hf.destroy();
  });
});
