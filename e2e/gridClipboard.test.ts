/**
 * Ranges and the clipboard in the monthly grid: a block pasted from Excel, LibreOffice or Google Sheets (tabs, CRLF,
 * quoted cells, `1,234`, `(1,234)`, `▲50`, full-width digits; or an HTML table) is read cell by cell by the one
 * reader and entered as one edit (undone and redone whole), or refused whole with a message at each bad cell; a range
 * (mouse drag, Shift+arrows) copies as TSV and HTML with the figures as shown, plain; Ctrl+D and Ctrl+R fill. The
 * saved numbers are checked through the API against the values written here by hand.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNumber } from '../web/src/format/numbers';
import { newPage, type Stack, screenshot, startStack } from './browser';
import { engineOf, focusGridCell, gridCell, ownerWithPlan, signIn, waitForCell } from './screensHelpers';

let stack: Stack;
let owner: { token: string };
let planId: number;
let context: BrowserContext;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  ({ owner, planId, context, page, errors } = await ownerWithPlan(stack, {
    email: 'grid-clipboard@example.com',
    planName: 'Grid clipboard',
  }));
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

async function storedActuals(): Promise<Record<string, Record<string, number | string>>> {
  const answer = await stack.api.call('GET', '/business-plan/file', {
    token: owner.token,
    query: { business_plan_id: planId },
  });
  return answer.body.data.plan.cases[0].actuals;
}

const cell = (p: Page, rowId: string, colId: string) => gridCell(p, 'monthly-grid', rowId, colId);
const focusCell = (p: Page, rowId: string, colId: string) => focusGridCell(p, 'monthly-grid', rowId, colId);

/** Dispatches a clipboard event on the focused cell with a DataTransfer holding `data`; answers what it holds after. */
function clipboardEvent(p: Page, type: 'paste' | 'copy', data: Record<string, string> = {}) {
  return p.evaluate(
    ([kind, entries]) => {
      const transfer = new DataTransfer();
      for (const [format, value] of Object.entries(entries)) transfer.setData(format, value);
      const event = new ClipboardEvent(kind, { clipboardData: transfer, bubbles: true, cancelable: true });
      document.activeElement?.dispatchEvent(event);
      return { text: transfer.getData('text/plain'), html: transfer.getData('text/html') };
    },
    [type, data] as const,
  );
}

const message = (p: Page, rowId: string, colId: string) =>
  p.locator(`[data-test="cell-message"][data-row="${rowId}"][data-col="${colId}"]`);

async function save(colId: string) {
  const saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/edit') && r.status() === 200);
  await page.locator(`[data-test="save-${colId}"]`).click();
  await saved;
  await page.locator(`[data-test="control-${colId}"] .ws-status.act`).waitFor();
}

/** Drags the mouse from one cell to another. */
async function drag(from: [string, string], to: [string, string]) {
  // The grid scrolls under its header: both ends in its view.
  await cell(page, ...to).scrollIntoViewIfNeeded();
  await cell(page, ...from).scrollIntoViewIfNeeded();
  const a = await cell(page, ...from).boundingBox();
  const b = await cell(page, ...to).boundingBox();
  if (!a || !b) throw new Error('cell not shown');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
}

const CASH = ['equity_raised', 'debt_raised', 'debt_payment', 'other'];

describe('the monthly grid and the clipboard', () => {
  it('pastes an Excel block as one edit across months not in edit mode, undoes and redoes it, and saves it', async () => {
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await cell(page, 'equity_raised', 'M4').waitFor();
    await page.getByRole('tab', { name: 'Enter actuals' }).click();
    await page.locator('[data-test="edit-M4"]').waitFor();
    // The actual view builds the browser's workbook; the paste goes in once it is there (see e2e/README.md).
    await page.locator('section[data-screen="monthly_pl"][data-engine="ready"]').waitFor();
    await focusCell(page, 'equity_raised', 'M4');
    // As Excel writes it: CRLF, a quoted cell, a blank cell, brackets, ▲ and full-width digits.
    const tsv = '1,234\t"2,000"\t１，０００\r\n0\t500\t\r\n100\t200\t300\r\n(1,234)\t▲50\t-7\r\n';
    await clipboardEvent(page, 'paste', { 'text/plain': tsv, 'text/html': '<table><tr><td>9</td></tr></table>' });
    for (const colId of ['M4', 'M5', 'M6']) await page.locator(`[data-test="save-${colId}"]`).waitFor();
    const shown = async () => {
      const out: string[][] = [];
      for (const row of CASH) {
        const line: string[] = [];
        for (const colId of ['M4', 'M5', 'M6']) line.push(((await cell(page, row, colId).textContent()) ?? '').trim());
        out.push(line);
      }
      return out;
    };
    await waitForCell(page, 'monthly-grid', 'other', 'M6', '-7');
    expect(await shown()).toEqual([
      ['1,234', '2,000', '1,000'],
      ['0', '500', '0'],
      ['100', '200', '300'],
      ['-1,234', '-50', '-7'],
    ]);
    await screenshot(page, 'grid-clipboard-pasted');
    // One paste, one undo: every cell goes back to the forecast (no cash items in the plan: 0), and one redo.
    await focusCell(page, 'equity_raised', 'M4');
    await page.keyboard.press('ControlOrMeta+Z');
    await waitForCell(page, 'monthly-grid', 'other', 'M6', '0');
    expect((await shown()).flat().every((text) => text === '0')).toBe(true);
    await page.keyboard.press('ControlOrMeta+Y');
    await waitForCell(page, 'monthly-grid', 'other', 'M6', '-7');
    expect((await shown())[0]).toEqual(['1,234', '2,000', '1,000']);
    for (const colId of ['M4', 'M5', 'M6']) await save(colId);
    const stored = await storedActuals();
    expect(stored['4']).toEqual({
      equity_raised: 1234,
      debt_raised: 0,
      debt_payment: 100,
      other: -1234,
      status: 'ACT',
    });
    expect(stored['5']).toEqual({
      equity_raised: 2000,
      debt_raised: 500,
      debt_payment: 200,
      other: -50,
      status: 'ACT',
    });
    // The blank cell entered nothing.
    expect(stored['6']).toEqual({ equity_raised: 1000, debt_payment: 300, other: -7, status: 'ACT' });
    expect(errors).toEqual([]);
  }, 120_000);

  it('refuses a paste with bad cells whole, with a message at each bad cell', async () => {
    await focusCell(page, 'debt_payment', 'M7');
    await clipboardEvent(page, 'paste', { 'text/plain': '-5\tabc\n1\t2' });
    await message(page, 'debt_payment', 'M7').waitFor();
    expect(await message(page, 'debt_payment', 'M7').textContent()).toBe(
      '“-5” is negative. This row takes repayments as 0 or a positive figure.×',
    );
    expect(await message(page, 'debt_payment', 'M8').textContent()).toContain('Not a number: “abc”.');
    expect(await page.locator('[data-test="cell-message"]').count()).toBe(2);
    await page.getByText('Nothing was pasted: 2 cells cannot take their values').waitFor();
    // Nothing applied: the good cells kept their forecast and no month opened.
    expect(((await cell(page, 'other', 'M7').textContent()) ?? '').trim()).toBe('0');
    expect(await page.locator('[data-test="save-M7"], [data-test="save-M8"]').count()).toBe(0);
    await screenshot(page, 'grid-clipboard-refused');
  }, 120_000);

  it('pastes an HTML table (no text) and a block through the page clipboard with Ctrl+V', async () => {
    await focusCell(page, 'session', 'M9');
    await clipboardEvent(page, 'paste', {
      'text/html':
        '<meta charset="utf-8"><table><tbody><tr><td>1,200</td><td style="x">１３００</td></tr></tbody></table>',
    });
    await waitForCell(page, 'monthly-grid', 'session', 'M10', '1,300');
    expect(((await cell(page, 'session', 'M9').textContent()) ?? '').trim()).toBe('1,200');
    // The browser's own clipboard, pasted with the keyboard.
    await page.evaluate(() =>
      navigator.clipboard.write([
        new ClipboardItem({
          'text/plain': new Blob(['7\t8\r\n'], { type: 'text/plain' }),
          'text/html': new Blob(['<table><tr><td>7</td><td>8</td></tr></table>'], { type: 'text/html' }),
        }),
      ]),
    );
    await focusCell(page, 'order', 'M9');
    await page.keyboard.press('ControlOrMeta+V');
    await waitForCell(page, 'monthly-grid', 'order', 'M10', '8');
    expect(((await cell(page, 'order', 'M9').textContent()) ?? '').trim()).toBe('7');
    await save('M9');
    await save('M10');
    const stored = await storedActuals();
    expect(stored['9']).toEqual({ session: 1200, order: 7, status: 'ACT' });
    expect(stored['10']).toEqual({ session: 1300, order: 8, status: 'ACT' });
  }, 120_000);

  it('copies a dragged range and a Shift+arrow range as TSV and HTML, figures as shown and plain', async () => {
    await drag(['equity_raised', 'M4'], ['other', 'M5']);
    await page.waitForFunction(() => document.querySelectorAll('.ag-cell.ws-in-range').length === 8);
    await focusCell(page, 'other', 'M5');
    const pasted = await clipboardEvent(page, 'copy');
    expect(pasted.text).toBe('1234\t2000\r\n0\t500\r\n100\t200\r\n-1234\t-50');
    expect(pasted.html).toContain('<tr><td>-1234</td><td>-50</td></tr>');
    // Computed cells copy too: cumulative customers, ARPA and MRR of M1 and M2, as the engine gives them.
    const grid = (await engineOf(stack, owner.token, planId)).monthlyGrid(0, 1, 'actual');
    await focusCell(page, 'cumulative', 'M1');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
    await page.waitForFunction(() => document.querySelectorAll('.ag-cell.ws-in-range').length === 6);
    const copied = await clipboardEvent(page, 'copy');
    const plain = (v: number | null | undefined) => formatNumber(v).replaceAll(',', '');
    const rows = ['cumulative', 'arpa', 'mrr'].map((key) =>
      [grid[0], grid[1]].map((c) => plain(c?.values[key])).join('\t'),
    );
    expect(copied.text).toBe(rows.join('\r\n'));
    // And Ctrl+C puts the same on the page's clipboard.
    await page.keyboard.press('ControlOrMeta+C');
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(rows.join('\r\n'));
  }, 120_000);

  it('fills right with Ctrl+R and down with Ctrl+D, each undone as one edit', async () => {
    await focusCell(page, 'equity_raised', 'M11');
    await page.keyboard.type('5,000');
    await page.keyboard.press('Enter');
    await waitForCell(page, 'monthly-grid', 'equity_raised', 'M11', '5,000');
    await focusCell(page, 'equity_raised', 'M11');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Control+R');
    await waitForCell(page, 'monthly-grid', 'equity_raised', 'M12', '5,000');
    await focusCell(page, 'debt_raised', 'M11');
    await page.keyboard.type('300');
    await page.keyboard.press('Enter');
    await focusCell(page, 'debt_raised', 'M11');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Control+D');
    await waitForCell(page, 'monthly-grid', 'debt_payment', 'M11', '300');
    await page.keyboard.press('ControlOrMeta+Z');
    await waitForCell(page, 'monthly-grid', 'debt_payment', 'M11', '0');
    await page.keyboard.press('ControlOrMeta+Y');
    await waitForCell(page, 'monthly-grid', 'debt_payment', 'M11', '300');
    await save('M11');
    await save('M12');
    const stored = await storedActuals();
    expect(stored['11']).toEqual({ equity_raised: 5000, debt_raised: 300, debt_payment: 300, status: 'ACT' });
    expect(stored['12']).toEqual({ equity_raised: 5000, status: 'ACT' });
    expect(errors).toEqual([]);
  }, 120_000);

  it('pastes cash items in the cash-flow view by the same rule, undoes it after saving as a new edit', async () => {
    await page.getByRole('tab', { name: 'Edit cash flow' }).click();
    await page.locator('[data-test="edit-M2"]').waitFor();
    await focusCell(page, 'equity_raised', 'M2');
    // A negative repayment in the block: refused whole.
    await clipboardEvent(page, 'paste', { 'text/plain': '10,000\r\n0\r\n-50\r\n(20)' });
    await message(page, 'debt_payment', 'M2').waitFor();
    expect(await page.locator('[data-test="save-M2"]').count()).toBe(0);
    await page.locator('[data-test="cell-message"] button').click();
    await focusCell(page, 'equity_raised', 'M2');
    await clipboardEvent(page, 'paste', { 'text/plain': '10,000\r\n0\r\n50\r\n(20)' });
    await waitForCell(page, 'monthly-grid', 'other', 'M2', '-20');
    const saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/cashflow/edit') && r.status() === 200);
    await page.locator('[data-test="save-M2"]').click();
    await saved;
    const cash = async () => {
      const answer = await stack.api.call('GET', '/business-plan/file', {
        token: owner.token,
        query: { business_plan_id: planId },
      });
      return answer.body.data.plan.cases[0].cash as Record<string, Record<string, number>>;
    };
    expect((await cash())['2']).toEqual({ equity_raised: 10000, debt_raised: 0, debt_payment: 50, other: -20 });
    // Undone after saving: a new edit of the month, saved as any other; the items go back to their default (0).
    await focusCell(page, 'equity_raised', 'M2');
    await page.keyboard.press('ControlOrMeta+Z');
    await page.locator('[data-test="save-M2"]').waitFor();
    await waitForCell(page, 'monthly-grid', 'other', 'M2', '0');
    const again = page.waitForResponse((r) => r.url().includes('/pl/monthly/cashflow/edit') && r.status() === 200);
    await page.locator('[data-test="save-M2"]').click();
    await again;
    const after = (await cash())['2'] ?? {};
    expect([after.equity_raised ?? 0, after.debt_raised ?? 0, after.debt_payment ?? 0, after.other ?? 0]).toEqual([
      0, 0, 0, 0,
    ]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('refuses a pasted positive cost in Japanese, naming the sign the row takes', async () => {
    const ja = await newPage(stack, { locale: 'ja-JP' });
    await signIn(ja.page, owner.token);
    await ja.page.goto(`/business-plans/${planId}/monthly_pl`);
    await cell(ja.page, 'cogs', 'M1').waitFor();
    await ja.page.getByRole('tab', { name: '実績入力' }).click();
    await ja.page.locator('[data-test="edit-M1"]').waitFor();
    await focusCell(ja.page, 'cogs', 'M1');
    await clipboardEvent(ja.page, 'paste', { 'text/plain': '3000\t▲3,000' });
    await message(ja.page, 'cogs', 'M1').waitFor();
    expect(await message(ja.page, 'cogs', 'M1').textContent()).toBe(
      '「3000」ではマイナスの費用になります。この行は費用をマイナスで表示します。費用 3,000 は -3,000、▲3,000 または (3,000) と入力してください。×',
    );
    await screenshot(ja.page, 'grid-clipboard-refused-ja');
    await ja.context.close();
  }, 120_000);
});
