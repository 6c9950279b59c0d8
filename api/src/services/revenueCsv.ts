import type { PlanWorkbook } from '@topline/engine';

/**
 * The revenue of a case as CSV: one row per plan month (and a row per plan year), the engine's revenue read model
 * written as MODEL.md section 8 asks: money rounded to 0 decimals (JPY) or 2 (USD), rates as percentages with one
 * decimal, UTF-8 with a byte-order mark.
 */
export function revenueCsv(workbook: PlanWorkbook, caseIndex: number): string {
  const decimals = workbook.plan.currency === 'USD' ? 2 : 0;
  const money = (value: number | null) => (value === null || !Number.isFinite(value) ? '' : round(value, decimals));
  const rate = (value: number | null) => (value === null || !Number.isFinite(value) ? '' : `${round(value * 100, 1)}%`);
  const rows: string[][] = [
    ['period', 'month', 'mrr', 'professional_service', 'revenue', 'cumulative_revenue', 'recurring_revenue_rate'],
  ];
  for (const year of workbook.revenue(caseIndex)) {
    for (const m of year.monthly) {
      rows.push([
        `M${m.t}`,
        m.month,
        money(m.mrr),
        money(m.professional_service),
        money(m.revenue),
        money(m.cumulative_revenue),
        '',
      ]);
    }
    rows.push([
      `Y${year.year}`,
      '',
      money(year.mrr),
      money(year.professional_service),
      money(year.revenue),
      '',
      rate(year.recurring_revenue_rate),
    ]);
  }
  const field = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  return `\uFEFF${rows.map((r) => r.map(field).join(',')).join('\r\n')}\r\n`;
}

/** Half away from zero, as text with a fixed number of decimals. */
function round(value: number, decimals: number): string {
  const f = 10 ** decimals;
  const r = Math.round(Math.abs(value) * f + 1e-9) / f;
  return (value < 0 && r !== 0 ? -r : r).toFixed(decimals);
}
