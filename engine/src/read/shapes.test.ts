import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PLAN_YEARS } from '../schema';
import { buildFixture, FIXTURES } from '../testing';
import { assumptions, assumptionValuesSchema } from './assumptions';
import { VIEWS } from './cells';
import { costYearSchema } from './costs';
import { dashboardSchema } from './dashboard';
import { kpiYearSchema } from './kpi';
import { gridColumnSchema, monthlyPlYearSchema } from './monthly';
import { plYearRowSchema } from './pl';
import { revenueYearSchema } from './revenue';

const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));
const years = Array.from({ length: PLAN_YEARS }, (_, i) => i + 1);

/** Parses strictly and reports every issue with its path, so a drifted field is named. */
function expectShape(schema: z.ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  expect(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
}

describe('read model schemas', () => {
  it.each(fixtures)('every read model of every case of %s parses with its schema', (name) => {
    const wb = buildFixture(name);
    for (let c = 0; c < wb.plan.cases.length; c++) {
      expectShape(z.array(plYearRowSchema), wb.annualPl(c));
      expectShape(z.array(kpiYearSchema), wb.kpi(c));
      expectShape(z.array(revenueYearSchema), wb.revenue(c));
      expectShape(z.array(costYearSchema), wb.costs(c));
      expectShape(dashboardSchema, wb.dashboard(c));
      expectShape(z.array(monthlyPlYearSchema), wb.monthlyPl(c));
      for (const year of years) {
        expectShape(assumptionValuesSchema, assumptions(wb, c, year));
        for (const view of VIEWS) expectShape(z.array(gridColumnSchema), wb.monthlyGrid(c, year, view));
      }
    }
  });

  it('refuses an extra field, a missing field and a metric of the other template', () => {
    const wb = buildFixture('actuals-revisions');
    const [row] = wb.annualPl(0);
    expect(plYearRowSchema.safeParse({ ...row, extra: 1 }).success).toBe(false);
    const { sales: _sales, ...withoutSales } = row ?? {};
    expect(plYearRowSchema.safeParse(withoutSales).success).toBe(false);

    const [column] = wb.monthlyGrid(0, 1, 'actual');
    expect(gridColumnSchema.safeParse({ ...column, extra: 1 }).success).toBe(false);
    // The fixture is saas: a self-serve metric in its values, or a metric missing from them, is drift.
    expect(gridColumnSchema.safeParse({ ...column, values: { ...column?.values, registration: 1 } }).success).toBe(
      false,
    );
    const { mrr: _mrr, ...withoutMrr } = column?.values ?? {};
    expect(gridColumnSchema.safeParse({ ...column, values: withoutMrr }).success).toBe(false);

    const dashboard = wb.dashboard(0);
    expect(dashboardSchema.safeParse({ ...dashboard, metrics: { ...dashboard.metrics, nps: {} } }).success).toBe(false);
    expect(dashboardSchema.safeParse({ ...dashboard, cash_out: { t: 1, year: 2026, month: 4, day: 1 } }).success).toBe(
      false,
    );
  });

  it('takes blank figures as null and refuses a number written as text', () => {
    const [row] = buildFixture('saas-jpy-t2d3').annualPl(0);
    expect(plYearRowSchema.safeParse({ ...row, required_cash: null }).success).toBe(true);
    expect(plYearRowSchema.safeParse({ ...row, required_cash: '0' }).success).toBe(false);
  });
});
