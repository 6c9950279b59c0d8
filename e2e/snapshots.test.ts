import { readFileSync } from 'node:fs';
import { asOfMonth } from '@topline/contract';
import { PlanWorkbook, snapshotCaseIndex, snapshotCompared, snapshotGrid } from '@topline/engine';
import ExcelJS from 'exceljs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolesAt } from '../api/src/testing/harness';
import { formatNumber, formatPercent } from '../web/src/format/numbers';
import { accessibilityViolations } from './axe';
import { newPage, type Stack, startStack } from './browser';
import { engineOf, ownerWithPlan, signIn } from './screensHelpers';

/**
 * The plan's snapshots in the settings modal's History tab: one saved under a name, renamed, downloaded as XLSX, the
 * plan edited, the snapshot restored (its inputs back, and the restore listed as a change of the history), deleted;
 * then a snapshot chosen as the monthly P&L's budget, its progress and variance checked against the engine.
 */
let stack: Stack;
let owner: { token: string };
let planId: number;
let context: BrowserContext;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  ({ owner, planId, context, page, errors } = await ownerWithPlan(stack, {
    email: 'snapshot-owner@example.com',
    planName: 'Snapshot plan',
  }));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

const planFile = async () => {
  const answer = await stack.api.call('GET', '/business-plan/file', {
    token: owner.token,
    query: { business_plan_id: planId },
  });
  expect(answer.status).toBe(200);
  return answer.body.data.plan as unknown;
};

describe('snapshots in the browser', () => {
  it('saves, renames, downloads, restores and deletes a snapshot', async () => {
    const saved = await planFile();
    await page.goto(`/business-plans/${planId}/pl?settings=plans`);
    await page.getByRole('tab', { name: 'History' }).click();
    await page.locator('[data-test="snapshots"]').waitFor();
    await page.locator('[data-test="snapshot-empty"]').waitFor();

    await page.locator('[data-test="snapshot-name"]').fill('Board plan FY2026');
    await page.locator('[data-test="snapshot-save"]').click();
    const titles = page.locator('[data-test="snapshot-title"]');
    await expect.poll(() => titles.allTextContents()).toEqual(['Board plan FY2026']);

    await page.locator('[data-test="snapshot-rename"]').click();
    await page.locator('[data-test="snapshot-rename-name"]').fill('Board plan FY2026 (approved)');
    await page.locator('[data-test="snapshot-rename-save"]').click();
    await expect.poll(() => titles.allTextContents()).toEqual(['Board plan FY2026 (approved)']);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-test="snapshot-download"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);

    // The plan moves on after the snapshot, outside this page.
    const caseId: number = (await stack.api.db('cases').where({ plan_id: planId }).first()).id;
    const edit = await stack.api.call('POST', '/case/edit', {
      token: owner.token,
      body: { business_plan_id: planId, case_id: caseId, year: 2, key: 'churn_rate', value: 0.031 },
    });
    expect(edit.status).toBe(200);
    expect(await planFile()).not.toEqual(saved);

    await page.locator('[data-test="snapshot-restore"]').click();
    await page.locator('[data-test="snapshot-confirm"]').click();
    await expect.poll(planFile).toEqual(saved);
    // The restore is the newest change of the history, listed as one.
    await expect
      .poll(() => page.locator('[data-test="history-action"]').first().getAttribute('data-action'))
      .toBe('history.restore');

    await page.locator('[data-test="snapshot-delete"]').click();
    await page.locator('[data-test="snapshot-confirm"]').click();
    await page.locator('[data-test="snapshot-empty"]').waitFor();
    expect(errors).toEqual([]);
  }, 120_000);

  it('reads the monthly P&L progress and variance against a chosen snapshot', async () => {
    const caseId: number = (await stack.api.db('cases').where({ plan_id: planId }).first()).id;
    const post = (path: string, body: Record<string, unknown>) =>
      stack.api.call('POST', path, { token: owner.token, body: { business_plan_id: planId, ...body } });
    const saved = await post('/snapshot/create', { name: 'Board plan' });
    expect(saved.status).toBe(201);
    // After the snapshot: the year's target halved and April's actuals entered.
    expect((await post('/case/edit', { case_id: caseId, year: 1, key: 'arr', value: 50_000_000 })).status).toBe(200);
    const actual = { case_id: caseId, year: 1, month: 1, order: 3, churn: 0, arpa: 50_000 };
    expect((await post('/pl/monthly/edit', actual)).status).toBe(200);

    // The figures the screen must show: the engine's, from the live inputs and the snapshot's stored ones.
    const live = await engineOf(stack, owner.token, planId);
    const stored = await stack.api.db('plan_snapshots').where({ id: saved.body.data.snapshot.id }).first();
    const file = typeof stored.plan_file === 'string' ? JSON.parse(stored.plan_file) : stored.plan_file;
    const snapshot = PlanWorkbook.build(file, { asOf: asOfMonth(new Date()) });
    const record = { workbook: snapshot, caseIndex: snapshotCaseIndex(live, 0, snapshot) };
    const expected = (view: 'progress' | 'difference_rate', column: string, key: string) =>
      formatPercent(snapshotGrid(live, 0, record, 1, view).find((c) => c.column === column)?.values[key], 1, 'en');

    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await page.getByRole('tab', { name: 'Progress', exact: true }).click();
    const cell = (row: string, column: string) =>
      page.locator(`[data-test="monthly-grid"] .ag-row[row-id="${row}"] .ag-cell[col-id="${column}"]`).first();
    const text = async (row: string, column: string) => ((await cell(row, column).textContent()) ?? '').trim();
    // Against the live plan, May (a forecast month) is not compared.
    await expect.poll(() => text('revenue', 'M1')).toMatch(/%$/);
    expect(await text('revenue', 'M2')).toBe('');

    await page.locator('[data-test="budget-snapshot"] select').selectOption({ label: 'Snapshot: Board plan' });
    await page.locator('[data-test="budget-note"]').waitFor();
    // April: 150,000 of actual revenue against the snapshot's 694,444 (21.6 %); May: the live forecast against it.
    expect(expected('progress', 'M1', 'revenue')).toBe('21.6%');
    await expect.poll(() => text('revenue', 'M1')).toBe('21.6%');
    expect(await text('revenue', 'M2')).toBe(expected('progress', 'M2', 'revenue'));
    expect(await text('revenue', 'CY')).toBe(expected('progress', 'CY', 'revenue'));

    // The explanation of May's progress is against the snapshot, by its two sides.
    await cell('revenue', 'M2').click();
    await page.locator('[data-test="cell-explain"]').click();
    const panel = page.locator('[data-test="explain-panel"]');
    await expect
      .poll(() => panel.locator('[data-test="explain-title"]').textContent())
      .toBe('Progress of Revenue against snapshot “Board plan”');
    // Explain shows a percentage to two decimals.
    const may = snapshotGrid(live, 0, record, 1, 'progress').find((c) => c.column === 'M2')?.values.revenue;
    expect(((await panel.locator('[data-test="explain-value"]').textContent()) ?? '').trim()).toBe(
      formatPercent(may, 2, 'en'),
    );
    expect(await panel.locator('[data-test="explain-input"]').count()).toBe(2);
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Variance', exact: true }).click();
    await expect.poll(() => text('revenue', 'M1')).toBe(expected('difference_rate', 'M1', 'revenue'));
    expect(await text('revenue', 'CY')).toBe(expected('difference_rate', 'CY', 'revenue'));
    // The variance CSV and the XLSX carry the comparison with the snapshot.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('[data-test="monthly-csv"]').click()]);
    const lines = readFileSync((await csv.path()) ?? '', 'utf8').split('\r\n');
    const revenueLine = lines.find((l) => l.startsWith('revenue,'))?.split(',') ?? [];
    const m1 = snapshotGrid(live, 0, record, 1, 'difference_rate').find((c) => c.column === 'M1')?.values.revenue;
    expect(revenueLine[2]).toBe(`${((m1 ?? 0) * 100).toFixed(1)}%`);
    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-test="xlsx-download"]').click(),
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await xlsx.path()) ?? '');
    expect(book.worksheets.map((w) => w.name)).toContain('Base case VsSnapshot');

    // The choice's own parts (the grid's colours are the grid's, checked with it).
    const parts = ['[data-test="budget-snapshot"]', '[data-test="budget-note"]'];
    expect(await accessibilityViolations(page, parts)).toEqual([]);

    // Back to the live plan's budget: May is not compared again.
    await page.locator('[data-test="budget-snapshot"] select').selectOption({ label: 'The live plan' });
    await expect.poll(() => text('revenue', 'M2')).toBe('');
    expect(errors).toEqual([]);
  }, 120_000);

  it('sets the snapshot beside the cases in the annual P&L comparison, with its difference', async () => {
    const live = await engineOf(stack, owner.token, planId);
    const stored = await stack.api.db('plan_snapshots').where({ plan_id: planId, name: 'Board plan' }).first();
    const file = typeof stored.plan_file === 'string' ? JSON.parse(stored.plan_file) : stored.plan_file;
    const compared = snapshotCompared(live, PlanWorkbook.build(file, { asOf: asOfMonth(new Date()) }));
    const y1 = compared.years[0];

    await page.goto(`/business-plans/${planId}/pl`);
    await page.locator('[data-test="compare-toggle"]').check();
    await page.locator('[data-test="compare-table"]').waitFor();
    await page.locator('[data-test="compare-snapshot"] select').selectOption({ label: 'Snapshot: Board plan' });
    const row = (key: string, caseIndex: number, kind: string) =>
      page
        .locator(`[data-test="compare-table"] tr[data-row="${key}"][data-case="${caseIndex}"][data-kind="${kind}"]`)
        .first();
    // The snapshot is the case after the live base case: its Y1 revenue at 100M (54,166,667), the live 50M's twice.
    expect(formatNumber(y1?.values.revenue, 0, 'en')).toBe('54,166,667');
    await expect
      .poll(async () => ((await row('revenue', 1, 'value').locator('th[scope="row"]').textContent()) ?? '').trim())
      .toBe('Snapshot “Board plan”');
    expect((await row('revenue', 1, 'value').locator('td').allTextContents())[0]).toBe('54,166,667');
    expect((await row('revenue', 1, 'difference').locator('td').allTextContents())[0]).toBe(
      formatNumber(y1?.difference?.revenue, 0, 'en'),
    );
    expect((await row('revenue', 1, 'difference_rate').locator('td').allTextContents())[0]).toBe(
      formatPercent(y1?.difference_rate?.revenue, 1, 'en'),
    );
    // The comparison's CSV holds what the table shows: the snapshot's rows last.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('[data-test="compare-csv"]').click()]);
    const revenueRows = readFileSync((await csv.path()) ?? '', 'utf8')
      .split('\r\n')
      .filter((l) => l.startsWith('revenue,'))
      .map((l) => l.split(','));
    expect(revenueRows.at(-3)?.slice(2, 5)).toEqual(['Board plan (snapshot)', 'value', '54166667']);
    const parts = ['[data-test="compare-table"]', '[data-test="compare-snapshot"]'];
    expect(await accessibilityViolations(page, parts)).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('lists the snapshots for a viewer of the monthly P&L, who downloads them but cannot change them', async () => {
    const email = 'snapshot-viewer@example.com';
    const added = await stack.api.call('POST', '/authority/add', {
      token: owner.token,
      body: { business_plan_id: planId, email, ...rolesAt('can_view') },
    });
    expect(added.status).toBe(200);
    const viewer = await stack.api.user(email, 'free');
    const { context: viewerContext, page: viewerPage } = await newPage(stack, { locale: 'en-US' });
    try {
      await signIn(viewerPage, viewer.token);
      await viewerPage.goto(`/business-plans/${planId}/pl?settings=plans`);
      await viewerPage.getByRole('tab', { name: 'Snapshots' }).click();
      const titles = viewerPage.locator('[data-test="snapshot-title"]');
      await expect.poll(() => titles.allTextContents()).toEqual(['Board plan']);
      expect(await viewerPage.locator('[data-test="snapshot-download"]').count()).toBe(1);
      for (const control of ['snapshot-save', 'snapshot-rename', 'snapshot-delete', 'snapshot-restore']) {
        expect(await viewerPage.locator(`[data-test="${control}"]`).count(), control).toBe(0);
      }
      expect(await accessibilityViolations(viewerPage, ['[data-test="snapshots-panel"]'])).toEqual([]);
    } finally {
      await viewerContext.close();
    }
  }, 120_000);
});
