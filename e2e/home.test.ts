import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm, rolesAt } from '../api/src/testing/harness';
import { newPage, type Stack, screenshot, startStack } from './browser';
import { signIn } from './screensHelpers';

/**
 * Home's to-dos are the plan's, kept on the server: two members in two browsers see the same list and each other's
 * changes; a change made on what another member has changed meanwhile is refused and the list shows what is saved.
 * Reminders follow the plan.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 180_000);
afterAll(async () => {
  await stack?.close();
});

async function homeOf(token: string, planId: number, locale: 'en-US' | 'ja-JP'): Promise<Page> {
  const { page } = await newPage(stack, { locale });
  await signIn(page, token);
  await page.goto(`/business-plans/${planId}/home`);
  await page.locator('[data-test="todos"]').waitFor();
  return page;
}

/** The to-do texts a page shows, in order, with a tick for the done ones. */
const shown = (page: Page) =>
  page.locator('[data-test="todos"] li').evaluateAll((items) =>
    items.map((li) => {
      const box = li.querySelector('input[type="checkbox"]') as HTMLInputElement | null;
      return `${box?.checked ? '[x]' : '[ ]'} ${li.querySelector('span')?.textContent ?? ''}`;
    }),
  );

async function waitForList(page: Page, expected: string[]) {
  await expect.poll(() => shown(page)).toEqual(expected);
}

describe('Home to-dos in two browsers', () => {
  it('are shared by the plan’s members, and a stale change is refused with the saved list shown', async () => {
    const { api } = stack;
    const owner = await api.user('home-owner@example.com', 'team');
    // The plan started three months ago, so last month is one of its months.
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1));
    const form = planForm({ start_year: String(start.getUTCFullYear()), start_month: String(start.getUTCMonth() + 1) });
    const created = await api.call('POST', '/business-plan/create', { token: owner.token, form });
    expect(created.status).toBe(201);
    const planId: number = created.body.data.business_plan_id;
    for (const [email, r] of [
      ['home-editor@example.com', rolesAt('can_view', { cogs: 'can_edit' })],
      ['home-viewer@example.com', rolesAt('can_view')],
    ] as const) {
      const added = await api.call('POST', '/authority/add', {
        token: owner.token,
        body: { business_plan_id: planId, email, ...r },
      });
      expect(added.status).toBe(200);
    }
    const editor = await api.user('home-editor@example.com', 'free');
    const viewer = await api.user('home-viewer@example.com', 'free');

    // The owner, in English, adds a to-do.
    const ownerPage = await homeOf(owner.token, planId, 'en-US');
    await expect
      .poll(() => ownerPage.locator('[data-test="todos"] p.muted').first().textContent())
      .toContain('No to-dos yet');
    await ownerPage.getByPlaceholder('Add a to-do').fill('Prepare the board deck');
    await ownerPage.locator('[data-test="todos"] button[type="submit"]').click();
    await waitForList(ownerPage, ['[ ] Prepare the board deck']);

    // The editor, in Japanese in another browser, sees it, ticks it and adds one.
    const editorPage = await homeOf(editor.token, planId, 'ja-JP');
    await waitForList(editorPage, ['[ ] Prepare the board deck']);
    await editorPage.locator('[data-test="todos"] li', { hasText: 'Prepare the board deck' }).locator('input').click();
    await waitForList(editorPage, ['[x] Prepare the board deck']);
    await editorPage.getByPlaceholder('ToDoを追加').fill('請求書を確認する');
    await editorPage.locator('[data-test="todos"] button[type="submit"]').click();
    await waitForList(editorPage, ['[x] Prepare the board deck', '[ ] 請求書を確認する']);

    // The owner's page still shows the deck unticked; unticking what it shows is a change on an older version: refused,
    // said, and the list read again shows the editor's tick and addition.
    await waitForList(ownerPage, ['[ ] Prepare the board deck']);
    await ownerPage.locator('[data-test="todos"] li', { hasText: 'Prepare the board deck' }).locator('input').click();
    await expect
      .poll(() => ownerPage.getByText('Another member changed or deleted this to-do meanwhile').count())
      .toBeGreaterThan(0);
    await waitForList(ownerPage, ['[x] Prepare the board deck', '[ ] 請求書を確認する']);
    // Said once, in the page's language (not the server's own words as well).
    expect(await ownerPage.getByText('changed by someone else meanwhile').count()).toBe(0);
    expect(
      (
        await api.call('GET', '/todos/retrieve', { token: viewer.token, query: { business_plan_id: planId } })
      ).body.data.todos.map((t: { text: string; done: boolean }) => [t.text, t.done]),
    ).toEqual([
      ['Prepare the board deck', true],
      ['請求書を確認する', false],
    ]);

    // The owner rewords the editor's to-do; the editor sees it on the next read (focus brings the list again).
    await ownerPage.locator('[data-test="todos"] li', { hasText: '請求書を確認する' }).getByText('Edit').click();
    await ownerPage.getByLabel('To-do text').fill('請求書を確認する（10月分）');
    await ownerPage.locator('[data-test="todos"] li button[type="submit"]').click();
    await waitForList(ownerPage, ['[x] Prepare the board deck', '[ ] 請求書を確認する（10月分）']);
    await editorPage.reload();
    await waitForList(editorPage, ['[x] Prepare the board deck', '[ ] 請求書を確認する（10月分）']);

    // A viewer sees the same list and cannot change it.
    const viewerPage = await homeOf(viewer.token, planId, 'en-US');
    await waitForList(viewerPage, ['[x] Prepare the board deck', '[ ] 請求書を確認する（10月分）']);
    expect(await viewerPage.getByPlaceholder('Add a to-do').count()).toBe(0);
    expect(await viewerPage.locator('[data-test="todos"] input[type="checkbox"]:not([disabled])').count()).toBe(0);
    await expect
      .poll(() => viewerPage.locator('[data-test="todos"]').textContent())
      .toContain('The owner and members who may edit some area change the to-dos.');

    // Nothing of it is kept in the browser.
    expect(await ownerPage.evaluate(() => Object.keys(window.localStorage).filter((k) => k.includes('todos')))).toEqual(
      [],
    );

    // Reminders follow the plan: last month has no actuals, nothing was recorded this week; the plan has members.
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const month = (locale: string) =>
      new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(lastMonth);
    const reminders = (page: Page) =>
      page.locator('[data-test="reminders"] li').evaluateAll((items) => items.map((li) => li.textContent ?? ''));
    await expect
      .poll(() => reminders(ownerPage))
      .toEqual([
        `${month('en-US')}'s actuals have not been entered yet. Open the monthly P&L`,
        'Nothing has been recorded in the daily inputs this week.',
      ]);
    await expect
      .poll(() => reminders(editorPage))
      .toEqual([
        `${month('ja-JP')}の実績がまだ入力されていません。 月次損益を開く`,
        '今週はまだ日次の数値が記録されていません。',
      ]);
    await screenshot(ownerPage, 'home-todos-owner');
    await screenshot(editorPage, 'home-todos-editor');
  }, 120_000);
});
