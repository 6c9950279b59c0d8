/**
 * The plan CLI: `npm run --silent plan -- evaluate FILE.json` and
 * `npm run --silent plan -- export FILE.json --format csv|xlsx --out PATH`. The only part of the engine that touches
 * files; everything it prints comes from the workbook.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { csvFileName, kpiCsv, plCsv } from './csv';
import { estimateMonths } from './read/monthly';
import { PLAN_YEARS, PlanFileError, parsePlanFile } from './schema';
import { PlanWorkbook } from './workbook';

const USAGE = `usage:
  plan evaluate FILE.json
  plan export FILE.json --format csv --out DIRECTORY [--case N] [--year Y]
  plan export FILE.json --format xlsx --out FILE.xlsx`;

class UsageError extends Error {}

function load(file: string | undefined): PlanWorkbook {
  if (!file) throw new UsageError('a plan file is required');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  // A file given to the CLI is read as strictly as an imported one.
  return PlanWorkbook.build(parsePlanFile(json));
}

function evaluate(wb: PlanWorkbook): string {
  const cases = wb.plan.cases.map((c, i) => ({
    case_name: c.case_name,
    annual: wb.annualPl(i),
    monthly: estimateMonths(wb, i),
  }));
  return `${JSON.stringify({ cases })}\n`;
}

async function exportPlan(wb: PlanWorkbook, values: Record<string, string | undefined>): Promise<string[]> {
  const out = values.out;
  if (!out) throw new UsageError('--out is required');
  const today = new Date();
  if (values.format === 'xlsx') {
    const { exportXlsx } = await import('./export/xlsx');
    writeFileSync(out, await exportXlsx(wb));
    return [out];
  }
  if (values.format !== 'csv') throw new UsageError('--format must be csv or xlsx');
  mkdirSync(out, { recursive: true });
  const cases = values.case === undefined ? wb.plan.cases.map((_, i) => i) : [Number(values.case) - 1];
  const years = values.year === undefined ? Array.from({ length: PLAN_YEARS }, (_, i) => i + 1) : [Number(values.year)];
  const written: string[] = [];
  for (const c of cases) {
    const plan = wb.plan.cases[c];
    if (!plan) throw new UsageError(`--case must be 1 to ${wb.plan.cases.length}`);
    const pl = join(out, csvFileName(wb.plan.business_plan_name, plan.case_name, 'pl', today));
    writeFileSync(pl, plCsv(wb, c));
    written.push(pl);
    for (const y of years) {
      if (!(y >= 1 && y <= PLAN_YEARS)) throw new UsageError(`--year must be 1 to ${PLAN_YEARS}`);
      const kpi = join(out, csvFileName(wb.plan.business_plan_name, plan.case_name, `kpi-y${y}`, today));
      writeFileSync(kpi, kpiCsv(wb, c, y));
      written.push(kpi);
    }
  }
  return written;
}

export async function main(argv: string[]): Promise<number> {
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        out: { type: 'string' },
        case: { type: 'string' },
        year: { type: 'string' },
      },
    });
    const [command, file] = positionals;
    if (command === 'evaluate') {
      process.stdout.write(evaluate(load(file)));
      return 0;
    }
    if (command === 'export') {
      const written = await exportPlan(load(file), values);
      for (const w of written) process.stderr.write(`wrote ${w}\n`);
      return 0;
    }
    throw new UsageError(command ? `unknown command ${command}` : 'a command is required');
  } catch (e) {
    if (e instanceof PlanFileError) {
      process.stderr.write(
        `invalid plan file:\n${e.issues.map((i) => `  ${i.path || '(plan)'}: ${i.message}`).join('\n')}\n`,
      );
      return 2;
    }
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e)) {
      process.stderr.write(`${e.message}\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*[\\/]/, ''))) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
