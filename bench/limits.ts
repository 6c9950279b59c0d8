/**
 * A plan at every limit (`api/src/testing/atLimits.ts`: the most cases, cost items and memos, with actuals) against
 * the three-case fixture's build, as `api/src/testing/atLimits.test.ts` holds them: its build and its screens within
 * 5x the fixture's build, its XLSX export within 5x the fixture's build (and, as the test holds it, 5x the fixture's
 * export). Printed, never asserted.
 */
import { timeAtLimits } from '../api/src/testing/atLimits';

export async function run(): Promise<void> {
  const t = await timeAtLimits(5);
  line('build three-cases.json (median of 5)', ms(t.base));
  line('build, plan at every limit', ms(t.build), ratio(t.build / t.base, 'of the fixture’s build'));
  line('  every screen of every case', ms(t.screens), ratio(t.screens / t.base, 'of the fixture’s build'));
  line('  XLSX export', ms(t.xlsx), ratio(t.xlsx / t.base, 'of the fixture’s build'));
  line('  against the fixture’s export', ms(t.baseXlsx), ratio(t.xlsx / t.baseXlsx, 'of the fixture’s export'));
}

function ms(x: number): string {
  return `${x.toFixed(1)} ms`;
}

function ratio(x: number, of: string): string {
  return `${x.toFixed(2)}x ${of} (budget <= 5x: ${x <= 5 ? 'within' : 'OVER'})`;
}

function line(what: string, ...figures: string[]): void {
  console.log(`   ${what.padEnd(44)} ${figures.join('  ')}`);
}
