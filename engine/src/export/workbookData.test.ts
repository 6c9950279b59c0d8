/**
 * An export written from a workbook's data (another thread's way: the plan, its month and its values, through a
 * structured clone) is the export of the workbook itself, sheet by sheet, for a plan as built and as edited.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { PlanWorkbook } from '../workbook';
import { comparisonSheet } from './comparisonSheet';
import { sheetData, sheetOfData, workbookData, workbookOfData } from './workbookData';
import { exportXlsx } from './xlsx';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/plans');
const AS_OF = { year: 2026, month: 9 };

/** Every part of the file but its timestamps (`docProps/core.xml`). */
async function parts(bytes: Uint8Array): Promise<Record<string, string>> {
  const zip = await JSZip.loadAsync(bytes);
  const out: Record<string, string> = {};
  for (const name of Object.keys(zip.files).sort()) {
    if (name !== 'docProps/core.xml') out[name] = (await zip.file(name)?.async('string')) ?? '';
  }
  return out;
}

describe('an export from the workbook’s data', () => {
  it('is the workbook’s own export, built and after edits, with extra sheets', async () => {
    const plan = JSON.parse(readFileSync(join(FIXTURES, 'actuals-revisions.json'), 'utf8'));
    const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
    try {
      wb.apply([
        { type: 'actual', caseIndex: 0, month: 2, values: { order: 9, cogs: 1234.5 } },
        { type: 'year', caseIndex: 0, year: 2, key: 'churn_rate', value: 0.03 },
        { type: 'cash', caseIndex: 0, month: 14, values: { other: 5000 } },
      ]);
      const extra = comparisonSheet(wb);
      const own = await exportXlsx(wb, { planId: 3, extraSheets: [extra] });
      const data = structuredClone(workbookData(wb));
      const other = await exportXlsx(workbookOfData(data), {
        planId: 3,
        extraSheets: [sheetOfData(structuredClone(sheetData(extra)))],
      });
      const [a, b] = [await parts(own), await parts(other)];
      expect(Object.keys(b)).toEqual(Object.keys(a));
      for (const name of Object.keys(a)) expect(b[name], name).toBe(a[name]);
      expect(Object.keys(a).length).toBeGreaterThan(20);
    } finally {
      wb.destroy();
    }
  });

  it('refuses values read from another plan’s sheets', () => {
    const plan = JSON.parse(readFileSync(join(FIXTURES, 'three-cases.json'), 'utf8'));
    const wb = PlanWorkbook.build(plan, { asOf: AS_OF });
    try {
      const data = workbookData(wb);
      const oneCase = { ...data, plan: { ...data.plan, cases: data.plan.cases.slice(0, 1) } };
      expect(() => workbookOfData(oneCase)).toThrow(/other sheets/);
    } finally {
      wb.destroy();
    }
  });
});
