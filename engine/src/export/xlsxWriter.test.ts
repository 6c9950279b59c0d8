/**
 * The writer's package: every part deflated with the CRC-32 and size a ZIP reader checks, read back as written.
 */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { type Sharing, type WriterSheet, writeXlsx } from './xlsxWriter';

const sheet = (name: string, rows: number): WriterSheet => ({
  name,
  hidden: false,
  frozenColumns: 1,
  widths: [12, 10],
  rows,
  columns: 2,
  cell: (r, c) => (c === 0 ? { text: `row ${r} & <é>` } : { formula: `B${r}+1`, result: r }),
});

/**
 * The XML of a one-sheet book of `formulas` (by row and column, each cell's cached result its 0-based column), its
 * cells filled as `shared` says; the formula texts the writer asks for are added to `read`.
 */
async function sheetXml(formulas: (string | null)[][], shared: Sharing, read: string[] = []): Promise<string> {
  const bytes = await writeXlsx({
    title: 'Plan',
    creator: 'Topline',
    sheets: [
      {
        name: 'One',
        hidden: false,
        frozenColumns: 0,
        widths: [],
        rows: formulas.length,
        columns: Math.max(...formulas.map((row) => row.length)),
        cell: (r, c, formulaText) => {
          const formula = formulas[r]?.[c];
          if (formula && formulaText) read.push(formula);
          return formula ? { formula: formulaText ? formula : '', result: c } : null;
        },
        shared,
      },
    ],
    names: [],
  });
  return (await (await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')?.async('string')) ?? '';
}

describe('the XLSX writer', () => {
  it.each([
    ['zlib', undefined],
    ['the platform stream', 'stream'],
  ] as const)('zips every part with the CRC-32 and the size of its bytes, deflated by %s', async (_, deflate) => {
    const bytes = await writeXlsx(
      {
        title: 'Plan',
        creator: 'Topline',
        sheets: [sheet('One', 3), sheet('Two', 5000)],
        names: [{ name: 'x', reference: 'One!$B$2' }],
      },
      deflate ? { deflate } : {},
    );
    // JSZip refuses an entry whose CRC-32 or size does not match its inflated bytes.
    const zip = await JSZip.loadAsync(bytes, { checkCRC32: true });
    const two = await zip.file('xl/worksheets/sheet2.xml')?.async('string');
    expect(two).toContain('<c r="B5000"><f>B4999+1</f><v>4999</v></c>');
    const strings = await zip.file('xl/sharedStrings.xml')?.async('string');
    expect(strings).toContain('<t>row 1 &amp; &lt;é&gt;</t>');
    const workbook = await zip.file('xl/workbook.xml')?.async('string');
    expect(workbook).toContain('<definedName name="x">One!$B$2</definedName>');
    // A wrong CRC-32 is caught by the same check: the ones written are checked, not ignored.
    const broken = bytes.slice();
    // The central directory's entry (46 bytes before its path) holds the CRC-32 at byte 16.
    const entry = Buffer.from(broken).lastIndexOf('xl/worksheets/sheet2.xml') - 46;
    broken[entry + 16] = (broken[entry + 16] ?? 0) ^ 0xff;
    const read = JSZip.loadAsync(broken, { checkCRC32: true }).then((z) =>
      z.file('xl/worksheets/sheet2.xml')?.async('string'),
    );
    await expect(read).rejects.toThrow(/crc32/i);
  });

  it('writes a run of formulas filled right as one shared formula, its text in the first cell only', async () => {
    // Row 2 (below the bold header row): B..D filled right from B, a blank, F..G from F; row 3: nothing shared.
    const formulas: (string | null)[][] = [
      [],
      [null, 'A2*2', 'B2*2', 'C2*2', null, 'E2+1', 'F2+1'],
      [null, 'A3*2', 'B3*3'],
    ];
    const xml = await sheetXml(formulas, (r, c) => (r === 1 && ((c >= 2 && c <= 3) || c === 6) ? 'left' : undefined));
    expect(xml).toContain(
      '<row r="2"><c r="B2"><f t="shared" ref="B2:D2" si="0">A2*2</f><v>1</v></c><c r="C2"><f t="shared" si="0"/><v>2</v></c><c r="D2"><f t="shared" si="0"/><v>3</v></c><c r="F2"><f t="shared" ref="F2:G2" si="1">E2+1</f><v>5</v></c><c r="G2"><f t="shared" si="1"/><v>6</v></c></row>',
    );
    expect(xml).toContain('<row r="3"><c r="B3"><f>A3*2</f><v>1</v></c><c r="C3"><f>B3*3</f><v>2</v></c></row>');
  });

  it('writes a run of formulas filled down as one shared formula, beside runs filled right', async () => {
    // Column B: rows 2..4 filled down from B2, row 5 not, rows 6..7 filled down from B6. Row 3: C..D filled right.
    const formulas: (string | null)[][] = [
      [],
      [null, '$A$1+A2', null, null],
      [null, '$A$1+A3', 'C2*2', 'D2*2'],
      [null, '$A$1+A4'],
      [null, 'A5-1'],
      [null, 'A6*3'],
      [null, 'A7*3'],
    ];
    const read: string[] = [];
    const xml = await sheetXml(
      formulas,
      (r, c) => {
        if (c === 1 && (r === 2 || r === 3 || r === 6)) return 'up';
        return r === 2 && c === 3 ? 'left' : undefined;
      },
      read,
    );
    expect(xml).toContain('<c r="B2"><f t="shared" ref="B2:B4" si="0">$A$1+A2</f><v>1</v></c>');
    expect(xml).toContain(
      '<row r="3"><c r="B3"><f t="shared" si="0"/><v>1</v></c><c r="C3"><f t="shared" ref="C3:D3" si="1">C2*2</f><v>2</v></c><c r="D3"><f t="shared" si="1"/><v>3</v></c></row>',
    );
    expect(xml).toContain('<row r="4"><c r="B4"><f t="shared" si="0"/><v>1</v></c></row>');
    expect(xml).toContain('<row r="5"><c r="B5"><f>A5-1</f><v>1</v></c></row>');
    expect(xml).toContain('<c r="B6"><f t="shared" ref="B6:B7" si="2">A6*3</f><v>1</v></c>');
    expect(xml).toContain('<row r="7"><c r="B7"><f t="shared" si="2"/><v>1</v></c></row>');
    // A shared cell's text is never asked for.
    expect(read.sort()).toEqual(['$A$1+A2', 'A5-1', 'A6*3', 'C2*2'].sort());
  });
});
