/**
 * Issue 15's import budget: importing a full year of actuals for every case (the XLSX or Google Sheets import, one
 * `apply` batch of every month's values into a built workbook) against a fresh build of the same plan holding those
 * actuals (budget at most 1x); the build of the plan without them is printed beside it. CPU time of this process,
 * medians of several runs; printed, never asserted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits, type PlanEdit, PlanWorkbook, parsePlanFile } from '@topline/engine';
import { actualInputKeys } from '@topline/engine/export';
import { median } from './lib/measure';

const FIXTURE = 'three-cases.json';
const AS_OF = { year: 2026, month: 9 };
const RUNS = 5;

export async function run(): Promise<void> {
  const plan = parsePlanFile(JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/plans', FIXTURE), 'utf8')));
  const edits = yearOfActuals(plan);
  const imported = parsePlanFile(applyEdits(plan, edits));
  const build = median(
    Array.from({ length: RUNS + 1 }, () => time(() => PlanWorkbook.build(plan, { asOf: AS_OF }).destroy())).slice(1),
  );
  line(`fresh build of ${FIXTURE}`, ms(build));
  let recompiled = '';
  const imports = Array.from({ length: RUNS + 1 }, () => {
    const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
    const spent = time(() => {
      const result = wb.apply(edits);
      recompiled = result.rebuilt ? 'rebuilt' : `patched, ${result.recompiled} compiled`;
    });
    wb.destroy();
    return spent;
  }).slice(1);
  const importing = median(imports);
  // The same plan with its year of actuals, built from scratch: what the import would cost as a rebuild.
  const rebuilt = median(
    Array.from({ length: RUNS + 1 }, () => time(() => PlanWorkbook.build(imported, { asOf: AS_OF }).destroy())).slice(
      1,
    ),
  );
  line(`fresh build of ${FIXTURE} with the imported actuals`, ms(rebuilt));
  const ratio = importing / rebuilt;
  line(
    `import: 12 months x ${plan.cases.length} cases of actuals`,
    ms(importing),
    `(${edits.length} months, ${recompiled}), ${(importing / build).toFixed(3)}x the build without them`,
  );
  line(
    'import / fresh build of the imported plan',
    `${ratio.toFixed(3)}x (budget <= 1x: ${ratio <= 1 ? 'within' : 'OVER'})`,
  );
}

/** Plan year 1 of every case: every actual input of the template in every month, as the import sends them. */
function yearOfActuals(plan: ReturnType<typeof parsePlanFile>): PlanEdit[] {
  const keys = actualInputKeys(plan.template).filter((k) => k !== 'beginning_cash_balance');
  const edits: PlanEdit[] = [];
  plan.cases.forEach((_, caseIndex) => {
    for (let t = 1; t <= 12; t++) {
      const values: Record<string, number> = {};
      keys.forEach((key, i) => {
        values[key] =
          key === 'arpa' ? 50_000 + 100 * t : key === 'employees' ? 5 + t : key === 'churn' ? t % 3 : 10 * (i + 1) * t;
      });
      edits.push({ type: 'actual', caseIndex, month: t, values });
    }
  });
  return edits;
}

function time(f: () => void): number {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function ms(x: number): string {
  return `${x.toFixed(1)} ms`;
}

function line(what: string, ...figures: string[]): void {
  console.log(`   ${what.padEnd(44)} ${figures.join('  ')}`);
}
