import { readFileSync } from 'node:fs';
import { PlanWorkbook } from '@topline/engine';
import { exportSheets } from '../engine/src/export/linked';
import { xlsxSheetNames, renameSheets } from '../engine/src/export/sheetNames';
import { quoteSheet } from '../engine/src/export/references';
const plan = JSON.parse(readFileSync('/work/main/fixtures/plans/three-cases.json', 'utf8'));
const wb = PlanWorkbook.build(plan, { asOf: { year: 2026, month: 9 } });
const sheets = exportSheets(wb, { planId: 1 });
const names = xlsxSheetNames(wb.plan, sheets.map(s => s.name));
const formulas = sheets.flatMap(s => s.grid.flat()).filter((x): x is string => typeof x === 'string' && x.startsWith('=')).map(x => x.slice(1));
console.log(formulas.length, formulas.filter(f => f.includes('!')).length, formulas.reduce((n, f) => n + f.length, 0));
const R2 = /"(?:[^"]|"")*"|'((?:[^']|'')+)'!|(?<![\w.])(?=([A-Za-z_][\w.]*))\2!/g;
function v2(formula: string, names: ReadonlyMap<string,string>, cache: Map<string,string>) {
  if (names.size === 0 || !formula.includes('!')) return formula;
  return formula.replace(R2, (match: string, quoted?: string, bare?: string) => {
    if (match.charCodeAt(0) === 34) return match;
    let out = cache.get(match);
    if (out === undefined) {
      const sheet = quoted !== undefined ? quoted.replace(/''/g, "'") : (bare ?? '');
      const renamed = names.get(sheet);
      out = renamed === undefined ? match : `${quoteSheet(renamed)}!`;
      cache.set(match, out);
    }
    return out;
  });
}
for (let k = 0; k < 3; k++) {
  let t = performance.now(); const a = formulas.map(f => renameSheets(f, names)); const t1 = performance.now() - t;
  t = performance.now(); const c = new Map(); const b = formulas.map(f => v2(f, names, c)); const t2 = performance.now() - t;
  console.log(t1.toFixed(0), t2.toFixed(0), a.every((x, i) => x === b[i]));
}
