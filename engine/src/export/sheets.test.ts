import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HyperFormula } from 'hyperformula';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assumptionRow } from '../compile/assumptions';
import { a1, monthColumn, quarterColumn } from '../layout';
import { HYPERFORMULA_CONFIG, PlanWorkbook } from '../workbook';
import { actualInputColumn, actualInputRows } from './actualInputs';
import { quoteSheet } from './references';
import { type SheetsGrid, sheetsBatchRequests, sheetsGrid, sheetsValueUpdate } from './sheets';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/plans');
const plan = (file: string): unknown => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));

describe('sheetsGrid', () => {
  let wb: PlanWorkbook;
  let grid: SheetsGrid;

  const workbookSheets = (g: SheetsGrid) => g.sheets.filter((s) => wb.sheetNames().includes(s.title));

  beforeAll(() => {
    wb = PlanWorkbook.build(plan('saas-jpy-t2d3.json'), { asOf: { year: 2026, month: 9 } });
    grid = sheetsGrid(wb);
  });
  afterAll(() => wb.destroy());

  it('has one sheet per workbook sheet, cell for cell, with a frozen header row and label column', () => {
    expect(grid.title).toBe('Demo SaaS');
    // The workbook's sheets, then the case's actual-inputs sheet (frozen at its key column).
    const names = wb.sheetNames();
    const estimateAt = names.indexOf('C1_Estimate');
    expect(grid.sheets.map((s) => s.title)).toEqual([
      ...names.slice(0, estimateAt + 1),
      // The case has no ACT month: its Actual sheet and the sheets limited to ACT months are the export's own,
      // computed by Sheets (no engine values).
      'C1_Actual',
      'C1_ActualToDate',
      'C1_EstimateToDate',
      'C1_Variance',
      ...names.slice(estimateAt + 1),
      'C1 Actuals',
      // Hidden: which months are ACT, from what the actual-inputs sheet holds, and the Actual sheet's months as ACT
      // and as forecast.
      'C1_ActMonths',
      'C1_Actual_ACT',
      'C1_Actual_EST',
    ]);
    expect(grid.sheets.slice(-3).map((s) => s.hidden)).toEqual([true, true, true]);
    const actual = grid.sheets.find((s) => s.title === 'C1_Actual');
    expect(actual?.rows[1]?.[1]?.formula).toMatch(/^=/);
    expect(grid.sheets.find((s) => s.title === 'C1 Actuals')?.frozenColumnCount).toBe(2);
    for (const s of workbookSheets(grid)) {
      const cells = wb.grid(s.title);
      expect(s.rows.length).toBe(cells.length);
      s.rows.forEach((row, r) => {
        expect(row.length).toBe(cells[r]?.length);
      });
      expect(s.frozenRowCount).toBe(1);
      expect(s.frozenColumnCount).toBe(1);
      expect(s.columnWidths.length).toBe(Math.max(...cells.map((row) => row.length)));
    }
  });

  it('gives every formula of the sheets only the export writes its own text, filled cells included', () => {
    const c = wb.caseLayout(0);
    const revenue = c.rowOf.revenue ?? 0;
    const sheet = (title: string) => grid.sheets.find((s) => s.title === title);
    let formulas = 0;
    for (const title of ['C1_Actual', 'C1_ActualToDate', 'C1_EstimateToDate', 'C1_Variance', 'C1_Actual_EST']) {
      for (const row of sheet(title)?.rows ?? []) {
        for (const cell of row) {
          if (cell.formula === undefined) continue;
          formulas++;
          // A cell the XLSX file fills from a neighbour is never sent as a bare '='.
          expect(cell.formula.length).toBeGreaterThan(1);
        }
      }
    }
    expect(formulas).toBeGreaterThan(20_000);
    // Month 2's revenue in ActualToDate, below the cells of its column it is filled from, reads its own row.
    const column = monthColumn(2);
    expect(sheet('C1_ActualToDate')?.rows[revenue]?.[column]?.formula).toBe(
      `=IF(C1_ActMonths!$C$2=1,C1_Actual!${a1(revenue, column)},"")`,
    );
    // The Variance compares each row in its own column (the XLSX file fills the row right from its first).
    // Row 2: the progress of the first compared metric.
    const first = c.rowOf[c.varianceRows[0]?.key ?? ''] ?? 0;
    const [atd, etd] = [`C1_ActualToDate!${a1(first, column)}`, `C1_EstimateToDate!${a1(first, column)}`];
    expect(sheet('C1_Variance')?.rows[2]?.[column]?.formula).toBe(
      `=IF(OR(${atd}="",${etd}=""),"",IFERROR(${atd}/${etd},""))`,
    );
  });

  it('carries each formula as the workbook holds it, beside the value the engine computed', () => {
    let formulas = 0;
    const dashboard = wb.caseLayout(0).sheets.dashboard;
    for (const s of workbookSheets(grid)) {
      const contents = wb.grid(s.title);
      const values = wb.sheetValues(s.title);
      s.rows.forEach((row, r) => {
        row.forEach((cell, c) => {
          const content = contents[r]?.[c] ?? null;
          if (s.title === dashboard && cell.formula?.includes('C1_ActMonths!')) {
            // The Dashboard reads the latest ACT month from the flags sheet; its value is still the engine's.
            expect(cell.value).toBe(values[r]?.[c] ?? null);
          } else if (typeof content === 'string' && content.startsWith('=')) {
            formulas++;
            expect(cell.formula).toBe(content);
            expect(cell.value).toBe(values[r]?.[c] ?? null);
          } else {
            expect(cell.formula).toBeUndefined();
            expect(cell.value).toBe(content);
          }
        });
      });
    }
    expect(formulas).toBeGreaterThan(5000);
    // Y1 target ARR 5,000,000 is reached at month 12 (period 12): MRR 416,666.67.
    const c = wb.caseLayout(0);
    const estimate = grid.sheets.find((s) => s.title === c.sheets.estimate);
    const mrr = estimate?.rows[c.rowOf.mrr ?? 0]?.[monthColumn(12)];
    expect(mrr?.formula).toMatch(/^=/);
    expect(mrr?.value).toBeCloseTo(5_000_000 / 12, 6);
  });

  it('formats money in the currency, rates as percentages, counts with one decimal, labels not at all', () => {
    const c = wb.caseLayout(0);
    const estimate = grid.sheets.find((s) => s.title === c.sheets.estimate);
    const at = (key: string, column: number) => estimate?.rows[c.rowOf[key] ?? 0]?.[column]?.numberFormat;
    expect(at('revenue', monthColumn(3))).toEqual({ type: 'NUMBER', pattern: '#,##0' });
    expect(at('churn_cvr', quarterColumn(2, 1))).toEqual({ type: 'PERCENT', pattern: '0.0%' });
    expect(at('cumulative', monthColumn(3))).toEqual({ type: 'NUMBER', pattern: '#,##0.0' });
    expect(estimate?.rows[c.rowOf.revenue ?? 0]?.[0]?.numberFormat).toBeUndefined();
    expect(estimate?.rows[0]?.[1]?.numberFormat).toBeUndefined();
    const assumptions = grid.sheets.find((s) => s.title === c.sheets.assumptions);
    expect(assumptions?.rows[assumptionRow('churn_rate')]?.[1]?.numberFormat?.type).toBe('PERCENT');
  });

  it('uses two decimals for USD money', () => {
    const usd = PlanWorkbook.build(plan('selfserve-usd-custom.json'), { asOf: { year: 2026, month: 9 } });
    const c = usd.caseLayout(0);
    const estimate = sheetsGrid(usd).sheets.find((s) => s.title === c.sheets.estimate);
    expect(estimate?.rows[c.rowOf.revenue ?? 0]?.[monthColumn(1)]?.numberFormat?.pattern).toBe('#,##0.00');
    usd.destroy();
  });

  it('turns the workbook-level names into named ranges', () => {
    expect(grid.namedRanges.map((n) => n.name)).toEqual(wb.layout.names.map((n) => n.name));
    // target_arr -> Plan!$B$4: row 4, column B.
    expect(grid.namedRanges.find((n) => n.name === 'target_arr')).toEqual({
      name: 'target_arr',
      sheetTitle: 'Plan',
      startRowIndex: 3,
      endRowIndex: 4,
      startColumnIndex: 1,
      endColumnIndex: 2,
    });
    const plan = grid.sheets.find((s) => s.title === 'Plan');
    expect(plan?.rows[3]?.[1]?.value).toBe(5_000_000);
  });

  it('gives batchUpdate requests with typed values, formats, frozen panes, names and widths', () => {
    const ids = Object.fromEntries(grid.sheets.map((s, i) => [s.title, 100 + i]));
    const requests = sheetsBatchRequests(grid, ids);
    const kinds = requests.map((r) => Object.keys(r)[0]);
    expect(kinds.filter((k) => k === 'updateSheetProperties').length).toBe(grid.sheets.length);
    expect(kinds.filter((k) => k === 'updateCells').length).toBe(grid.sheets.length);
    expect(kinds.filter((k) => k === 'addNamedRange').length).toBe(grid.namedRanges.length);
    // Names come before the cells whose formulas use them.
    expect(kinds.indexOf('addNamedRange')).toBeLessThan(kinds.indexOf('updateCells'));

    const c = wb.caseLayout(0);
    const estimateId = ids[c.sheets.estimate];
    const update = requests.find((r) => 'updateCells' in r && r.updateCells.start.sheetId === estimateId);
    if (!update || !('updateCells' in update)) throw new Error('no updateCells for the estimate');
    const rows = update.updateCells.rows;
    expect(rows[0]?.values[1]).toEqual({ userEnteredValue: { stringValue: 'Apr 2026' } });
    const mrr = rows[c.rowOf.mrr ?? 0]?.values[monthColumn(1)];
    expect(mrr?.userEnteredValue).toEqual({ formulaValue: wb.grid(c.sheets.estimate)[c.rowOf.mrr ?? 0]?.[1] });
    expect(mrr?.userEnteredFormat).toEqual({ numberFormat: { type: 'NUMBER', pattern: '#,##0' } });
    expect(rows[c.rowOf.t ?? 0]?.values[monthColumn(2)]).toMatchObject({ userEnteredValue: { numberValue: 2 } });

    const frozen = requests.find(
      (r) => 'updateSheetProperties' in r && r.updateSheetProperties.properties.sheetId === estimateId,
    );
    expect(frozen).toMatchObject({
      updateSheetProperties: { properties: { gridProperties: { frozenRowCount: 1, frozenColumnCount: 1 } } },
    });
    const widths = requests.filter(
      (r) => 'updateDimensionProperties' in r && r.updateDimensionProperties.range.sheetId === estimateId,
    );
    const covered = widths.reduce(
      (n, r) =>
        'updateDimensionProperties' in r
          ? n + r.updateDimensionProperties.range.endIndex - r.updateDimensionProperties.range.startIndex
          : n,
      0,
    );
    expect(covered).toBe(wb.grid(c.sheets.estimate)[0]?.length);
    expect(() => sheetsBatchRequests(grid, {})).toThrow(/no sheet id/);
  });

  it('gives a USER_ENTERED values.update body with formulas as typed and text kept as text', () => {
    const c = wb.caseLayout(0);
    const estimate = grid.sheets.find((s) => s.title === c.sheets.estimate);
    if (!estimate) throw new Error('no estimate sheet');
    const body = sheetsValueUpdate(estimate);
    expect(body.range).toBe(`${c.sheets.estimate}!A1`);
    expect(body.values[0]?.[1]).toBe("'Apr 2026");
    expect(body.values[c.rowOf.t ?? 0]?.[monthColumn(3)]).toBe(3);
    expect(String(body.values[c.rowOf.arr ?? 0]?.[monthColumn(3)])).toMatch(/^=/);
    expect(body.values[1]?.[quarterColumn(1, 1)]).toBe('');
  });
});

describe('sheetsGrid with user text that looks like a formula', () => {
  it('marks a cost item named like a formula as a string in the grid, the batch requests and the values body', () => {
    const NAME = '=HYPERLINK("http://x","y")';
    const input = plan('actuals-revisions.json') as { cases: { cost_items: { item_name: string }[] }[] };
    const item = input.cases[0]?.cost_items[0];
    if (!item) throw new Error('the fixture has no cost item');
    item.item_name = NAME;
    const wb = PlanWorkbook.build(input, { asOf: { year: 2026, month: 9 } });
    const c = wb.caseLayout(0);
    const row = c.costs.itemRows[0] ?? 0;
    const grid = sheetsGrid(wb);
    const costs = grid.sheets.find((s) => s.title === c.sheets.costs);
    if (!costs) throw new Error('no costs sheet');
    expect(costs.rows[row]?.[0]).toEqual({ value: NAME });
    // The item's figures stay formulas.
    expect(costs.rows[row]?.[monthColumn(1)]?.formula).toMatch(/^=IF\(/);

    const ids = Object.fromEntries(grid.sheets.map((s, i) => [s.title, i]));
    const update = sheetsBatchRequests(grid, ids).find(
      (r) => 'updateCells' in r && r.updateCells.start.sheetId === ids[c.sheets.costs],
    );
    if (!update || !('updateCells' in update)) throw new Error('no updateCells for the costs sheet');
    expect(update.updateCells.rows[row]?.values[0]).toEqual({ userEnteredValue: { stringValue: NAME } });
    expect(sheetsValueUpdate(costs).values[row]?.[0]).toBe(`'${NAME}`);
    wb.destroy();
  });
});

/**
 * The Google Sheets grid with values typed into its actual-inputs sheet, recalculated by HyperFormula (the engine's
 * own calculator, standing in for Sheets): every sheet agrees with the engine after the same actuals are saved.
 */
describe('sheetsGrid recalculated after actuals are typed into it', () => {
  const recalculated = (grid: SheetsGrid, typed: { row: number; column: number; value: number | null }[]) => {
    const sheets = Object.fromEntries(
      grid.sheets.map((s) => [s.title, s.rows.map((row) => row.map((cell) => cell.formula ?? cell.value))]),
    );
    const inputs = sheets['C1 Actuals'];
    for (const { row, column, value } of typed) {
      const r = inputs?.[row];
      if (r) r[column] = value;
    }
    const names = grid.namedRanges.map((n) => ({
      name: n.name,
      expression: `=${quoteSheet(n.sheetTitle)}!${a1(n.startRowIndex, n.startColumnIndex, undefined, true)}${
        n.endRowIndex - n.startRowIndex === 1 && n.endColumnIndex - n.startColumnIndex === 1
          ? ''
          : `:${a1(n.endRowIndex - 1, n.endColumnIndex - 1, undefined, true)}`
      }`,
    }));
    return HyperFormula.buildFromSheets(sheets, { ...HYPERFORMULA_CONFIG }, names);
  };

  const differences = (engine: PlanWorkbook, hf: HyperFormula): string[] => {
    const problems: string[] = [];
    for (const sheet of engine.sheetNames()) {
      const id = hf.getSheetId(sheet);
      if (id === undefined) {
        problems.push(`${sheet}: not in the grid`);
        continue;
      }
      engine.sheetValues(sheet).forEach((row, r) => {
        row.forEach((want, c) => {
          const raw = hf.getCellValue({ sheet: id, row: r, col: c });
          const got = raw === null || typeof raw !== 'object' ? raw : `#${raw.type}`;
          const same =
            typeof want === 'number' && typeof got === 'number'
              ? Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want))
              : (want ?? '') === (got ?? '');
          if (!same) problems.push(`${sheet}!${a1(r, c)}: grid ${got}, engine ${want}`);
        });
      });
    }
    return problems;
  };

  it('recomputes every sheet as the engine does: a forecast month typed, an ACT month emptied', () => {
    const wb = PlanWorkbook.build(plan('actuals-revisions.json'), { asOf: { year: 2026, month: 9 } });
    const rows = actualInputRows('saas');
    const month3 = Object.keys(wb.plan.cases[0]?.actuals['3'] ?? {}).filter((k) => k !== 'status');
    const hf = recalculated(sheetsGrid(wb, { planId: 1 }), [
      { row: rows.order ?? 0, column: actualInputColumn(10), value: 7 },
      { row: rows.sm ?? 0, column: actualInputColumn(10), value: 450_000 },
      { row: rows.order ?? 0, column: actualInputColumn(14), value: 3 },
      ...month3.map((k) => ({ row: rows[k] ?? 0, column: actualInputColumn(3), value: null })),
    ]);
    const edited = PlanWorkbook.build(wb.plan, { asOf: { year: 2026, month: 9 } });
    edited.apply([
      { type: 'actual', caseIndex: 0, month: 10, values: { order: 7, sm: 450_000 } },
      { type: 'actual', caseIndex: 0, month: 14, values: { order: 3 } },
      { type: 'actual', caseIndex: 0, month: 3, values: Object.fromEntries(month3.map((k) => [k, null])) },
      { type: 'reverse', caseIndex: 0, month: 3 },
    ]);
    expect(edited.caseLayout(0).act).toEqual([1, 2, 4, 5, 6, 10, 14]);
    const problems = differences(edited, hf);
    expect(problems.slice(0, 20), `${problems.length} cells differ`).toEqual([]);
    const c = edited.caseLayout(0);
    const dashboard = hf.getSheetId(c.sheets.dashboard) ?? -1;
    expect(hf.getCellValue({ sheet: dashboard, row: c.dashboard.scalarRow.latest_actual_month, col: 1 })).toBe(14);
    hf.destroy();
    edited.destroy();
    wb.destroy();
  });
});
