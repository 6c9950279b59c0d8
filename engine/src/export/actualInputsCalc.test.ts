import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a1, monthColumn } from '../layout';
import { type PlanFile, parsePlanFile } from '../schema';
import { PlanWorkbook } from '../workbook';
import { actualInputColumn, actualInputRows } from './actualInputs';
import { blankReference, convertToCsv, parseCsv, SOFFICE, sameValue } from './calcCsv';
import { columnIndex } from './references';
import { workbookSheetName, xlsxSheetName } from './sheetNames';
import { exportXlsx } from './xlsx';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/plans');
const AS_OF = { year: 2026, month: 9 };

async function fixture(file: string): Promise<PlanFile> {
  return parsePlanFile(JSON.parse(await readFile(join(FIXTURES, file), 'utf8')));
}

/** A file typed in: values into the exported actual-inputs sheet of case 1, and any other change to that sheet. */
interface Typing {
  wb: PlanWorkbook;
  typed: { key: string; t: number; value: number }[];
  edit?: (inputs: ExcelJS.Worksheet) => void;
}

/**
 * Types into each exported file, lets Calc recompute them all in one run (`convertToCsv`), and reads every sheet Calc
 * writes: per file, CSV rows by the workbook's sheet name.
 */
async function typedInCalc<K extends string>(files: Record<K, Typing>): Promise<Record<K, Map<string, string[][]>>> {
  const dir = await mkdtemp(join(tmpdir(), 'topline-actual-inputs-'));
  try {
    const entries = Object.entries(files) as [K, Typing][];
    const titles = new Map<K, string[]>();
    for (const [name, { wb, typed, edit }] of entries) {
      const book = new ExcelJS.Workbook();
      await book.xlsx.load((await exportXlsx(wb, { cachedValues: false })) as unknown as ArrayBuffer);
      const inputs = book.getWorksheet(xlsxSheetName(wb.plan, 'C1 Actuals'));
      if (!inputs) throw new Error('no actual-inputs sheet');
      const rows = actualInputRows(wb.plan.template);
      for (const { key, t, value } of typed)
        inputs.getCell((rows[key] ?? 0) + 1, actualInputColumn(t) + 1).value = value;
      edit?.(inputs);
      titles.set(
        name,
        book.worksheets.map((s) => s.name),
      );
      await writeFile(join(dir, `${name}.xlsx`), new Uint8Array(await book.xlsx.writeBuffer()));
    }
    await convertToCsv(
      dir,
      entries.map(([name]) => join(dir, `${name}.xlsx`)),
    );
    const out = {} as Record<K, Map<string, string[][]>>;
    for (const [name, { wb }] of entries) {
      const sheets = new Map<string, string[][]>();
      for (const title of titles.get(name) ?? []) {
        const file = join(dir, `${name}-${title}.csv`);
        // Keyed by the workbook's names: the file's case sheets carry the case names (sheetNames.ts).
        if (existsSync(file)) sheets.set(workbookSheetName(wb.plan, title), parseCsv(await readFile(file, 'utf8')));
      }
      out[name] = sheets;
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Every cell of every sheet of the engine's workbook (the plan with the typed actuals saved) that Calc computed
 * otherwise; a sheet Calc did not write counts as one difference.
 */
function differences(engine: PlanWorkbook, calc: Map<string, string[][]>): string[] {
  const problems: string[] = [];
  for (const sheet of engine.sheetNames()) {
    const got = calc.get(sheet);
    if (!got) {
      problems.push(`${sheet}: not in the export`);
      continue;
    }
    engine.sheetValues(sheet).forEach((row, r) => {
      row.forEach((value, column) => {
        const cell = got[r]?.[column] ?? '';
        if (sameValue(value, cell) || blankReference(engine, sheet, r, column, cell)) return;
        if (cell === '' && noiseDivisor(engine, sheet, r, column)) return;
        problems.push(`${sheet}!${a1(r, column)}: Calc ${cell}, engine ${value}`);
      });
    });
  }
  return problems;
}

/**
 * A ratio whose divisor is cancellation noise in the engine (a figure that is 0, held as 1.9e-9): Calc snaps the
 * divisor to 0 and shows the ratio blank, the engine divides by the noise. Only such cells are accepted blank.
 */
function noiseDivisor(engine: PlanWorkbook, sheet: string, row: number, column: number): boolean {
  const content = engine.content(sheet, row, column);
  const m =
    typeof content === 'string' ? /IFERROR\([^/]+\/(?:([A-Za-z_][\w.]*)!)?\$?([A-Z]+)\$?(\d+),/.exec(content) : null;
  if (!m) return false;
  const [, target = sheet, letters = '', digits = ''] = m;
  const divisor = engine.value(target, Number(digits) - 1, columnIndex(letters));
  return typeof divisor === 'number' && divisor !== 0 && Math.abs(divisor) < 1e-6;
}

/**
 * A number typed into the actual-inputs sheet recomputes the workbook in LibreOffice Calc: over an ACT month's value,
 * and into a forecast month, which then turns ACT in the actual view, the sheets limited to ACT months, the Variance
 * sheet and the Dashboard, also in a case that had no ACT month. Every sheet Calc computes is compared cell by cell
 * with the engine's after the same actuals are saved.
 */
describe.skipIf(!SOFFICE)('typing into the actual-inputs sheet in LibreOffice Calc (skipped without soffice)', () => {
  let revisions: PlanFile;
  let jpy: PlanFile;
  const build = (plan: PlanFile) => PlanWorkbook.build(plan, { asOf: AS_OF });
  /** The workbooks exported, as they stood at export (an export does not change its workbook, so one serves many). */
  let wbs: Record<'revisions' | 'noActuals' | 'reversed', PlanWorkbook>;
  /** The value kept in month 5 of the reversed plan, and typed again plus 2. */
  let kept: number | undefined;
  /** The keys entered in month 3 of actuals-revisions, emptied in the file. */
  let entered: string[];
  let calc: Record<
    'saved' | 'noActuals' | 'reversedUntouched' | 'reversedChanged' | 'emptied' | 'untouched',
    Map<string, string[][]>
  >;

  // Every file of this block is typed first and recalculated in one run of Calc.
  beforeAll(async () => {
    revisions = await fixture('actuals-revisions.json');
    jpy = await fixture('saas-jpy-t2d3.json');
    const reversed = build(revisions);
    reversed.apply({ type: 'reverse', caseIndex: 0, month: 5 });
    kept = reversed.plan.cases[0]?.actuals['5']?.order;
    wbs = { revisions: build(revisions), noActuals: build(jpy), reversed };
    entered = Object.keys(revisions.cases[0]?.actuals['3'] ?? {}).filter((k) => k !== 'status');
    calc = await typedInCalc({
      saved: {
        wb: wbs.revisions,
        typed: [
          { key: 'order', t: 2, value: 4 }, // an ACT month's value changed
          { key: 'order', t: 10, value: 7 }, // a forecast month (revised) typed: it turns ACT
          { key: 'sm', t: 10, value: 450_000 },
          { key: 'order', t: 14, value: 3 }, // a month of year 2, which had no ACT month: the latest ACT month
        ],
      },
      noActuals: {
        wb: wbs.noActuals,
        typed: [
          { key: 'order', t: 3, value: 5 },
          { key: 'arpa', t: 3, value: 60_000 },
        ],
      },
      reversedUntouched: { wb: reversed, typed: [] },
      reversedChanged: { wb: reversed, typed: [{ key: 'order', t: 5, value: (kept ?? 0) + 2 }] },
      emptied: {
        wb: wbs.revisions,
        typed: [],
        edit: (inputs) => {
          const rows = actualInputRows(revisions.template);
          for (const key of entered) inputs.getCell((rows[key] ?? 0) + 1, actualInputColumn(3) + 1).value = null;
        },
      },
      untouched: { wb: wbs.revisions, typed: [] },
    });
  }, 300_000);

  afterAll(() => {
    for (const wb of Object.values(wbs ?? {})) wb.destroy();
  });

  it('recomputes every sheet as the engine does after saving the same actuals', () => {
    const wb = wbs.revisions;
    const c = wb.caseLayout(0);
    expect(c.act).toEqual([1, 2, 3, 4, 5, 6]);
    const edited = build(revisions);
    edited.apply([
      { type: 'actual', caseIndex: 0, month: 2, values: { order: 4 } },
      { type: 'actual', caseIndex: 0, month: 10, values: { order: 7, sm: 450_000 } },
      { type: 'actual', caseIndex: 0, month: 14, values: { order: 3 } },
    ]);
    const e = edited.caseLayout(0);
    expect(e.act).toEqual([1, 2, 3, 4, 5, 6, 10, 14]);
    const problems = differences(edited, calc.saved);
    expect(problems.slice(0, 20), `${problems.length} cells differ`).toEqual([]);
    const sheet = (name: string | undefined) => calc.saved.get(name ?? '') ?? [];
    // The typed month is ACT: 7 new customers, not the plan's.
    expect(Number(sheet(c.sheets.actual)[c.rowOf.order ?? 0]?.[monthColumn(10)])).toBe(7);
    expect(wb.value(c.sheets.actual ?? '', c.rowOf.order ?? 0, monthColumn(10))).not.toBe(7);
    // Month 14 is compared: 3 orders against the estimate's, and the Dashboard's latest ACT month is 14.
    const estimateOrders = Number(wb.value(c.sheets.estimate, c.rowOf.order ?? 0, monthColumn(14)));
    const variance = sheet(c.sheets.variance);
    const differenceRow = variance.findIndex((row, r) => row[0] === 'difference_value' && r > 0);
    const orderDifference = variance[differenceRow + 1 + e.varianceRows.findIndex((x) => x.key === 'order')];
    expect(Number(orderDifference?.[monthColumn(14)])).toBeCloseTo(3 - estimateOrders, 6);
    expect(sheet(c.sheets.actualToDate)[c.rowOf.order ?? 0]?.[monthColumn(14)]).toBe('3');
    expect(sheet(c.sheets.actualToDate)[c.rowOf.order ?? 0]?.[monthColumn(13)]).toBe('');
    const dashboard = sheet(c.sheets.dashboard);
    expect(dashboard[c.dashboard.scalarRow.latest_actual_month]?.[1]).toBe('14');
    expect(dashboard[c.dashboard.metricRow.order ?? 0]?.[c.dashboard.column.latest_value]).toBe('3');
    // Without the typed values the workbook's latest ACT month is 6.
    expect(wb.value(c.sheets.dashboard, c.dashboard.scalarRow.latest_actual_month, 1)).toBe(6);
    edited.destroy();
  });

  it('gives a case without actuals the sheets of the actual view, which a typed month turns ACT in', () => {
    expect(wbs.noActuals.caseLayout(0).sheets.actual).toBeUndefined();
    const edited = build(jpy);
    edited.apply({ type: 'actual', caseIndex: 0, month: 3, values: { order: 5, arpa: 60_000 } });
    const problems = differences(edited, calc.noActuals);
    expect(problems.slice(0, 20), `${problems.length} cells differ`).toEqual([]);
    const c = edited.caseLayout(0);
    expect(c.sheets.variance).toBe('C1_Variance');
    // March: 5 new customers at 60,000 each.
    const actual = calc.noActuals.get(c.sheets.actual ?? '') ?? [];
    expect(Number(actual[c.rowOf.order ?? 0]?.[monthColumn(3)])).toBe(5);
    expect(Number(actual[c.rowOf.arpa ?? 0]?.[monthColumn(3)])).toBe(60_000);
    expect(calc.noActuals.get(c.sheets.dashboard)?.[c.dashboard.scalarRow.latest_actual_month]?.[1]).toBe('3');
    edited.destroy();
  });

  it('keeps a reversed month EST while its kept values stand, and turns it ACT when one is changed', () => {
    const wb = wbs.reversed;
    const c = wb.caseLayout(0);
    expect(c.act).toEqual([1, 2, 3, 4, 6]);
    expect(kept).toBeDefined();
    const untouched = differences(wb, calc.reversedUntouched);
    expect(untouched.slice(0, 20), `${untouched.length} cells differ`).toEqual([]);
    const edited = build(wb.plan);
    edited.apply({ type: 'actual', caseIndex: 0, month: 5, values: { order: (kept ?? 0) + 2 } });
    expect(edited.caseLayout(0).act).toEqual([1, 2, 3, 4, 5, 6]);
    const problems = differences(edited, calc.reversedChanged);
    expect(problems.slice(0, 20), `${problems.length} cells differ`).toEqual([]);
    expect(Number(calc.reversedChanged.get(c.sheets.actual ?? '')?.[c.rowOf.order ?? 0]?.[monthColumn(5)])).toBe(
      (kept ?? 0) + 2,
    );
    edited.destroy();
  });

  it('turns an ACT month whose column is emptied EST again on every sheet', () => {
    const c = wbs.revisions.caseLayout(0);
    expect(entered.length).toBeGreaterThan(5);
    const edited = build(revisions);
    edited.apply({
      type: 'actual',
      caseIndex: 0,
      month: 3,
      values: Object.fromEntries(entered.map((k) => [k, null])),
    });
    edited.apply({ type: 'reverse', caseIndex: 0, month: 3 });
    expect(edited.caseLayout(0).act).toEqual([1, 2, 4, 5, 6]);
    const problems = differences(edited, calc.emptied);
    expect(problems.slice(0, 20), `${problems.length} cells differ`).toEqual([]);
    expect(calc.emptied.get(c.sheets.actualToDate ?? '')?.[c.rowOf.order ?? 0]?.[monthColumn(3)]).toBe('');
    edited.destroy();
  });

  it('keeps every sheet as exported when nothing is typed', () => {
    const problems = differences(wbs.revisions, calc.untouched);
    expect(problems.slice(0, 20), `${problems.length} cells differ`).toEqual([]);
  });
});
