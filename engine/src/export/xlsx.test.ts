import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assumptionRow } from '../compile/assumptions';
import { a1, monthColumn, quarterColumn, yearColumn } from '../layout';
import { PlanWorkbook } from '../workbook';
import { blankReference, convertToCsv, parseCsv, SOFFICE, sameValue } from './calcCsv';
import { exportSheets } from './linked';
import { renameSheets, xlsxSheetName, xlsxSheetNames } from './sheetNames';
import { formulaAt } from './sheetValues';
import { exportXlsx } from './xlsx';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/plans');
const AS_OF = { year: 2026, month: 9 };
const FIXTURE_FILES = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .sort();

async function loadFixture(file: string): Promise<unknown> {
  return JSON.parse(await readFile(join(FIXTURES, file), 'utf8'));
}

/** A workbook sheet's name in the XLSX file: case sheets carry the case's name (sheetNames.ts). */
const inFile = (wb: PlanWorkbook, sheet: string): string => xlsxSheetName(wb.plan, sheet);

async function readXlsx(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book;
}

describe('exportXlsx', () => {
  let wb: PlanWorkbook;
  let book: ExcelJS.Workbook;

  beforeAll(async () => {
    wb = PlanWorkbook.build(await loadFixture('saas-jpy-t2d3.json'), { asOf: AS_OF });
    book = await readXlsx(await exportXlsx(wb));
  });

  it('writes every sheet with its formulas (without the leading "=") and the engine value as cached result', () => {
    // The workbook's sheets, the Actual sheet of the case (it has no ACT month yet) and the sheets limited to ACT
    // months after its Estimate sheet, the case's actual-inputs sheet and its hidden sheet of ACT months.
    const names = wb.sheetNames();
    const estimateAt = names.indexOf('C1_Estimate');
    expect(book.worksheets.map((s) => s.name)).toEqual(
      [
        ...names.slice(0, estimateAt + 1),
        'C1_Actual',
        'C1_ActualToDate',
        'C1_EstimateToDate',
        'C1_Variance',
        ...names.slice(estimateAt + 1),
        'C1 Actuals',
        'C1_ActMonths',
        'C1_Actual_ACT',
        'C1_Actual_EST',
      ].map((name) => inFile(wb, name)),
    );
    // The case's sheets a person sees carry its name; the hidden ones keep the workbook's.
    expect(inFile(wb, 'C1_Estimate')).toBe('Base case Estimate');
    expect(inFile(wb, 'C1 Actuals')).toBe('Base case Actuals');
    expect(book.getWorksheet('C1_ActMonths')?.state).toBe('hidden');
    const estimate = wb.caseLayout(0).sheets.estimate;
    const row = wb.caseLayout(0).rowOf.arr ?? 0;
    const cell = book.getWorksheet(inFile(wb, estimate))?.getCell(a1(row, monthColumn(12)));
    const formula = String(wb.grid(estimate)[row]?.[monthColumn(12)]);
    expect(formula.startsWith('=')).toBe(true);
    expect(cell?.formula).toBe(renameSheets(formula.slice(1), xlsxSheetNames(wb.plan, wb.sheetNames())));
    // Y1 target ARR 5,000,000 x case rate 1 is reached at month 12 with the default period 12.
    expect(cell?.result).toBeCloseTo(5_000_000, 6);
    expect(wb.value(estimate, row, monthColumn(12))).toBeCloseTo(5_000_000, 6);
  });

  it('writes each Variance row as one formula filled right, which reads back as every cell’s own', () => {
    const sheets = exportSheets(wb);
    const names = xlsxSheetNames(
      wb.plan,
      sheets.map((s) => s.name),
    );
    const exported = sheets.find((s) => s.name === 'C1_Variance');
    const sheet = book.getWorksheet(inFile(wb, 'C1_Variance'));
    if (!exported || !sheet) throw new Error('no Variance sheet');
    let formulas = 0;
    let shared = 0;
    const firsts = new Set<number>();
    exported.grid.forEach((row, r) => {
      row.forEach((content, c) => {
        if (typeof content !== 'string' || !content.startsWith('=')) return;
        formulas++;
        const cell = sheet.getCell(r + 1, c + 1);
        // exceljs gives a shared cell the first cell's formula moved to it.
        expect(cell.formula).toBe(renameSheets(String(formulaAt(exported, r, c)).slice(1), names));
        if ((cell.value as { sharedFormula?: string }).sharedFormula) shared++;
        else firsts.add(r);
      });
    });
    // One formula written per row of comparisons: 3 blocks of the template's compared rows.
    expect(firsts.size).toBe(3 * wb.caseLayout(0).varianceRows.length);
    expect(shared).toBe(formulas - firsts.size);
    expect(shared).toBeGreaterThan(10_000);
  });

  it('writes constants and labels as plain values', () => {
    const plan = book.getWorksheet('Plan');
    expect(plan?.getCell('A4').value).toBe('Target ARR');
    expect(plan?.getCell('B4').value).toBe(5_000_000);
  });

  it('defines the workbook-level names as references', () => {
    const names = new Map(book.definedNames.model.map((n) => [n.name, n.ranges]));
    for (const { name, expression } of wb.layout.names) {
      const reference = renameSheets(expression.slice(1), xlsxSheetNames(wb.plan, wb.sheetNames()));
      expect(names.get(name)?.map((r) => r.replace(/'/g, ''))).toEqual([reference.replace(/'/g, '')]);
    }
    expect(names.get('target_arr')).toEqual(['Plan!$B$4']);
  });

  it('formats money in the currency, rates as percentages and counts with one decimal', () => {
    const c = wb.caseLayout(0);
    const estimate = book.getWorksheet(inFile(wb, c.sheets.estimate));
    const at = (key: string) => estimate?.getCell(a1(c.rowOf[key] ?? 0, monthColumn(5))).numFmt;
    expect(at('revenue')).toBe('#,##0');
    expect(at('churn_cvr')).toBe('0.0%');
    expect(at('cumulative')).toBe('#,##0.0');
    expect(estimate?.getCell(a1(c.rowOf.mrr ?? 0, yearColumn(2))).numFmt).toBe('#,##0');
    const assumptions = book.getWorksheet(inFile(wb, c.sheets.assumptions));
    expect(assumptions?.getCell(a1(assumptionRow('churn_rate'), 1)).numFmt).toBe('0.0%');
    expect(assumptions?.getCell(a1(assumptionRow('arr'), 3)).numFmt).toBe('#,##0');
  });

  it('uses two decimals for USD money', async () => {
    const usd = PlanWorkbook.build(await loadFixture('selfserve-usd-custom.json'), { asOf: AS_OF });
    const c = usd.caseLayout(0);
    const sheet = (await readXlsx(await exportXlsx(usd))).getWorksheet(inFile(usd, c.sheets.estimate));
    expect(sheet?.getCell(a1(c.rowOf.revenue ?? 0, monthColumn(1))).numFmt).toBe('#,##0.00');
    usd.destroy();
  });

  it('freezes the label column and the header row and sizes the columns', () => {
    for (const sheet of book.worksheets) {
      // An actual-inputs sheet keeps its key column in view too.
      const xSplit = sheet.name.endsWith(' Actuals') ? 2 : 1;
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', xSplit, ySplit: 1 });
      expect(sheet.getColumn(1).width ?? 0).toBeGreaterThanOrEqual(12);
    }
    const estimate = book.getWorksheet(inFile(wb, wb.caseLayout(0).sheets.estimate));
    expect(estimate?.getColumn(yearColumn(6) + 1).width ?? 0).toBeGreaterThanOrEqual(10);
  });

  it('leaves the cached results out on request, so that a reader has to recalculate', async () => {
    const bare = await readXlsx(await exportXlsx(wb, { cachedValues: false }));
    const estimate = bare.getWorksheet(inFile(wb, wb.caseLayout(0).sheets.estimate));
    const cell = estimate?.getCell(a1(wb.caseLayout(0).rowOf.arr ?? 0, monthColumn(12)));
    expect(cell?.formula).toBeTruthy();
    expect(cell?.result).toBeUndefined();
  });
});

describe('exportXlsx with user text that looks like a formula', () => {
  const NAMES = ['=HYPERLINK("http://x","y")', '+SUM(1,2)', '-A1', '@SUM(1)'];

  it('writes a cost item named like a formula as a string cell, with no formula', async () => {
    const plan = (await loadFixture('actuals-revisions.json')) as {
      cases: { cost_items: { item_name: string }[] }[];
    };
    const items = plan.cases[0]?.cost_items ?? [];
    const base = items[0];
    if (!base) throw new Error('the fixture has no cost item');
    plan.cases[0] = {
      ...plan.cases[0],
      cost_items: NAMES.map((item_name, i) => ({ ...base, cost_id: `x${i}`, item_name })),
    };
    const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
    const c = wb.caseLayout(0);
    const book = await readXlsx(await exportXlsx(wb));
    const sheet = book.getWorksheet(inFile(wb, c.sheets.costs));
    NAMES.forEach((name, n) => {
      const cell = sheet?.getCell(a1(c.costs.itemRows[n] ?? 0, 0));
      expect(cell?.type).toBe(ExcelJS.ValueType.String);
      expect(cell?.value).toBe(name);
      expect(cell?.formula).toBeUndefined();
    });
    // The item's figures are still formulas.
    expect(sheet?.getCell(a1(c.costs.itemRows[0] ?? 0, monthColumn(1))).formula).toMatch(/^IF\(/);
    wb.destroy();
  });
});

/**
 * LibreOffice Calc, headless, recomputes the exported files. Three copies of each fixture go through it: with the
 * engine's cached results, without any (so every value LibreOffice reports is one it computed from the formulas), and
 * without them after setting the Y1 churn rate of case 1 in the file, compared with the engine after the same edit.
 */
if (!SOFFICE)
  console.warn('LibreOffice (soffice) is not installed: the recalculation tests of the XLSX export are skipped');

describe.skipIf(!SOFFICE)('the exported workbook in LibreOffice Calc (skipped when soffice is absent)', () => {
  const EDITED_CHURN = 0.025;
  let dir = '';
  const fixtures: { file: string; wb: PlanWorkbook; edited: PlanWorkbook }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'topline-xlsx-'));
    const inputs: string[] = [];
    for (const [i, file] of FIXTURE_FILES.entries()) {
      const plan = await loadFixture(file);
      const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
      const edited = PlanWorkbook.build(plan, { asOf: AS_OF });
      edited.apply({ type: 'year', caseIndex: 0, year: 1, key: 'churn_rate', value: EDITED_CHURN });
      fixtures.push({ file, wb, edited });
      const bare = await exportXlsx(wb, { cachedValues: false });
      const changed = await readXlsx(bare);
      const sheet = changed.getWorksheet(inFile(wb, wb.caseLayout(0).sheets.assumptions));
      if (!sheet) throw new Error(`${file}: no assumptions sheet in the export`);
      sheet.getCell(a1(assumptionRow('churn_rate'), 1)).value = EDITED_CHURN;
      const named = { cached: await exportXlsx(wb), bare, edited: new Uint8Array(await changed.xlsx.writeBuffer()) };
      for (const [kind, bytes] of Object.entries(named)) {
        const path = join(dir, `f${i}${kind}.xlsx`);
        await writeFile(path, bytes);
        inputs.push(path);
      }
    }
    await convertToCsv(dir, inputs);
  }, 300_000); // every fixture built, exported three ways and recalculated by LibreOffice in one run

  afterAll(async () => {
    for (const f of fixtures) {
      f.wb.destroy();
      f.edited.destroy();
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const COPIES = {
    cached: 'with the cached results',
    bare: 'without cached results',
    edited: 'with the Y1 churn rate changed in the file',
  } as const;
  for (const file of FIXTURE_FILES) {
    for (const [kind, description] of Object.entries(COPIES)) {
      it(`recomputes every cell of ${file} ${description} to the engine's values`, async () => {
        const i = fixtures.findIndex((f) => f.file === file);
        const fixture = fixtures[i];
        if (!fixture) throw new Error(`${file} was not exported`);
        const engine = kind === 'edited' ? fixture.edited : fixture.wb;
        const mismatches: string[] = [];
        let numbers = 0;
        for (const sheet of engine.sheetNames()) {
          const calc = parseCsv(await readFile(join(dir, `f${i}${kind}-${inFile(engine, sheet)}.csv`), 'utf8'));
          engine.sheetValues(sheet).forEach((row, r) => {
            row.forEach((value, c) => {
              if (typeof value === 'number') numbers++;
              const got = calc[r]?.[c] ?? '';
              if (sameValue(value, got) || blankReference(engine, sheet, r, c, got)) return;
              mismatches.push(`${sheet}!${a1(r, c)}: engine ${value}, Calc ${got}, ${engine.content(sheet, r, c)}`);
            });
          });
        }
        expect(mismatches.slice(0, 20), `${mismatches.length} cells differ`).toEqual([]);
        expect(numbers).toBeGreaterThan(1000);
        if (kind === 'edited') {
          // The edit reaches the figures: the estimate's Y1 churn differs from the unedited plan's.
          const c = engine.caseLayout(0);
          const churn = (w: PlanWorkbook) => Number(w.value(c.sheets.estimate, c.rowOf.churn ?? 0, yearColumn(1)));
          expect(churn(engine)).not.toBeCloseTo(churn(fixture.wb), 6);
        }
      });
    }
  }

  it('compares the sample the finance lead reads: every Estimate row at months, quarters and CY, and the other sheets', async () => {
    const { wb } = fixtures.find((f) => f.file === 'saas-jpy-t2d3.json') ?? fixtures[0] ?? {};
    if (!wb) throw new Error('no fixture');
    const c = wb.caseLayout(0);
    const index = fixtures.findIndex((f) => f.wb === wb);
    const calc = async (sheet: string) =>
      parseCsv(await readFile(join(dir, `f${index}bare-${inFile(wb, sheet)}.csv`), 'utf8'));
    const estimate = await calc(c.sheets.estimate);
    const columns = [
      monthColumn(1),
      monthColumn(7),
      monthColumn(13),
      monthColumn(40),
      monthColumn(72),
      quarterColumn(1, 1),
      quarterColumn(3, 2),
      quarterColumn(6, 4),
      yearColumn(1),
      yearColumn(4),
      yearColumn(6),
    ];
    let compared = 0;
    for (const row of Object.values(c.rowOf)) {
      for (const column of columns) {
        expect(sameValue(wb.value(c.sheets.estimate, row, column), estimate[row]?.[column] ?? '')).toBe(true);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(400);
    // Y6 CY ARR: 5,000,000 x 3 x 3 x 2 x 2 x 2 = 360,000,000 (MODEL.md section 3, T2D3).
    expect(Number(estimate[c.rowOf.arr ?? 0]?.[yearColumn(6)])).toBeCloseTo(360_000_000, 3);
    for (const sheet of [c.sheets.assumptions, c.sheets.costs, c.sheets.dashboard, 'Plan']) {
      const values = wb.sheetValues(sheet);
      const got = await calc(sheet);
      values.forEach((row, r) => {
        row.forEach((v, col) => {
          expect(sameValue(v, got[r]?.[col] ?? ''), `${sheet}!${a1(r, col)}`).toBe(true);
        });
      });
    }
  });
});
