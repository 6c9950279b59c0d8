import { describe, expect, it } from 'vitest';
import { formatMonthly } from './MonthlyGrid';
import { columnsOf, editableKeys, engineView, METRIC_ROWS, type PeriodRecords } from './model';

const record = (month: string, mrr: number) => ({ month, status: 'EST', comment: null, mrr });

describe('monthly P&L model', () => {
  it('orders the API records as M1 M2 M3 Q1 … M12 Q4 CY with plan months', () => {
    const records: PeriodRecords = {
      monthly: Array.from({ length: 12 }, (_, i) => record(`2026-${String(i + 4).padStart(2, '0')}`, i + 1)),
      quarterly: [1, 2, 3, 4].map((q) => record(`Q${q}`, q * 3)),
      yearly: record('CY', 12),
    };
    const columns = columnsOf(records, 2);
    expect(columns).toHaveLength(17);
    expect(columns.map((c) => c.column).join(' ')).toBe('M1 M2 M3 Q1 M4 M5 M6 Q2 M7 M8 M9 Q3 M10 M11 M12 Q4 CY');
    expect(columns[4]?.t).toBe(16);
    expect(columns[3]?.values.mrr).toBe(3);
    expect(columns[16]?.monthType).toBe('cy');
  });

  it('lets only cash items be entered in the estimate and actuals in the actual view', () => {
    expect(editableKeys('estimate').has('equity_raised')).toBe(true);
    expect(editableKeys('estimate').has('order')).toBe(false);
    expect(editableKeys('actual').has('order')).toBe(true);
    expect(editableKeys('progress').size).toBe(0);
    expect(editableKeys('variance').size).toBe(0);
    expect(engineView('variance', 'rate')).toBe('difference_rate');
    expect(engineView('revise', 'rate')).toBe('forecast');
  });

  it('shows costs with the sign inverted, rate rows and progress as percentages', () => {
    const row = (key: string) => METRIC_ROWS.find((r) => r.key === key) ?? METRIC_ROWS[0];
    // In English (the interface's fallback language) a negative shows a minus sign; Japanese shows ▲ (numbers.test.ts).
    expect(formatMonthly(1500000, row('sm') as never, 'actual', 'rate')).toBe('-1,500,000');
    expect(formatMonthly(-250000, row('operating_income') as never, 'actual', 'rate')).toBe('-250,000');
    expect(formatMonthly(0.3, row('cogs_rate') as never, 'estimate', 'rate')).toBe('30.0%');
    expect(formatMonthly(1.25, row('order') as never, 'progress', 'rate')).toBe('125.0%');
    expect(formatMonthly(5, row('order') as never, 'variance', 'value')).toBe('5');
  });
});
