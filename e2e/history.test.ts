import type { HistoryAnswer, HistoryCompareAnswer } from '@topline/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolesAt } from '../api/src/testing/harness';
import { newPage, type Stack, screenshot, startStack } from './browser';
import { cellText, ownerWithPlan, signIn, waitForCell } from './screensHelpers';

/**
 * The plan's history in the settings modal: the owner's edits listed with their old and new values, two moments
 * compared (the inputs that differ and both annual P&Ls), a past P&L, and a restore whose numbers the screens then
 * show; a member who only views does not get the tab, and a member who edits one area sees the rest as not visible.
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
    email: 'history-owner@example.com',
    planName: 'History plan',
  }));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

async function post(path: string, body: Record<string, unknown>) {
  const answer = await stack.api.call('POST', path, {
    token: owner.token,
    body: { business_plan_id: planId, ...body },
  });
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
}

async function historyOf(token: string): Promise<HistoryAnswer['data']> {
  const answer = await stack.api.call('GET', '/history', { token, query: { business_plan_id: planId } });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** Opens the settings modal of the plan on its History tab, through the tab list. */
async function openHistory(on: Page) {
  await on.goto(`/business-plans/${planId}/pl?settings=plans`);
  await on.getByRole('tab', { name: 'History' }).click();
  await on.locator('[data-test="history-list"]').waitFor();
}

const changes = () => page.locator('[data-test="history-change"]');
const itemsOf = (change: ReturnType<Page['locator']>) => change.locator('[data-test="history-item"]');
const texts = async (item: ReturnType<Page['locator']>) => ({
  old: await item.locator('[data-test="history-old"]').textContent(),
  new: await item.locator('[data-test="history-new"]').textContent(),
});
const plCell = (scope: ReturnType<Page['locator']>, row: string, point: string, year: number) =>
  scope.locator(`tr[data-row="${row}"][data-point="${point}"] td`).nth(year - 1);

describe('the plan history in headless Chromium', () => {
  it('lists the owner’s edits, compares the first with now, and restores the plan as created', async () => {
    // The plan as created: Y2's ARR on the P&L. A click into it builds the browser's workbook from the plan file.
    let planFileReads = 0;
    page.on('request', (request) => {
      if (request.method() === 'GET' && request.url().includes('/api/v1/business-plan/file')) planFileReads++;
    });
    await page.goto(`/business-plans/${planId}/pl`);
    await page.locator('[data-test="pl-table"] .ag-row[row-id="arr"]').waitFor();
    const createdArr = await cellText(page, 'pl-table', 'arr', 'c1');
    expect(createdArr).not.toBe('777,000,000');
    const file = await stack.api.call('GET', '/business-plan/file', {
      token: owner.token,
      query: { business_plan_id: planId },
    });
    const caseId: number = file.body.data.case_ids[0];

    await post('/case/edit', { case_id: caseId, year: 2, key: 'arr', value: 555_000_000 });
    await post('/case/edit', { case_id: caseId, year: 2, key: 'arr', value: 777_000_000 });
    await post('/casename/edit', { case_id: caseId, case_name: 'Upside' });

    await openHistory(page);
    const recorded = await historyOf(owner.token);
    expect(recorded.changes.map((change) => change.action)).toEqual([
      '/casename/edit',
      '/case/edit',
      '/case/edit',
      'plan.create',
    ]);
    await expect.poll(() => changes().count()).toBe(4);
    const actions = await changes().locator('[data-test="history-action"]').allTextContents();
    expect(actions).toEqual(['Renamed a case', 'Edited an assumption', 'Edited an assumption', 'Created the plan']);
    expect(await changes().first().locator('[data-test="history-by"]').textContent()).toBe('Hana Sato');

    // The rename, then the two ARR edits with the values typed, newest first.
    const rename = itemsOf(changes().nth(0)).first();
    expect(await rename.getAttribute('data-kind')).toBe('case');
    expect(await rename.locator('.history-key').textContent()).toBe('Name');
    expect(await texts(rename)).toEqual({ old: 'Base case', new: 'Upside' });
    const secondArr = itemsOf(changes().nth(1)).first();
    expect(await secondArr.locator('.history-kind').textContent()).toBe('Assumption');
    expect(await secondArr.locator('.history-place').textContent()).toBe('Upside · Y2');
    expect(await secondArr.locator('.history-key').textContent()).toBe('ARR');
    expect(await texts(secondArr)).toEqual({ old: '555,000,000', new: '777,000,000' });
    expect(await texts(itemsOf(changes().nth(2)).first())).toEqual({ old: '—', new: '555,000,000' });
    // Each change lists the items the API gives with it.
    for (const [index, change] of recorded.changes.entries()) {
      expect(await itemsOf(changes().nth(index)).count()).toBe(change.items.length);
    }
    await screenshot(page, 'history-list');

    // The creation compared with now: the inputs that differ, and both P&Ls side by side.
    const firstId = Number(await changes().nth(3).getAttribute('data-change-id'));
    const newestId = Number(await changes().nth(0).getAttribute('data-change-id'));
    await changes().nth(3).locator('[data-test="history-select"]').check();
    expect(await page.locator('[data-test="history-selection"]').textContent()).toMatch(/^Compare .+ with now$/);
    await page.locator('[data-test="history-compare"]').click();
    const result = page.locator('[data-test="history-compare-result"]');
    await result.waitFor();
    expect(await result.getAttribute('data-from')).toBe(String(firstId));
    expect(await result.getAttribute('data-to')).toBe(String(newestId));
    // Y2's ARR was not set at the creation (the growth template's target): none, then the value typed last.
    const input = (key: string) =>
      result.locator(`[data-test="history-inputs"] [data-test="history-item"][data-key="${key}"]`);
    expect(await texts(input('arr'))).toEqual({ old: '—', new: '777,000,000' });
    expect(await texts(input('name'))).toEqual({ old: 'Base case', new: 'Upside' });
    const table = result.locator(`[data-test="history-case"][data-case-id="${caseId}"]`);
    expect(await plCell(table, 'arr', 'from', 2).textContent()).toBe(createdArr);
    expect(await plCell(table, 'arr', 'to', 2).textContent()).toBe('777,000,000');
    const compared = await stack.api.call('GET', '/history/compare', {
      token: owner.token,
      query: { business_plan_id: planId, from: firstId, to: newestId },
    });
    const answer: HistoryCompareAnswer['data'] = compared.body.data;
    for (const [point, side] of [
      ['from', answer.from],
      ['to', answer.to],
    ] as const) {
      const pl = side.values.find((entry) => entry.case_id === caseId)?.pl ?? [];
      for (const row of ['revenue', 'gross_profit', 'operating_cost', 'operating_pl', 'arr'] as const) {
        for (const year of [1, 2, 3, 4, 5, 6]) {
          const value = pl.find((entry) => entry.year === year)?.[row];
          expect(await plCell(table, row, point, year).getAttribute('data-value'), `${point} ${row} Y${year}`).toBe(
            String(value),
          );
        }
      }
    }
    expect(await plCell(table, 'revenue', 'to', 2).textContent()).not.toBe(
      await plCell(table, 'revenue', 'from', 2).textContent(),
    );
    await screenshot(page, 'history-compare');

    // The P&L right after the first ARR edit.
    await changes().nth(2).locator('[data-test="history-view"]').click();
    const point = page.locator('[data-test="history-point"]');
    await point.waitFor();
    expect(await plCell(point, 'arr', 'at', 2).textContent()).toBe('555,000,000');

    // Restored to the plan as created, after a confirmation; the restore is the newest change. The history is opened
    // from the side menu this time, after a click into the P&L that builds the browser's workbook.
    await page.goto(`/business-plans/${planId}/pl`);
    await page.locator('[data-test="pl-table"] .ag-row[row-id="arr"]').first().click();
    await expect.poll(() => planFileReads).toBe(1);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'History' }).click();
    await page.locator('[data-test="history-list"]').waitFor();
    await changes().nth(3).locator('[data-test="history-restore"]').click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain(
      'Every input goes back to how it stood right after this change. The restore is itself recorded, so it can be undone.',
    );
    await confirm.locator('[data-test="history-confirm-restore"]').click();
    await expect
      .poll(() => changes().first().locator('[data-test="history-action"]').getAttribute('data-action'))
      .toBe('history.restore');
    expect(await changes().first().locator('[data-test="history-action"]').textContent()).toBe(
      'Restored an earlier point',
    );
    expect(await changes().count()).toBe(5);
    const restored = (key: string) => changes().first().locator(`[data-test="history-item"][data-key="${key}"]`);
    expect(await texts(restored('arr'))).toEqual({ old: '777,000,000', new: '—' });
    expect(await texts(restored('name'))).toEqual({ old: 'Upside', new: 'Base case' });
    await screenshot(page, 'history-restored');

    // Closed, the P&L shows the restored plan.
    await page.locator('.settings-modal .modal-close').click();
    await waitForCell(page, 'pl-table', 'arr', 'c1', createdArr);
    await page.getByRole('tab', { name: /Base case/ }).waitFor();
    expect(await page.getByRole('tab', { name: /Upside/ }).count()).toBe(0);
    // The browser's workbook followed the restore's answer (its change set): the plan file was not read again.
    await page.waitForLoadState('networkidle');
    expect(planFileReads).toBe(1);
    expect(errors).toEqual([]);
  }, 180_000);

  it('is not offered to a member who only views; an editor of one area pages through it, the rest not visible', async () => {
    for (const [email, level] of [
      ['history-viewer@example.com', rolesAt('can_view')],
      ['history-editor@example.com', rolesAt('no_access', { cogs: 'can_edit', kpi: 'can_view' })],
    ] as const) {
      await post('/authority/add', { email, ...level });
    }
    const viewer = await stack.api.user('history-viewer@example.com', 'free');
    const editor = await stack.api.user('history-editor@example.com', 'free');

    const viewerPage = (await newPage(stack, { locale: 'en-US' })).page;
    await signIn(viewerPage, viewer.token);
    await viewerPage.goto(`/business-plans/${planId}/pl?settings=history`);
    const tabs = viewerPage.locator('.settings-modal [role="tab"]');
    await tabs.first().waitFor();
    // A viewer has no history; the plan's snapshots are theirs to see and download instead.
    expect(await tabs.allTextContents()).toEqual(['Business plan list', 'Plan', 'Snapshots', 'Profile']);
    await viewerPage.locator('[data-test="snapshots-panel"]').waitFor();
    expect(await viewerPage.locator('[data-test="history-panel"]').count()).toBe(0);
    expect(
      (await stack.api.call('GET', '/history', { token: viewer.token, query: { business_plan_id: planId } })).status,
    ).toBe(403);

    // More changes than a page holds: 48 assumption edits, one by one (P&L area: employees; KPI area: churn), then
    // a restore to before them that puts all 48 back, more items than a change lists.
    const before = (await historyOf(owner.token)).changes[0]?.id ?? 0;
    const caseId: number = (
      await stack.api.call('GET', '/business-plan/file', { token: owner.token, query: { business_plan_id: planId } })
    ).body.data.case_ids[0];
    const edits: [string, number][] = [
      ['employees', 12],
      ['cogs_rate', 0.2],
      ['sm_rate', 0.3],
      ['churn_rate', 0.015],
      ['lead_rate', 0.05],
      ['meeting_rate', 0.3],
      ['upselling_month', 6],
      ['arpa', 60_000],
    ];
    for (const [key, value] of edits) {
      for (const year of [1, 2, 3, 4, 5, 6]) await post('/case/edit', { case_id: caseId, year, key, value });
    }
    await post('/history/restore', { at: before });

    const editorPage = (await newPage(stack, { locale: 'en-US' })).page;
    await signIn(editorPage, editor.token);
    await openHistory(editorPage);
    const shown = editorPage.locator('[data-test="history-change"]');
    await expect.poll(() => shown.count()).toBe(50);
    // The editor may not restore (that takes every area).
    expect(await editorPage.locator('[data-test="history-restore"]').count()).toBe(0);
    const restore = shown.first();
    expect(await restore.locator('[data-test="history-action"]').getAttribute('data-action')).toBe('history.restore');
    // The 30 KPI items the editor may see, then the 18 of the P&L as one entry that says only that.
    expect(await restore.locator('[data-test="history-item"]').count()).toBe(20);
    expect(await restore.locator('[data-test="history-item"][data-hidden="true"]').count()).toBe(1);
    expect(await restore.locator('[data-test="history-more"]').textContent()).toBe('and 11 more');

    // A KPI edit is shown with its values; a P&L edit, closed to the editor, is a change they may not see.
    const editOf = (key: string, year: number) =>
      editorPage.locator(`[data-test="history-item"][data-key="${key}"]`, {
        has: editorPage.locator('.history-place', { hasText: new RegExp(`· Y${year}$`) }),
      });
    const churn = editOf('churn_rate', 1).and(editorPage.locator('[data-op="add"]'));
    expect(await churn.locator('.history-key').textContent()).toBe('Churn rate');
    expect(await churn.locator('[data-test="history-new"]').textContent()).toBe('1.5%');
    expect(await editorPage.locator('[data-test="history-item"][data-key="employees"]').count()).toBe(0);
    const employeesEdit = (await historyOf(owner.token)).changes.find((change) =>
      change.items.some((item) => !item.hidden && item.key === 'employees' && item.year === 3 && item.op === 'add'),
    );
    const employees = editorPage.locator(`[data-test="history-change"][data-change-id="${employeesEdit?.id}"]`);
    expect(await employees.locator('[data-test="history-action"]').textContent()).toBe('A change not visible to you');
    expect(await employees.locator('[data-test="history-item"]').getAttribute('data-hidden')).toBe('true');
    expect(await employees.locator('.history-hidden').textContent()).toBe('Changes not visible to you');
    expect(await employees.locator('[data-test="history-new"]').count()).toBe(0);
    await screenshot(editorPage, 'history-editor');

    // Older changes, a page further: every change of the plan, down to its creation.
    let total = 0;
    let cursor: number | null = null;
    do {
      const query: Record<string, number> = { business_plan_id: planId, ...(cursor === null ? {} : { cursor }) };
      const page: HistoryAnswer['data'] = (await stack.api.call('GET', '/history', { token: editor.token, query })).body
        .data;
      total += page.changes.length;
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(total).toBeGreaterThan(50);
    await editorPage.locator('[data-test="history-older"]').click();
    await expect.poll(() => shown.count()).toBe(total);
    expect(await editorPage.locator('[data-test="history-older"]').count()).toBe(0);
    expect(await shown.last().locator('[data-test="history-action"]').textContent()).toBe('Created the plan');
  }, 180_000);

  it('shows why a restore is refused when the member’s access changed meanwhile', async () => {
    const email = 'history-all@example.com';
    await post('/authority/add', { email, ...rolesAt('can_edit') });
    const member = await stack.api.user(email, 'free');
    const memberPage = (await newPage(stack, { locale: 'en-US' })).page;
    await signIn(memberPage, member.token);
    await openHistory(memberPage);
    const shown = memberPage.locator('[data-test="history-change"]');
    const newest = await shown.first().getAttribute('data-change-id');
    // A member who edits every area may restore, to any change but the newest (the plan already stands so).
    expect(await shown.first().locator('[data-test="history-restore"]').count()).toBe(0);
    await shown.nth(1).locator('[data-test="history-restore"]').click();
    const confirm = memberPage.getByRole('alertdialog');
    await confirm.waitFor();

    // The owner narrows the member's access before the member confirms: the refusal is said in the dialog.
    await post('/authority/edit', {
      email,
      ...rolesAt('can_view', { cogs: 'can_edit' }),
    });
    await confirm.locator('[data-test="history-confirm-restore"]').click();
    await expect
      .poll(() => confirm.locator('[data-test="history-error"]').textContent())
      .toBe("Forbidden: You don't have permission to access this function / feature.");
    expect(await shown.first().getAttribute('data-change-id')).toBe(newest);
    expect(memberPage.url()).toContain(`/business-plans/${planId}/pl`);
    await screenshot(memberPage, 'history-refused');
  }, 120_000);
});
