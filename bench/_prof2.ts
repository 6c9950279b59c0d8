import { readFileSync } from 'node:fs';
import { PlanWorkbook } from '@topline/engine';
import { exportSheets } from '../engine/src/export/linked';
const plan = JSON.parse(readFileSync('/work/main/fixtures/plans/three-cases.json', 'utf8'));
const wb = PlanWorkbook.build(plan, { asOf: { year: 2026, month: 9 } });
console.log(wb.layout.cases.map(c => c.act.length));
const sheets = exportSheets(wb, { planId: 1 });
let total = 0;
for (const s of sheets) {
  const f = s.grid.flat().filter(x => typeof x === 'string' && x.startsWith('=')).length;
  total += f;
  console.log(s.name.padEnd(30), s.grid.length, Math.max(...s.grid.map(r => r.length)), f, s.hidden ? 'hidden' : '');
}
console.log('total formulas', total);
