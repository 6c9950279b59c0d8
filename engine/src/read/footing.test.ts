import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kpiCsv } from '../csv';
import { yearColumn } from '../layout';
import { PLAN_YEARS } from '../schema';
import { buildFixture, FIXTURES } from '../testing';
import type { PlanWorkbook } from '../workbook';
import { CaseReader, type NumberRecord, type ViewName } from './cells';
import { COUNT_FLOW_KEYS, footedMonths, roundCount } from './footing';
import type { GridColumn } from './monthly';

const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));
const years = Array.from({ length: PLAN_YEARS }, (_, i) => i + 1);
/** The views whose quarters and years sum their months (progress and the difference rate are ratios). */
const SUMMED: ViewName[] = ['estimate', 'actual', 'forecast', 'difference_value'];

/**
 * Every count flow of a year's 12 months, 4 quarters and the year: each shown figure is whole, each quarter is the sum
 * of its three months and the year the sum of its twelve. A blank month adds nothing (difference outside ACT months).
 */
function expectFooting(
  months: readonly Record<string, unknown>[],
  quarters: readonly Record<string, unknown>[],
  year: Record<string, unknown>,
  where: string,
): number {
  let checked = 0;
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  for (const key of [...COUNT_FLOW_KEYS, 'billing', 'paid']) {
    if (!(key in year)) continue;
    for (const [i, m] of months.entries()) {
      const v = m[key];
      if (v !== null) expect(Number.isInteger(v), `${where} ${key} M${i + 1} = ${v}`).toBe(true);
    }
    for (const [q, quarter] of quarters.entries()) {
      if (quarter[key] === null) continue;
      const sum = months.slice(3 * q, 3 * q + 3).reduce((s, m) => s + num(m[key]), 0);
      expect(quarter[key], `${where} ${key} Q${q + 1}`).toBe(sum);
    }
    if (year[key] !== null) {
      expect(year[key], `${where} ${key} CY`).toBe(months.reduce((s, m) => s + num(m[key]), 0));
      checked += 1;
    }
  }
  return checked;
}

const byKind = (columns: GridColumn[]) => ({
  months: columns.filter((c) => c.monthType === 'month').map((c) => c.values),
  quarters: columns.filter((c) => c.monthType === 'quarter').map((c) => c.values),
  year: columns.find((c) => c.monthType === 'cy')?.values ?? {},
});

/** The KPI CSV of a year as records by metric, its 17 figures as numbers (blank: null). */
function csvColumns(wb: PlanWorkbook, caseIndex: number, year: number) {
  const lines = kpiCsv(wb, caseIndex, year)
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  const header = lines[0]?.split(',') ?? [];
  const records: NumberRecord[] = header.slice(2).map(() => ({}));
  for (const line of lines.slice(1)) {
    const [key, , ...cells] = line.split(',');
    cells.forEach((cell, i) => {
      const record = records[i];
      if (record && key) record[key] = cell === '' ? null : Number(cell);
    });
  }
  const kinds = header.slice(2).map((h) => (h === 'CY' ? 'cy' : h.startsWith('Q') ? 'quarter' : 'month'));
  return {
    months: records.filter((_, i) => kinds[i] === 'month'),
    quarters: records.filter((_, i) => kinds[i] === 'quarter'),
    year: records[kinds.indexOf('cy')] ?? {},
  };
}

describe('counts that foot', () => {
  it('shows a month as the step of the rounded running total', () => {
    // Twelve months of 2.75 (a year of 33): running totals 2.75, 5.5, 8.25, 11, 13.75, 16.5, 19.25, 22, 24.75, 27.5,
    // 30.25, 33 round to 3, 6, 8, 11, 14, 17, 19, 22, 25, 28, 30, 33; the steps are the months.
    const months = footedMonths(Array(12).fill(2.75));
    expect(months).toEqual([3, 3, 2, 3, 3, 3, 2, 3, 3, 3, 2, 3]);
    expect(months.slice(0, 3).reduce((s, v) => (s ?? 0) + (v ?? 0), 0)).toBe(8);
    // 2.6 three times (7.8): 2.6, 5.2, 7.8 round to 3, 5, 8.
    expect(footedMonths([2.6, 2.6, 2.6])).toEqual([3, 2, 3]);
    // Entered (whole) months show as entered wherever they fall; blanks and uncomputed figures add nothing.
    expect(footedMonths([0.4, 3, 0.4, 5, null, 0.4])).toEqual([0, 3, 1, 5, null, 0]);
    expect(footedMonths([1, Number.NaN, 1.5])).toEqual([1, Number.NaN, 2]);
    expect(roundCount(2.5)).toBe(3);
    expect(roundCount(2.4999)).toBe(2);
    expect(roundCount(-0.5)).toBe(0);
  });

  it("foots the wizard default plan's first quarter, worked by hand", () => {
    // saas-jpy-t2d3: customers 2.3148 t (MRR 416,666.67 t / 12 over ARPA 15,000), churn 3% of the month before:
    // orders 2.3148, 2.3843, 2.4537; running totals 2.3148, 4.6991, 7.1528 round to 2, 5, 7: months 2, 3, 2, Q1 7.
    // Rounding each month alone would show 2, 2, 2 under a Q1 of 7.
    const wb = buildFixture('saas-jpy-t2d3');
    const [y1] = wb.kpi(0);
    expect(y1?.monthly.slice(0, 3).map((m) => m.order)).toEqual([2, 3, 2]);
    expect(y1?.quarterly[0]?.order).toBe(7);
    const grid = wb.monthlyGrid(0, 1, 'estimate');
    expect(grid.slice(0, 4).map((c) => c.values.order)).toEqual([2, 3, 2, 7]);
  });

  it.each(fixtures)("%s: every count flow's shown quarters and years are the sums of its shown months", (name) => {
    const wb = buildFixture(name);
    let checked = 0;
    for (let c = 0; c < wb.plan.cases.length; c++) {
      const r = new CaseReader(wb, c);
      const kpi = wb.kpi(c);
      const pl = wb.monthlyPl(c);
      for (const year of years) {
        for (const view of SUMMED) {
          const grid = byKind(wb.monthlyGrid(c, year, view));
          checked += expectFooting(grid.months, grid.quarters, grid.year, `${name} case ${c} Y${year} ${view}`);
        }
        const py = pl[year - 1];
        for (const records of py ? [py.estimate, py.actual, py.forecast, py.difference.value] : []) {
          checked += expectFooting(records.monthly, records.quarterly, records.yearly, `${name} monthlyPl Y${year}`);
        }
        const ky = kpi[year - 1];
        if (ky) checked += expectFooting(ky.monthly, ky.quarterly, ky.yearly, `${name} KPI Y${year}`);
        const csv = csvColumns(wb, c, year);
        checked += expectFooting(csv.months, csv.quarters, csv.year, `${name} KPI CSV Y${year}`);

        // The shown year is the true year rounded, and no month is off by a whole count.
        const estimate = wb.monthlyGrid(c, year, 'estimate');
        for (const key of COUNT_FLOW_KEYS) {
          const raw = r.cell(r.layout.sheets.estimate, key, yearColumn(year));
          if (raw === null || !Number.isFinite(raw)) continue;
          expect(estimate[16]?.values[key]).toBe(roundCount(raw));
          for (const column of estimate.filter((col) => col.t !== null)) {
            const month = r.estimateAt(key, column.t ?? 0) ?? 0;
            expect(Math.abs((column.values[key] ?? 0) - month)).toBeLessThan(1);
          }
        }
        // A difference is the shown actual minus the shown estimate.
        const actual = wb.monthlyGrid(c, year, 'actual');
        for (const [i, column] of wb.monthlyGrid(c, year, 'difference_value').entries()) {
          if (column.t === null) continue;
          for (const key of COUNT_FLOW_KEYS) {
            const d = column.values[key];
            if (d === null || d === undefined) continue;
            expect(d).toBe((actual[i]?.values[key] ?? 0) - (estimate[i]?.values[key] ?? 0));
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
