/**
 * The monthly grid by keyboard only, as in Excel and Google Sheets: typing on a selected cell edits it (and opens its
 * month's edit mode), Enter commits and moves down, Tab right, Esc cancels, F2 edits the figure as shown, Delete
 * clears an entered actual back to its forecast, Ctrl+Z / Ctrl+Y undo and redo (also after saving, as a new edit),
 * and Save is reached with Tab and pressed with Enter or Space. Figures are typed as the row shows them: a cost of
 * 3,000 is -3,000 (a positive cost is refused, naming the sign), a repayment is positive.
 */
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNumber } from '../web/src/format/numbers';
import { type Stack, screenshot, startStack } from './browser';
import { cellText, engineOf, focusGridCell, gridCell, ownerWithPlan, waitForCell } from './screensHelpers';

let stack: Stack;
let owner: { token: string };
let planId: number;
let context: BrowserContext;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  ({ owner, planId, context, page, errors } = await ownerWithPlan(stack, {
    email: 'grid-keys@example.com',
    planName: 'Grid keys',
  }));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

/** Case 1 of the plan file as the API stores it. */
async function storedCase(): Promise<{
  years: Record<string, Record<string, number>>;
  actuals: Record<string, Record<string, number | string>>;
}> {
  const answer = await stack.api.call('GET', '/business-plan/file', {
    token: owner.token,
    query: { business_plan_id: planId },
  });
  return answer.body.data.plan.cases[0];
}

/** The stored actuals of case 1, by plan month. */
const storedActuals = async () => (await storedCase()).actuals;

const cell = (rowId: string, colId: string) => gridCell(page, 'monthly-grid', rowId, colId);

/** Puts the keyboard on a cell of the monthly grid. */
const focusCell = (rowId: string, colId: string) => focusGridCell(page, 'monthly-grid', rowId, colId);

/** The row and column of the focused cell. */
/**
 * Types into the focused cell, which is not being edited: the first key opens its edit box (and its month's edit
 * mode), and the rest go into that box once it is there, as a person's next keys would.
 */
async function startTyping(text: string) {
  await page.keyboard.type(text.slice(0, 1));
  await page.locator('.ag-cell-inline-editing input').first().waitFor();
  await page.keyboard.type(text.slice(1));
}

const focused = () =>
  page.evaluate(() => {
    const active = document.activeElement;
    return `${active?.closest('.ag-row')?.getAttribute('row-id')}/${active?.getAttribute('col-id')}`;
  });

const message = (rowId: string, colId: string) =>
  page.locator(`[data-test="cell-message"][data-row="${rowId}"][data-col="${colId}"]`);

describe('the monthly grid by keyboard', () => {
  it('types costs as shown, refuses a positive cost, moves with Enter and Tab, cancels with Esc', async () => {
    await page.goto(`/business-plans/${planId}/monthly_pl`);
    await cell('cogs', 'M1').waitFor();
    await page.getByRole('tab', { name: 'Enter actuals' }).click();
    await page.locator('[data-test="edit-M1"]').waitFor();
    // The actual view builds the browser's workbook; the keys go in once it is there (see e2e/README.md).
    await page.locator('section[data-screen="monthly_pl"][data-engine="ready"]').waitFor();
    expect(await page.locator('[data-test="save-M1"]').count()).toBe(0);

    // Typing on a month not in edit mode opens it; -3,000 in a cost row shown negative is a cost of 3,000.
    await focusCell('cogs', 'M1');
    await startTyping('-3,000');
    await page.keyboard.press('Enter');
    await page.locator('[data-test="save-M1"]').waitFor();
    await waitForCell(page, 'monthly-grid', 'cogs', 'M1', '-3,000');
    // Enter moved down one row.
    expect(await focused()).toBe('cogs_rate/M1');

    // 3000 in a cost row would be a negative cost: refused at the cell, naming the sign the row takes.
    await focusCell('sm', 'M1');
    await startTyping('3000');
    await page.keyboard.press('Enter');
    await message('sm', 'M1').waitFor();
    expect(await message('sm', 'M1').textContent()).toBe(
      '“3000” would book a negative cost. This row shows costs as negative figures: type a cost of 3,000 as -3,000, ▲3,000 or (3,000).×',
    );
    await screenshot(page, 'grid-keys-sign-refused');
    // Accounting brackets are a negative figure too.
    await focusCell('sm', 'M1');
    await startTyping('(1,500)');
    await page.keyboard.press('Tab');
    await waitForCell(page, 'monthly-grid', 'sm', 'M1', '-1,500');
    expect(await message('sm', 'M1').count()).toBe(0);
    // Tab committed and moved right, to M2 (whose edit mode it does not open by itself).
    expect(await focused()).toBe('sm/M2');
    await page.keyboard.press('Escape');

    // On M2: F2 opens M2 and its edit box; ▲700 (as a Japanese keyboard enters it) is a cost of 700.
    await focusCell('rd', 'M2');
    await page.keyboard.press('F2');
    await cell('rd', 'M2').locator('input').waitFor();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText('▲700');
    await page.keyboard.press('Enter');
    await page.locator('[data-test="save-M2"]').waitFor();
    await waitForCell(page, 'monthly-grid', 'rd', 'M2', '-700');
    // Esc leaves a cell as it was (once the screen has followed the last entry, as a person's next keys would).
    await page.waitForTimeout(500);
    await focusCell('rd', 'M2');
    await startTyping('999');
    await page.keyboard.press('Escape');
    await waitForCell(page, 'monthly-grid', 'rd', 'M2', '-700');

    // F2 edits in place, the edit box holding the figure as the cell shows it.
    await focusCell('sm', 'M1');
    await page.keyboard.press('F2');
    const editor = cell('sm', 'M1').locator('input');
    await editor.waitFor();
    expect(await editor.inputValue()).toBe('-1,500');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('-2,000');
    await page.keyboard.press('Enter');
    await waitForCell(page, 'monthly-grid', 'sm', 'M1', '-2,000');
    expect(errors).toEqual([]);
  }, 120_000);

  it('clears an entered actual back to its forecast with Delete, undoes and redoes it', async () => {
    const forecast = (await engineOf(stack, owner.token, planId)).monthlyGrid(0, 1, 'actual');
    const rdForecast = formatNumber(-(forecast[1]?.values.rd ?? Number.NaN));
    expect(rdForecast).not.toBe('-700');
    await focusCell('rd', 'M2');
    await page.keyboard.press('Delete');
    await waitForCell(page, 'monthly-grid', 'rd', 'M2', rdForecast);
    await page.keyboard.press('ControlOrMeta+Z');
    await waitForCell(page, 'monthly-grid', 'rd', 'M2', '-700');
    await page.keyboard.press('Control+Y');
    await waitForCell(page, 'monthly-grid', 'rd', 'M2', rdForecast);
    await page.keyboard.press('ControlOrMeta+Z');
    await waitForCell(page, 'monthly-grid', 'rd', 'M2', '-700');
    // Backspace clears too.
    await focusCell('sm', 'M1');
    await page.keyboard.press('Backspace');
    await waitForCell(page, 'monthly-grid', 'sm', 'M1', formatNumber(-(forecast[0]?.values.sm ?? Number.NaN)));
    await page.keyboard.press('ControlOrMeta+Z');
    await waitForCell(page, 'monthly-grid', 'sm', 'M1', '-2,000');
  }, 120_000);

  it('reaches Save with Tab and saves with Enter and Space; an undo after saving is a new edit, saved again', async () => {
    // From the control row's M1 cell, Tab goes into its buttons: Save first.
    await focusCell('control', 'M1');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-test'))).toBe('save-M1');
    let saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/edit') && r.status() === 200);
    await page.keyboard.press('Enter');
    await saved;
    await page.locator('[data-test="control-M1"] .ws-status.act').waitFor();
    await focusCell('control', 'M2');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-test'))).toBe('save-M2');
    saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/edit') && r.status() === 200);
    await page.keyboard.press(' ');
    await saved;
    await page.locator('[data-test="control-M2"] .ws-status.act').waitFor();
    let stored = await storedActuals();
    expect(stored['1']).toEqual({ cogs: 3000, sm: 2000, status: 'ACT' });
    expect(stored['2']).toEqual({ rd: 700, status: 'ACT' });

    // The latest edit left was F2's -2,000 over -1,500: undone, M1 opens with S&M back at 1,500, saved as any edit.
    await focusCell('rd', 'M2');
    await page.keyboard.press('ControlOrMeta+Z');
    await page.locator('[data-test="save-M1"]').waitFor();
    await waitForCell(page, 'monthly-grid', 'sm', 'M1', '-1,500');
    saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/edit') && r.status() === 200);
    await page.locator('[data-test="save-M1"]').focus();
    await page.keyboard.press('Enter');
    await saved;
    await page.locator('[data-test="control-M1"] .ws-status.act').waitFor();
    stored = await storedActuals();
    expect(stored['1']).toEqual({ cogs: 3000, sm: 1500, status: 'ACT' });
    // And redone: back to 2,000.
    await focusCell('sm', 'M1');
    await page.keyboard.press('ControlOrMeta+Shift+Z');
    await waitForCell(page, 'monthly-grid', 'sm', 'M1', '-2,000');
    await page.locator('[data-test="save-M1"]').waitFor();
    await screenshot(page, 'grid-keys-undo-after-save');
    expect(errors).toEqual([]);
  }, 120_000);

  it('takes a repayment as a positive figure and refuses a negative one', async () => {
    await focusCell('debt_payment', 'M3');
    await startTyping('-500');
    await page.keyboard.press('Enter');
    await message('debt_payment', 'M3').waitFor();
    expect(await message('debt_payment', 'M3').textContent()).toBe(
      '“-500” is negative. This row takes repayments as 0 or a positive figure.×',
    );
    await focusCell('debt_payment', 'M3');
    await startTyping('500');
    await page.keyboard.press('Enter');
    await waitForCell(page, 'monthly-grid', 'debt_payment', 'M3', '500');
    const saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/edit') && r.status() === 200);
    await page.locator('[data-test="save-M3"]').focus();
    await page.keyboard.press('Enter');
    await saved;
    expect((await storedActuals())['3']).toEqual({ debt_payment: 500, status: 'ACT' });
    expect(await cellText(page, 'monthly-grid', 'debt_payment', 'M3')).toBe('500');
    expect(errors).toEqual([]);
  }, 120_000);
  it('reaches Edit and Cancel with Tab and presses them with Space and Enter', async () => {
    const activeTest = () => page.evaluate(() => document.activeElement?.getAttribute('data-test'));
    await focusCell('control', 'M5');
    await page.keyboard.press('Tab');
    expect(await activeTest()).toBe('edit-M5');
    await page.keyboard.press(' ');
    await page.locator('[data-test="save-M5"]').waitFor();
    await focusCell('control', 'M5');
    await page.keyboard.press('Tab');
    expect(await activeTest()).toBe('save-M5');
    await page.keyboard.press('Tab');
    expect(await activeTest()).toBe('cancel-M5');
    await page.keyboard.press('Enter');
    await page.locator('[data-test="edit-M5"]').waitFor();
    expect(await page.locator('[data-test="save-M5"]').count()).toBe(0);
    // The memo button follows in the same cell, and Tab goes on to the next month's buttons.
    await focusCell('control', 'M5');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await activeTest()).toBe('memo-M5');
    await page.keyboard.press('Tab');
    expect(await activeTest()).toBe('edit-M6');
  }, 120_000);

  it('keeps a Shift+arrow range and a typed figure when keys come before the grid’s own callbacks', async () => {
    // A busy browser hands keys and input to the page ahead of the grid's callbacks, which run on a timer. Here every
    // key of a step is dispatched within one task, so the grid's callbacks for them come only after all of them.
    const inOneTask = (keys: { key: string; shiftKey?: boolean }[]) =>
      page.evaluate((list) => {
        for (const k of list) {
          const target = document.activeElement ?? document.body;
          target.dispatchEvent(new KeyboardEvent('keydown', { ...k, bubbles: true, cancelable: true }));
        }
      }, keys);
    /** Presses F2 and types `text` into the edit box the moment it is in the page. */
    const editAndType = (text: string) =>
      page.evaluate(
        (typed) =>
          new Promise<boolean>((resolve) => {
            const type = () => {
              const input = document.querySelector<HTMLInputElement>('.ag-cell-inline-editing input');
              if (!input) return false;
              input.value = typed;
              input.dispatchEvent(new InputEvent('input', { bubbles: true, data: typed, inputType: 'insertText' }));
              return true;
            };
            const watch = new MutationObserver(() => {
              if (type()) {
                watch.disconnect();
                resolve(true);
              }
            });
            watch.observe(document.body, { childList: true, subtree: true });
            const target = document.activeElement ?? document.body;
            target.dispatchEvent(new KeyboardEvent('keydown', { key: 'F2', bubbles: true, cancelable: true }));
            if (type()) {
              watch.disconnect();
              resolve(true);
            }
          }),
        text,
      );
    /** Resolves once the grid's callbacks queued so far have run. */
    const afterCallbacks = () => page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    const inRange = () => page.evaluate(() => document.querySelectorAll('.ag-cell.ws-in-range').length);

    await focusCell('cogs', 'M4');
    await afterCallbacks();
    const down = { key: 'ArrowDown', shiftKey: true };
    await inOneTask([down, down, { key: 'ArrowRight', shiftKey: true }]);
    await afterCallbacks();
    expect(await inRange()).toBe(6);
    expect(await focused()).not.toBe('cogs/M4');

    // F2 opens the edit box and the figure is typed into it before the grid has told of the editor's start.
    await focusCell('rd', 'M4');
    await afterCallbacks();
    await editAndType('-4,321');
    await afterCallbacks();
    await page.keyboard.press('Enter');
    await waitForCell(page, 'monthly-grid', 'rd', 'M4', '-4,321');
  }, 120_000);

  it('keeps what was typed before the browser’s workbook came, whenever it comes', async () => {
    // The actual view builds the browser's workbook from the plan file when it opens. Here the file is held back, and
    // let through after the key that opened the editor, after the figure, or after Enter: the figure stays each time
    // and the save stores it.
    const months = [
      ['M10', 'after the first key'],
      ['M11', 'after the figure'],
      ['M12', 'after Enter'],
    ] as const;
    for (const [colId, when] of months) {
      const held: Route[] = [];
      const file = '**/business-plan/file?*';
      await page.route(file, (route) => {
        held.push(route);
      });
      await page.goto(`/business-plans/${planId}/monthly_pl`);
      await cell('cogs', colId).waitFor();
      await page.getByRole('tab', { name: 'Enter actuals' }).click();
      await page.locator(`[data-test="edit-${colId}"]`).waitFor();
      const release = async () => {
        await expect.poll(() => held.length).toBeGreaterThan(0);
        expect(await page.locator('section[data-screen="monthly_pl"]').getAttribute('data-engine')).toBe('waiting');
        for (const route of held) await route.continue();
        await page.unroute(file);
        await page.locator('section[data-screen="monthly_pl"][data-engine="ready"]').waitFor();
      };
      await focusCell('cogs', colId);
      await startTyping('-');
      if (when === 'after the first key') await release();
      await page.keyboard.type('9,876');
      if (when === 'after the figure') await release();
      await page.keyboard.press('Enter');
      if (when === 'after Enter') await release();
      await waitForCell(page, 'monthly-grid', 'cogs', colId, '-9,876');
      const saved = page.waitForResponse((r) => r.url().includes('/pl/monthly/edit') && r.status() === 200);
      await page.locator(`[data-test="save-${colId}"]`).click();
      await saved;
      await waitForCell(page, 'monthly-grid', 'cogs', colId, '-9,876');
    }
    const actuals = await storedActuals();
    expect([actuals['10']?.cogs, actuals['11']?.cogs, actuals['12']?.cogs]).toEqual([9876, 9876, 9876]);
  }, 120_000);

  it('works the same in an editable year table: type, paste (refused whole or one edit), undo', async () => {
    await page.goto(`/business-plans/${planId}/pl`);
    const yearCell = (rowId: string, colId: string) => gridCell(page, 'pl-table', rowId, colId);
    await yearCell('cogs_rate', 'c0').waitFor();
    expect(((await yearCell('cogs_rate', 'c0').textContent()) ?? '').trim()).toBe('30.0%');
    const answered = () => page.waitForResponse((r) => r.url().includes('/case/edit') && r.status() === 200);
    await yearCell('cogs_rate', 'c2').focus();
    let saved = answered();
    await startTyping('27');
    await page.keyboard.press('Enter');
    await saved;
    await waitForCell(page, 'pl-table', 'cogs_rate', 'c2', '27.0%');
    // A paste with a negative rate is refused whole, with the message at its cell.
    await yearCell('cogs_rate', 'c0').focus();
    const paste = (text: string) =>
      page.evaluate((tsv) => {
        const transfer = new DataTransfer();
        transfer.setData('text/plain', tsv);
        document.activeElement?.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
        );
      }, text);
    await paste('25.5%\t(1)');
    await page.locator('[data-test="cell-message"][data-row="cogs_rate"][data-col="c1"]').waitFor();
    expect(((await yearCell('cogs_rate', 'c0').textContent()) ?? '').trim()).toBe('30.0%');
    await page.locator('[data-test="cell-message"] button').click();
    await yearCell('cogs_rate', 'c0').focus();
    saved = answered();
    await paste('25.5%\t２６');
    await saved;
    await waitForCell(page, 'pl-table', 'cogs_rate', 'c1', '26.0%');
    await page.waitForTimeout(500);
    let years = (await storedCase()).years;
    expect([years['1']?.cogs_rate, years['2']?.cogs_rate, years['3']?.cogs_rate]).toEqual([0.255, 0.26, 0.27]);
    // Undone as one edit: both cells back to 30.0%.
    await yearCell('cogs_rate', 'c0').focus();
    await page.keyboard.press('ControlOrMeta+Z');
    await waitForCell(page, 'pl-table', 'cogs_rate', 'c1', '30.0%');
    await waitForCell(page, 'pl-table', 'cogs_rate', 'c0', '30.0%');
    await page.waitForTimeout(500);
    years = (await storedCase()).years;
    expect([years['1']?.cogs_rate, years['2']?.cogs_rate, years['3']?.cogs_rate]).toEqual([0.3, 0.3, 0.27]);
    expect(errors).toEqual([]);
  }, 120_000);
});
