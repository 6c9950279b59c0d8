import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './cli';
import { csvFileName, formatCsvNumber, kpiCsv, plCsv } from './csv';
import { buildFixture, FIXTURES } from './testing';

describe('CSV exports', () => {
  it('rounds money by currency, counts to whole numbers and shows rates as percentages', () => {
    expect(formatCsvNumber('revenue', 1234.5, 'JPY')).toBe('1235');
    expect(formatCsvNumber('revenue', 1234.567, 'USD')).toBe('1234.57');
    expect(formatCsvNumber('revenue', -0.4, 'JPY')).toBe('0');
    expect(formatCsvNumber('session', 340.2138, 'JPY')).toBe('340');
    expect(formatCsvNumber('churn_cvr', 0.0305, 'JPY')).toBe('3.1%');
    expect(formatCsvNumber('ltv', null, 'JPY')).toBe('');
  });

  it('writes the annual P&L of a case with a byte-order mark', () => {
    const csv = plCsv(buildFixture('three-cases'), 0);
    expect(csv.startsWith('\uFEFFitem,label,Y1,Y2,Y3,Y4,Y5,Y6\r\n')).toBe(true);
    const rows = csv
      .slice(1)
      .trim()
      .split('\r\n')
      .map((r) => r.split(','));
    const row = (item: string) => rows.find((r) => r[0] === item);
    // Y1 revenue 54,166,666.67 -> 54166667; operating income -28,166,666.67 -> -28166667; S&M rate 90.0%.
    expect(row('revenue')?.[2]).toBe('54166667');
    expect(row('operating_pl')?.[2]).toBe('-28166667');
    expect(row('sm_rate')?.[2]).toBe('90.0%');
    expect(row('employees')?.[4]).toBe('40');
    expect(row('required_cash')?.[2]).toBe('28166667');
  });

  it('writes the KPI of a case and year in the 17 columns', () => {
    const csv = kpiCsv(buildFixture('saas-jpy-t2d3'), 0, 1);
    const [header, ...rows] = csv
      .slice(1)
      .trim()
      .split('\r\n')
      .map((r) => r.split(','));
    expect(header).toEqual([
      'item',
      'label',
      '2026-04',
      '2026-05',
      '2026-06',
      'Q1',
      '2026-07',
      '2026-08',
      '2026-09',
      'Q2',
      '2026-10',
      '2026-11',
      '2026-12',
      'Q3',
      '2027-01',
      '2027-02',
      '2027-03',
      'Q4',
      'CY',
    ]);
    // Month 1 sessions 340.21 -> 340; Y1 churn rate 3.0%; CY ARR 5,000,000.
    expect(rows.find((r) => r[0] === 'session')?.[2]).toBe('340');
    expect(rows.find((r) => r[0] === 'churn_cvr')?.[18]).toBe('3.0%');
    expect(rows.find((r) => r[0] === 'arr')?.[18]).toBe('5000000');
  });

  it('names files plan_case_area_yyyyMMdd.csv', () => {
    expect(csvFileName('Acme 株式会社', 'Base case', 'pl', new Date(2026, 10, 2))).toBe(
      'Acme_株式会社_Base_case_pl_20261102.csv',
    );
  });
});

describe('the plan CLI', () => {
  it('exports CSV files and rejects a bad plan file naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plan-cli-'));
    expect(
      await main([
        'export',
        `${FIXTURES}three-cases.json`,
        '--format',
        'csv',
        '--out',
        dir,
        '--case',
        '2',
        '--year',
        '1',
      ]),
    ).toBe(0);
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^Three_cases_Ideal_case_kpi-y1_\d{8}\.csv$/);
    expect(readFileSync(join(dir, files[1] ?? ''), 'utf8')).toContain('cogs_rate,COGS / revenue,25.0%');
  });
});
