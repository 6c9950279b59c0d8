import { readFileSync } from 'node:fs';
import { PlanWorkbook } from '@topline/engine';
import { exportSheets } from '../engine/src/export/linked';
const plan = JSON.parse(readFileSync('/work/main/fixtures/plans/three-cases.json', 'utf8'));
const wb = PlanWorkbook.build(plan, { asOf: { year: 2026, month: 9 } });
const sheets = exportSheets(wb, { planId: 1 });
const by = new Map(sheets.map(s => [s.name, s]));
const est = by.get('C1_Estimate')!.values!;
for (const n of ['C1_Actual','C1_ActualToDate','C1_EstimateToDate','C1_Variance','C1_Actual_ACT','C1_Actual_EST']) {
  const s = by.get(n)!;
  let diffEst = 0, blank = 0, zero = 0, num = 0, f = 0;
  s.grid.forEach((row, r) => row.forEach((c, col) => {
    if (typeof c !== 'string' || !c.startsWith('=')) return;
    f++;
    const v = s.values![r][col];
    if (v === null || v === '') blank++; else if (v === 0) zero++; else num++;
    if (n !== 'C1_Variance' && Math.abs(Number(v ?? 0) - Number(est[r]?.[col] ?? 0)) > 1e-9 * Math.max(1, Math.abs(Number(est[r]?.[col] ?? 0)))) diffEst++;
  }));
  console.log(n, {f, blank, zero, num, diffEst});
}
const a = by.get('C1_Actual')!;
console.log(a.grid[10].slice(0,5), a.grid[10][100]);
console.log(by.get('C1_Actual_ACT')!.grid[10].slice(0,4));
console.log(by.get('C1_Actual_EST')!.grid[10].slice(0,4));
console.log(by.get('C1_ActualToDate')!.grid[10].slice(0,4), by.get('C1_ActualToDate')!.grid[10][100]);
console.log(by.get('C1_Variance')!.grid.slice(0,6).map(r => [r[0], r[1], r[99]]));
