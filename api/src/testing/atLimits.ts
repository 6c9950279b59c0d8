/**
 * A plan at every limit a user can grow it to at once, for the tests and the bench that hold its build, its screens
 * and its XLSX to a multiple of `fixtures/plans/three-cases.json`'s build: the most cases, the most cost items in
 * each (spread over the groups, terms of every length), a memo in every cell that takes one, and actuals in every
 * month up to `asOf`.
 */
import { readFileSync } from 'node:fs';
import { COLLECTION_LIMITS, MAX_CASES } from '@topline/contract';
import { PlanWorkbook } from '@topline/engine';
import { exportXlsx } from '@topline/engine/export';
import { COMMENT_SECTIONS, COST_ITEM_TITLES, PLAN_YEARS, type PlanFile, planFileSchema } from '@topline/engine/schema';

const FIXTURE = new URL('../../../fixtures/plans/three-cases.json', import.meta.url);

/** The three-case fixture as parsed JSON. */
export const threeCases = (): Record<string, unknown> & { cases: Record<string, unknown>[] } =>
  JSON.parse(readFileSync(FIXTURE, 'utf8'));

/** The three-case fixture grown to every limit, with actuals in the first `actualMonths` plan months. */
export function planAtLimits(actualMonths: number): unknown {
  const file = threeCases();
  const first = file.cases[0] ?? {};
  while (file.cases.length < MAX_CASES) file.cases.push({ ...first, case_name: `Case ${file.cases.length + 1}` });
  const startYear = Number(file.start_year);
  file.cases.forEach((c, ci) => {
    c.cost_items = Array.from({ length: COLLECTION_LIMITS.costItemsPerCase }, (_, i) => {
      // Terms of 1 to 72 months, starting in every month of the first year.
      const from = i % 12;
      const to = from + ((i * 7 + ci) % (PLAN_YEARS * 12));
      return {
        item_title: COST_ITEM_TITLES[i % COST_ITEM_TITLES.length],
        item_name: `Item ${i + 1}`,
        price: 10_000 + 100 * i,
        start_year: startYear,
        start_month: from + 1,
        end_year: startYear + Math.floor(to / 12),
        end_month: (to % 12) + 1,
      };
    });
    c.comments = Array.from({ length: PLAN_YEARS }, (_, y) =>
      Array.from({ length: 12 }, (_, m) =>
        COMMENT_SECTIONS.map((section) => ({
          year: y + 1,
          column_name: m + 1,
          section,
          content: `Memo ${y + 1}/${m + 1}`,
        })),
      ),
    ).flat(2);
    c.actuals = Object.fromEntries(
      Array.from({ length: actualMonths }, (_, t) => [
        String(t + 1),
        { status: 'ACT', session: 1000 + t, lead: 100 + t, meeting: 50, registration: 20, order: 10, churn: 1 },
      ]),
    );
  });
  return file;
}

export interface AtLimitsTimes {
  /** Median ms of building the three-case fixture. */
  base: number;
  /** Median ms of building the plan at every limit. */
  build: number;
  /** Ms of every screen's read model of every case of it. */
  screens: number;
  /** Ms of its XLSX export, and of the three-case fixture's. */
  xlsx: number;
  baseXlsx: number;
}

const AS_OF = { year: 2026, month: 12 };

/** Times the three-case fixture's build and the plan at every limit's build, screens and export, in this process. */
export async function timeAtLimits(runs = 3): Promise<AtLimitsTimes> {
  const base = planFileSchema.parse(threeCases());
  const full = planFileSchema.parse(planAtLimits(9));
  const time = (plan: PlanFile) => {
    const started = performance.now();
    PlanWorkbook.build(plan, { asOf: AS_OF }).destroy();
    return performance.now() - started;
  };
  time(base); // warm: the first build in a process compiles the engine's code
  // Alternated, so that a host whose speed drifts slows both alike.
  const baseBuilds: number[] = [];
  const builds: number[] = [];
  for (let i = 0; i < runs; i++) {
    baseBuilds.push(time(base));
    builds.push(time(full));
  }
  const baseBuild = median(baseBuilds);
  const build = median(builds);
  const wb = PlanWorkbook.build(full, { asOf: AS_OF });
  try {
    let started = performance.now();
    full.cases.forEach((_, c) => {
      wb.annualPl(c);
      wb.kpi(c);
      wb.revenue(c);
      wb.costs(c);
      wb.monthlyPl(c);
      wb.dashboard(c);
    });
    const screens = performance.now() - started;
    // The fixture's export first, twice: the first export in a process also compiles the writer's code.
    const fixture = PlanWorkbook.build(base, { asOf: AS_OF });
    let baseXlsx = 0;
    try {
      for (let i = 0; i < 2; i++) {
        started = performance.now();
        await exportXlsx(fixture, { planId: 1 });
        baseXlsx = performance.now() - started;
      }
    } finally {
      fixture.destroy();
    }
    started = performance.now();
    await exportXlsx(wb, { planId: 1 });
    return { base: baseBuild, build, screens, xlsx: performance.now() - started, baseXlsx };
  } finally {
    wb.destroy();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}
