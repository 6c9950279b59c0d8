import { readFileSync } from 'node:fs';
import { PlanWorkbook } from '@topline/engine';
import { exportXlsx } from '@topline/engine/export';
const plan = JSON.parse(readFileSync('/work/main/fixtures/plans/three-cases.json', 'utf8'));
const wb = PlanWorkbook.build(plan, { asOf: { year: 2026, month: 9 } });
await exportXlsx(wb, { planId: 1 });
const t = performance.now();
await exportXlsx(wb, { planId: 1 });
console.log('export ms', performance.now() - t);
