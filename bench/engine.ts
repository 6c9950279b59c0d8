/**
 * Engine budgets of DESIGN.md ("Performance budgets"), measured as ratios within this one process:
 * building the three-case plan against HyperFormula's own 10,000-row x 3-formula sheet, one assumption edit against
 * that build, 100 actuals in one batch against one by one, and the heap a built plan holds. Printed, never asserted.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { compilePlan, type PlanEdit, PlanWorkbook, parsePlanFile } from '@topline/engine';
import { HyperFormula } from 'hyperformula';
import { median } from './lib/measure';

const FIXTURES = join(import.meta.dirname, '../fixtures/plans');
const AS_OF = { year: 2026, month: 9 };
const WARMUP = 2;
const RUNS = 5;
const HF_ROWS = 10_000;

export async function run(): Promise<void> {
  const { file, plan } = benchmarkPlan();

  const hfBuild = median(
    repeat(() => {
      const hf = HyperFormula.buildFromArray(hyperFormulaSheet(HF_ROWS), { licenseKey: 'gpl-v3' });
      hf.destroy();
    }),
  );
  line(`HyperFormula, ${HF_ROWS.toLocaleString('en-US')} rows x 3 formulas`, `${ms(hfBuild)} (median of ${RUNS})`);

  const build = median(
    repeat(() => {
      PlanWorkbook.build(plan, { asOf: AS_OF }).destroy();
    }),
  );
  line(`build ${file}`, `${ms(build)}`, ratio(build / hfBuild, 0.7, 'of HyperFormula'));
  const parsed = parsePlanFile(plan);
  const compile = median(repeat(() => compilePlan(parsed, { asOf: AS_OF })));
  const compiled = compilePlan(parsed, { asOf: AS_OF });
  const cells = Object.values(compiled.sheets).reduce((n, g) => n + g.reduce((m, row) => m + row.length, 0), 0);
  const formulas = Object.values(compiled.sheets)
    .flat(2)
    .filter((c) => typeof c === 'string' && c.startsWith('=')).length;
  line(
    '  of which compiling the cells',
    ms(compile),
    `${formulas.toLocaleString('en-US')} formulas in ${cells.toLocaleString('en-US')} cells`,
  );

  const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
  let churn = 0.025;
  const edit = median(
    repeat(() => {
      wb.apply({ type: 'year', caseIndex: 0, year: 1, key: 'churn_rate', value: churn });
      // Alternate the value so that every run changes the workbook.
      churn = churn === 0.025 ? 0.026 : 0.025;
    }),
  );
  line('one assumption edit (Y1 churn, case 1)', ms(edit), ratio(edit / build, 0.1, 'of the build'));
  let other = 1_000;
  const cash = median(
    repeat(() => {
      // A cash item moving between numbers is written into its cells without compiling (the grid's edit).
      wb.apply({ type: 'cash', caseIndex: 0, month: 13, values: { other } });
      other = other === 1_000 ? 2_000 : 1_000;
    }),
  );
  wb.destroy();
  line('one monthly cash edit (M13 other, case 1)', ms(cash), `${((cash / build) * 100).toFixed(2)}% of the build`);

  const edits = actualEdits(100);
  const batched = PlanWorkbook.build(plan, { asOf: AS_OF });
  const batch = time(() => batched.apply(edits));
  const single = PlanWorkbook.build(plan, { asOf: AS_OF });
  const oneByOne = time(() => {
    for (const e of edits) single.apply(e);
  });
  line('100 actuals in one batch', ms(batch));
  line('100 actuals one by one', ms(oneByOne), `batch / one by one = ${(batch / oneByOne).toFixed(3)}x`);
  batched.destroy();
  single.destroy();

  const growth = heapGrowth(() => PlanWorkbook.build(plan, { asOf: AS_OF }));
  line(`heap held by a built ${file}`, `${growth.toFixed(1)} MB`);
}

/** The three-case fixture, or the first fixture while it does not exist yet. */
function benchmarkPlan(): { file: string; plan: unknown } {
  const preferred = 'three-cases.json';
  const file = existsSync(join(FIXTURES, preferred))
    ? preferred
    : readdirSync(FIXTURES)
        .filter((f) => f.endsWith('.json'))
        .sort()[0];
  if (!file) throw new Error(`no plan fixture in ${FIXTURES}`);
  return { file, plan: JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) };
}

/**
 * The shape of HyperFormula's own "sheet A" benchmark: 10,000 rows, each a number, a constant and three chained
 * arithmetic formulas on the row above (a square, a product-sum, and a longer polynomial), numbers given as text the
 * way the benchmark does.
 */
function hyperFormulaSheet(rows: number): string[][] {
  const sheet: string[][] = [['1', '2', '3', '4', '5']];
  for (let p = 1; p < rows; p++) {
    sheet.push([
      `${p + 1}`,
      '3',
      `=A${p}*A${p}`,
      `=C${p + 1}*A${p}+B${p}`,
      `=C${p}-D${p}*D${p}+D${p}*C${p}/7+C${p}*C${p}*3+7*2`,
    ]);
  }
  return sheet;
}

/** Actuals of months 1..72 and again from month 1, with values that vary from entry to entry. */
function actualEdits(count: number): PlanEdit[] {
  return Array.from({ length: count }, (_, i) => ({
    type: 'actual' as const,
    caseIndex: 0,
    month: (i % 72) + 1,
    values: {
      order: 5 + (i % 4),
      churn: 1 + (i % 2),
      session: 1000 + 10 * i,
      lead: 70 + (i % 7),
      meeting: 20 + (i % 5),
    },
  }));
}

function repeat(f: () => void): number[] {
  for (let i = 0; i < WARMUP; i++) f();
  return Array.from({ length: RUNS }, () => time(f));
}

/**
 * CPU time of the process (user + system) in ms. On a shared machine other processes stretch wall-clock time
 * unevenly between the two sides of a ratio; the CPU time each side costs stays put.
 */
function time(f: () => void): number {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Heap still in use after `make` (its result kept alive), in MB, each side measured after a full collection. */
function heapGrowth(make: () => PlanWorkbook): number {
  const gc = collector();
  gc();
  const before = process.memoryUsage().heapUsed;
  const wb = make();
  gc();
  const after = process.memoryUsage().heapUsed;
  wb.destroy();
  return (after - before) / 1024 / 1024;
}

/** `global.gc` when node runs with --expose-gc, else the same function exposed at run time. */
function collector(): () => void {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function ms(x: number): string {
  return `${x.toFixed(1)} ms`;
}

function ratio(x: number, budget: number, of: string): string {
  return `${x.toFixed(3)}x ${of} (budget <= ${budget}x: ${x <= budget ? 'within' : 'OVER'})`;
}

function line(what: string, ...figures: string[]): void {
  console.log(`   ${what.padEnd(44)} ${figures.join('  ')}`);
}
