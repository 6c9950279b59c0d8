/**
 * The cached results of the XLSX export, as a reader that does not recalculate sees them (a file preview, pandas or
 * openpyxl with data_only): every formula cell of every fixture carries one, and it is the engine's value — the
 * workbook's own for the sheets it holds, and for the sheets only the export writes (the flags, the ACT and EST sides,
 * the Actual sheets of a case without ACT months) what HyperFormula, the engine's calculator, computes from the file's
 * own formulas. Every formula also reads back as the export's own for its cell, where the file shares it with a cell
 * above or to its left (`Sharing`) as where it is written out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { HyperFormula, type RawCellContent } from 'hyperformula';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { a1 } from '../layout';
import { HYPERFORMULA_CONFIG, PlanWorkbook, type Value } from '../workbook';
import { exportSheets } from './linked';
import { renameSheets, xlsxSheetNames } from './sheetNames';
import { formulaAt } from './sheetValues';
import { exportXlsx } from './xlsx';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/plans');
const AS_OF = { year: 2026, month: 9 };
const FIXTURE_FILES = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .sort();

type Cached = number | string | boolean | null;

/** A cached result as the engine's value: a blank is cached as "", an error as its text. */
function cachedOf(cell: ExcelJS.Cell, raw: Map<string, Cached>): Cached | undefined {
  const result = (cell.value as ExcelJS.CellFormulaValue).result;
  // ExcelJS reads a cached 0 or "" as no result at all: those come from the sheet's XML as written.
  if (result === undefined) return raw.get(cell.address);
  if (typeof result === 'object' && result !== null && 'error' in result) return String(result.error);
  if (result instanceof Date) return result.toISOString();
  return result as Cached;
}

const XML_TEXT: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };

/** The cached result (`<v>`) of every formula cell of each sheet's XML, by sheet index and A1 address. */
async function rawResults(bytes: Uint8Array): Promise<Map<string, Cached>[]> {
  const zip = await JSZip.loadAsync(bytes);
  const sheets: Map<string, Cached>[] = [];
  for (let i = 1; zip.file(`xl/worksheets/sheet${i}.xml`); i++) {
    const xml = (await zip.file(`xl/worksheets/sheet${i}.xml`)?.async('string')) ?? '';
    const results = new Map<string, Cached>();
    for (const [, ref = '', attributes = '', body = ''] of xml.matchAll(/<c r="([A-Z]+\d+)"([^>]*)>(.*?)<\/c>/g)) {
      if (!body.includes('<f')) continue;
      const v = /<v>(.*?)<\/v>/.exec(body)?.[1];
      if (v === undefined) continue;
      const type = /t="(\w+)"/.exec(attributes)?.[1];
      const text = v.replace(/&\w+;/g, (entity) => XML_TEXT[entity] ?? entity);
      results.set(ref, type === 'str' || type === 'e' ? text : type === 'b' ? text === '1' : Number(text));
    }
    sheets.push(results);
  }
  return sheets;
}

function same(cached: Cached, expected: Value | boolean): boolean {
  const want = expected ?? '';
  if (typeof want === 'number' && typeof cached === 'number')
    return Math.abs(cached - want) <= 1e-9 * Math.max(1, Math.abs(want));
  return cached === want;
}

/** The file's sheets as HyperFormula reads them: formulas from their text, never from their cached results. */
function formulasOf(book: ExcelJS.Workbook): Record<string, RawCellContent[][]> {
  const sheets: Record<string, RawCellContent[][]> = {};
  for (const sheet of book.worksheets) {
    const grid: RawCellContent[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row, r) => {
      const cells: RawCellContent[] = [];
      row.eachCell({ includeEmpty: false }, (cell, c) => {
        const value = cell.value;
        if (cell.type === ExcelJS.ValueType.Formula) cells[c - 1] = `=${cell.formula}`;
        // A text cell stays text even when it reads like a formula.
        else if (typeof value === 'string') cells[c - 1] = value.startsWith('=') ? `'${value}` : value;
        else if (typeof value === 'number' || typeof value === 'boolean') cells[c - 1] = value;
      });
      grid[r - 1] = Array.from(cells, (x) => x ?? null);
    });
    sheets[sheet.name] = Array.from(grid, (x) => x ?? []);
  }
  return sheets;
}

describe('the XLSX export as read without recalculating', () => {
  const plans: [string, () => unknown][] = FIXTURE_FILES.map((file) => [
    file,
    () => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')),
  ]);
  // A case without ACT months whose month was reversed with its values kept: its flag is 0 at export, and its
  // Actual sheet is its Estimate like any case without ACT months.
  plans.push([
    'three-cases.json with a reversed month kept in its second case',
    () => {
      const plan = JSON.parse(readFileSync(join(FIXTURES, 'three-cases.json'), 'utf8'));
      plan.cases[1].actuals = { '3': { status: 'EST', order: 5, churn: 1, cogs: 120_000 } };
      return plan;
    },
  ]);
  for (const [name, plan] of plans) {
    it(`caches the engine's value in every formula cell of ${name}`, async () => {
      const wb = PlanWorkbook.build(plan(), { asOf: AS_OF });
      const bytes = await exportXlsx(wb, { planId: 7 });
      const exported = exportSheets(wb, { planId: 7 });
      const fileNames = xlsxSheetNames(
        wb.plan,
        exported.map((x) => x.name),
      );
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(bytes as unknown as ArrayBuffer);
      const raw = await rawResults(bytes);
      expect(raw.length).toBe(book.worksheets.length);
      const renamed = xlsxSheetNames(wb.plan, wb.sheetNames());
      const hf = HyperFormula.buildFromSheets(
        formulasOf(book),
        { ...HYPERFORMULA_CONFIG },
        wb.layout.names.map((n) => ({ name: n.name, expression: renameSheets(n.expression, renamed) })),
      );
      const own = new Set(wb.sheetNames());
      // The file's case sheets carry the case names (sheetNames.ts): each is the workbook's sheet of the same place.
      const workbookName = (name: string) => [...renamed].find(([, to]) => to === name)?.[0] ?? name;
      const missing: string[] = [];
      const differing: string[] = [];
      const misread: string[] = [];
      let formulas = 0;
      let shared = 0;
      let outside = 0;
      try {
        for (const [index, sheet] of book.worksheets.entries()) {
          const written = raw[index] ?? new Map<string, Cached>();
          const id = hf.getSheetId(sheet.name) ?? -1;
          const engine = own.has(workbookName(sheet.name)) ? wb.sheetValues(workbookName(sheet.name)) : undefined;
          const exportedSheet = exported[index];
          if (!exportedSheet) throw new Error(`the export has no sheet ${index}`);
          expect(fileNames.get(exported[index]?.name ?? '') ?? exported[index]?.name).toBe(sheet.name);
          sheet.eachRow({ includeEmpty: false }, (row, r) => {
            row.eachCell({ includeEmpty: false }, (cell, c) => {
              if (cell.type !== ExcelJS.ValueType.Formula) return;
              formulas++;
              const where = `${sheet.name}!${a1(r - 1, c - 1)}`;
              // exceljs gives a shared cell the first cell's formula moved to it.
              if ((cell.value as { sharedFormula?: string }).sharedFormula) shared++;
              const own = String(formulaAt(exportedSheet, r - 1, c - 1) ?? '').slice(1);
              if (cell.formula !== renameSheets(own, fileNames)) misread.push(`${where}: ${cell.formula}`);
              const cached = cachedOf(cell, written);
              if (cached === undefined) {
                missing.push(where);
                return;
              }
              let expected: Value | boolean;
              if (engine) expected = engine[r - 1]?.[c - 1] ?? null;
              else {
                outside++;
                const v = hf.getCellValue({ sheet: id, row: r - 1, col: c - 1 });
                expected = v === null || typeof v !== 'object' ? (v as Value | boolean) : `#${v.type}`;
              }
              if (!same(cached, expected)) differing.push(`${where}: cached ${cached}, engine ${expected}`);
            });
          });
        }
      } finally {
        hf.destroy();
        wb.destroy();
      }
      expect(missing.slice(0, 10), `${missing.length} formula cells without a cached result`).toEqual([]);
      expect(differing.slice(0, 10), `${differing.length} cached results differ`).toEqual([]);
      expect(misread.slice(0, 10), `${misread.length} formulas read back as another`).toEqual([]);
      expect(formulas).toBeGreaterThan(1000);
      expect(shared).toBeGreaterThan(formulas / 4);
      // The sheets only the export writes are checked too, not just the workbook's own.
      expect(outside).toBeGreaterThan(100);
    }, 120_000);
  }
});
