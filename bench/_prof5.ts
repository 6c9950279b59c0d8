import { readFileSync } from 'node:fs';
import { PlanWorkbook } from '@topline/engine';
const plan = JSON.parse(readFileSync('/work/main/fixtures/plans/three-cases.json', 'utf8'));
const wb = PlanWorkbook.build(plan, { asOf: { year: 2026, month: 9 } });
for (let i = 0; i < 3; i++) {
let t = performance.now();
const values = Object.fromEntries(wb.sheetNames().map((n) => [n, wb.sheetValues(n)]));
const t1 = performance.now() - t; t = performance.now();
const data = structuredClone({ plan: wb.plan, values });
const t2 = performance.now() - t;
console.log('values', t1.toFixed(0), 'clone', t2.toFixed(0), Object.keys(data));
}
const v8 = await import('node:v8');
console.log('bytes', v8.serialize({ plan: wb.plan }).length, v8.serialize(Object.fromEntries(wb.sheetNames().map((n) => [n, wb.sheetValues(n)]))).length);
