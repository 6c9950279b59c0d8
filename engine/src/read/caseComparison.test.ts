import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { comparisonCsv } from '../comparisonCsv';
import { buildFixture, FIXTURES } from '../testing';
import { type CompareYear, caseComparison, caseComparisonSchema, differenceRate } from './caseComparison';

const close = (value: number | null | undefined, expected: number, digits = 6) => {
  expect(value).not.toBeNull();
  expect(value).toBeCloseTo(expected, digits);
};

describe('cases side by side (three-cases)', () => {
  const wb = buildFixture('three-cases');
  const comparison = caseComparison(wb);
  const [base, ideal, prudent] = comparison.cases;
  const y = (c: typeof base, year: number) => c?.years[year - 1] as CompareYear;

  it('lists every case, base first, and parses strictly', () => {
    expect(comparison.cases.map((c) => c.case_name)).toEqual(['Base case', 'Ideal case', 'Prudent case']);
    expect(caseComparisonSchema.parse(comparison)).toEqual(comparison);
  });

  it("reads each case's year figures as the annual P&L does", () => {
    // MODEL.md section 3 with P = 12: Y1 MRR ramps t/12 of M1, so Y1 revenue = M1 x 78/12 = T1 / 12 x 6.5.
    // Base T1 = 100M: 54,166,666.67; costs 30 + 90 (the S&M override) + 21 + 11 = 152 %: operating income -52 %.
    close(y(base, 1).values.revenue, 54_166_666.666667, 3);
    close(y(base, 1).values.operating_pl, -28_166_666.666667, 3);
    close(y(base, 1).values.operating_pl_rate, -0.52);
    // Customers at the year end: ARR 100M / 12 / ARPA 50,000 = 166.67; head count ROUNDUP(100M / 5M) = 20.
    close(y(base, 1).values.customers, 166.666667);
    expect(y(base, 1).values.employees).toBe(20);
    // Ending cash: 50M beginning + 100M equity in month 7 - 28,166,666.67 of loss = 121,833,333.33.
    close(y(base, 1).values.ending_cash, 121_833_333.333333, 3);
    // Burn multiple: 28,166,666.67 burned / 100M net new ARR.
    close(y(base, 1).values.burn_multiple, 0.2816666667);
    // Every annual P&L figure the comparison shares with it is the same number.
    const pl = wb.annualPl(1);
    for (const [i, row] of pl.entries()) {
      expect(y(ideal, i + 1).values.revenue).toBe(row.revenue);
      expect(y(ideal, i + 1).values.required_cash).toBe(row.required_cash);
      expect(y(ideal, i + 1).values.operating_pl).toBe(row.operating_pl);
    }
  });

  it("states each case's difference from the base as a value and a rate", () => {
    // Ideal (rate 2): T1 = 200M, revenue 108,333,333.33, twice the base: +54,166,666.67, +100 %.
    close(y(ideal, 1).difference?.revenue, 54_166_666.666667, 3);
    close(y(ideal, 1).difference_rate?.revenue, 1);
    // Ideal operating income 5 % (costs 25 + 38 + 21 + 11) of 108,333,333.33 = 5,416,666.67; less -28,166,666.67 is
    // +33,583,333.33, over the base's size 28,166,666.67: 0.62 / 0.52 = +119.23 %.
    close(y(ideal, 1).difference?.operating_pl, 33_583_333.333333, 3);
    close(y(ideal, 1).difference_rate?.operating_pl, 0.62 / 0.52);
    // Margins differ in points: 5 % - (-52 %) = 57 points.
    close(y(ideal, 1).difference?.operating_pl_rate, 0.57);
    // Prudent (rate 0.5): half the base's ARR, 50M: -50M, -50 %; with default costs (100 %) it breaks even: +100 %.
    close(y(prudent, 1).difference?.arr, -50_000_000, 3);
    close(y(prudent, 1).difference_rate?.arr, -0.5);
    close(y(prudent, 1).difference_rate?.operating_pl, 1);
    // Y2: Ideal ARR 200M x 4.4 = 880M against 300M: +580M, +193.33 %.
    close(y(ideal, 2).difference?.arr, 580_000_000, 2);
    close(y(ideal, 2).difference_rate?.arr, 580 / 300);
  });

  it('leaves the base case without differences', () => {
    for (const year of base?.years ?? []) {
      expect(year.difference).toBeNull();
      expect(year.difference_rate).toBeNull();
    }
  });

  it('shows the rate of a zero base as a dash and a residue difference as 0', () => {
    // Base Y2 costs 100 % of revenue: operating income is zero up to floating-point residue, so no case's rate of it
    // exists; the cases also break even, so the difference is 0.
    expect(Math.abs(y(base, 2).values.operating_pl ?? 1)).toBeLessThan(0.005);
    expect(y(ideal, 2).difference_rate?.operating_pl).toBeNull();
    expect(y(prudent, 2).difference_rate?.operating_pl).toBeNull();
    expect(y(ideal, 2).difference?.operating_pl).toBe(0);
    // No net new ARR burned in Y2: the burn multiple is 0 in every case; its rate against the base's 0 is a dash.
    expect(y(ideal, 2).difference_rate?.burn_multiple).toBeNull();
  });

  it('rates a difference over the size of the base, blank where a figure is', () => {
    expect(differenceRate('operating_pl', -50, -100)).toBeCloseTo(0.5);
    expect(differenceRate('revenue', 150, 100)).toBeCloseTo(0.5);
    expect(differenceRate('revenue', 150, 0.001)).toBeNull();
    // A count's base is zero below half a customer; a rate's below half of 0.1 %: the residue rule's sizes.
    expect(differenceRate('customers', 3, 2)).toBeCloseTo(0.5);
    expect(differenceRate('customers', 1, 0.4)).toBeNull();
    expect(differenceRate('gross_profit_rate', 0.1, 0.0004)).toBeNull();
    expect(differenceRate('gross_profit_rate', 0.1, 0.05)).toBeCloseTo(1);
    expect(differenceRate('revenue', null, 100)).toBeNull();
    expect(differenceRate('revenue', 100, null)).toBeNull();
  });
});

describe('the comparison CSV', () => {
  const wb = buildFixture('three-cases');

  it('writes each case, then each difference as a value and a rate, per figure', () => {
    const lines = comparisonCsv(wb, 'en').replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('item,label,case,figure,Y1,Y2,Y3,Y4,Y5,Y6');
    const revenue = lines.filter((l) => l.startsWith('revenue,'));
    expect(revenue.map((l) => l.split(',').slice(2, 5).join(','))).toEqual([
      // 54,166,666.67 rounded to yen; the ideal case twice that: +54,166,667 (+100.0 %); the prudent half: -50.0 %.
      'Base case,value,54166667',
      'Ideal case,value,108333333',
      'Prudent case,value,27083333',
      'Ideal case,difference,54166667',
      'Ideal case,difference rate,100.0%',
      'Prudent case,difference,-27083333',
      'Prudent case,difference rate,-50.0%',
    ]);
    // Base Y2 operating income is zero: the rates of it are empty (the screen's dash).
    const rate = lines.find((l) => l.startsWith('operating_pl,') && l.includes('Ideal case,difference rate'));
    expect(rate?.split(',')[4]).toBe('119.2%');
    expect(rate?.split(',')[5]).toBe('');
  });

  it('words its headers in Japanese', () => {
    const lines = comparisonCsv(wb, 'ja').replace('\uFEFF', '').split('\r\n');
    expect(lines[0]).toBe('項目,名称,ケース,区分,1年目,2年目,3年目,4年目,5年目,6年目');
    expect(lines.some((l) => l.startsWith('customers,累計顧客,Ideal case,差額,'))).toBe(true);
  });
});

describe('the comparison of every fixture', () => {
  const names = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''));
  it.each(names)('parses strictly, base case first, on %s', (name) => {
    const wb = buildFixture(name);
    const comparison = caseComparison(wb);
    expect(caseComparisonSchema.parse(comparison)).toEqual(comparison);
    expect(comparison.cases.map((c) => c.case_name)).toEqual(wb.plan.cases.map((c) => c.case_name));
    expect(comparison.cases[0]?.years.every((y) => y.difference === null)).toBe(true);
  });
});
