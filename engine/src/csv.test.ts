import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from './cli';
import {
  type CsvCell,
  csvFigure,
  csvFileName,
  csvLines,
  formatCsvNumber,
  kpiCsv,
  monthlyCsv,
  monthlyCsvRows,
  plCsv,
  plCsvRows,
  revenueCsv,
  toCsv,
} from './csv';
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

  it('reads the figures when the rows are made and writes the lines as they are read', () => {
    const wb = buildFixture('three-cases');
    const before = plCsv(wb, 0);
    const monthlyBefore = monthlyCsv(wb, 0, 1, 'estimate');
    const rows = plCsvRows(wb, 0);
    const monthly = monthlyCsvRows(wb, 0, 1, 'estimate');
    // An edit after the rows were made (another request, while a file streams) is not in them.
    wb.apply({ type: 'caseRate', caseIndex: 0, value: 1.5 });
    expect(plCsv(wb, 0)).not.toBe(before);
    expect(monthlyCsv(wb, 0, 1, 'estimate')).not.toBe(monthlyBefore);
    const lines = [...csvLines(rows)];
    expect(lines.join('')).toBe(before);
    expect([...csvLines(monthly)].join('')).toBe(monthlyBefore);
    // One line per row (a header and the 20 P&L items), each ending CRLF, the byte-order mark on the first only.
    expect(lines).toHaveLength(21);
    expect(lines.every((l) => l.endsWith('\r\n') && l.indexOf('\r\n') === l.length - 2)).toBe(true);
    expect(lines.filter((l) => l.startsWith('\uFEFF'))).toEqual([lines[0]]);
    expect(toCsv([])).toBe('\uFEFF\r\n');
    wb.destroy();
  });

  it('neutralises text that a spreadsheet would read as a formula, and leaves figures as numbers', () => {
    const line = (cells: readonly CsvCell[]) => toCsv([cells]).slice(1, -2);
    expect(line(['=HYPERLINK("http://x","y")'])).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(line(['=1+1'])).toBe(`"'=1+1"`);
    expect(line(['+1+1'])).toBe(`"'+1+1"`);
    expect(line(['-1+1'])).toBe(`"'-1+1"`);
    expect(line(['@SUM(A1)'])).toBe(`"'@SUM(A1)"`);
    expect(line(['\t=1+1'])).toBe(`"'\t=1+1"`);
    expect(line(['\r=1+1'])).toBe(`"'\r=1+1"`);
    // Text that is not formula-like is left alone, an inner = included; figures, negative ones too, are not quoted.
    expect(line(['Base case', 'a=b', 'x, y', csvFigure('-1200'), csvFigure('-3.5%'), csvFigure('')])).toBe(
      'Base case,a=b,"x, y",-1200,-3.5%,',
    );
  });

  it('names files plan_case_area_yyyyMMdd.csv', () => {
    expect(csvFileName('Acme 株式会社', 'Base case', 'pl', new Date(2026, 10, 2))).toBe(
      'Acme_株式会社_Base_case_pl_20261102.csv',
    );
  });
});

/** Runs the CLI, capturing what it prints. */
async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  try {
    return { code: await main(args), out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

describe('the plan CLI', () => {
  it('evaluates a plan file to six P&L years and 72 monthly records per case', async () => {
    const { code, out } = await runCli(['evaluate', `${FIXTURES}three-cases.json`]);
    expect(code).toBe(0);
    const result = JSON.parse(out) as {
      cases: { case_name: string; annual: { arr: number }[]; monthly: Record<string, unknown>[] }[];
    };
    expect(result.cases.map((c) => c.case_name)).toEqual(['Base case', 'Ideal case', 'Prudent case']);
    expect(result.cases[0]?.annual).toHaveLength(6);
    expect(result.cases[0]?.annual[0]?.arr).toBeCloseTo(100_000_000, 3);
    expect(result.cases[0]?.monthly).toHaveLength(72);
    expect(result.cases[0]?.monthly[0]).toMatchObject({ month: '2026-04', status: 'EST' });
    for (const key of ['arpa', 'beginning_cash_balance', 'burn_multiple', 'cac', 'churn_cvr', 'ltv_cac', 'order_cvr']) {
      expect(result.cases[0]?.monthly[0]).toHaveProperty(key);
    }
  });

  it('rejects a bad plan file naming each field and exits non-zero', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plan-cli-'));
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        business_plan_name: 'x',
        template: 'saas',
        currency: 'EUR',
        arr: 1,
        arpa: 1,
        start_year: 2026,
        start_month: 1,
        cases: [{ case_name: 'a', years: { '1': { churn_rate: 2 } } }],
      }),
    );
    const bad = await runCli(['evaluate', file]);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('currency');
    expect(bad.err).toContain('cases.0.years.1.churn_rate');
    writeFileSync(file, '{ not json');
    expect((await runCli(['evaluate', file])).err).toContain('not valid JSON');
    const pdf = await runCli(['export', `${FIXTURES}three-cases.json`, '--format', 'pdf', '--out', dir]);
    expect(pdf.code).not.toBe(0);
    expect(pdf.err).toContain('--format must be csv or xlsx');
  });

  it('exports CSV files', async () => {
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

describe('the revenue CSV', () => {
  it('writes a row per month and per year with the recurring revenue rate as a percentage', () => {
    const lines = revenueCsv(buildFixture('saas-jpy-t2d3'), 0).slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('period,month,mrr,professional_service,revenue,cumulative_revenue,recurring_revenue_rate');
    expect(lines).toHaveLength(1 + 6 * 13);
    // Month 1: MRR = 5,000,000 / 12 / 12 = 34,722.2 -> 34722; Y1 revenue 2,708,333.33 -> 2708333 at 100% recurring.
    expect(lines[1]).toBe('M1,2026-04,34722,0,34722,34722,');
    expect(lines[13]).toBe('Y1,,416667,0,2708333,,100.0%');
  });
});
