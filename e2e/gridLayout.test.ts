/**
 * The grids as a finance lead and an assistive technology meet them: a skip link to the grid, row and column headers,
 * every control of the monthly grid by keyboard (Edit, Save, Cancel, Reverse, memo), figures right-aligned in tabular
 * digits with the plan's currency named, the header row in view while the grid scrolls, axe-core finding nothing
 * serious on the grid screens in English and Japanese, and a phone's 375 px: the label column at most a third, Save
 * and Cancel whole, no page scrolling sideways. A grid opened cold paints its figures before AG Grid's script has
 * loaded: the same text in the same place, then the grid.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNumber } from '../web/src/format/numbers';
import { accessibilityViolations } from './axe';
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
    email: 'grid-layout@example.com',
    planName: 'Grid layout',
    width: 1280,
    height: 800,
  }));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await stack?.close();
});

/** The grid screens and the dashboard, by path, with the grid each shows (none on the dashboard). */
const SCREENS = [
  { path: 'monthly_pl', screen: 'monthly_pl', grid: 'monthly-grid' },
  { path: 'pl', screen: 'pl', grid: 'pl-table' },
  { path: 'kpi', screen: 'kpi', grid: 'kpi-table' },
  { path: 'expenses', screen: 'expenses', grid: 'data-grid' },
  { path: '', screen: 'dashboard', grid: null },
] as const;

/** Opens a screen and waits until its figures are there (its grid's rows, the dashboard's charts). */
async function open(on: Page, path: string, grid: string | null) {
  await on.goto(`/business-plans/${planId}/${path}`);
  if (grid)
    await on
      .locator(`${gridSelector(grid)} .ag-row`)
      .first()
      .waitFor();
  else await on.locator('section[data-screen="dashboard"] .chart .main-svg').first().waitFor();
  await on.waitForFunction(() => document.querySelectorAll('.content-loading').length === 0);
}

const gridSelector = (grid: string) => (grid === 'data-grid' ? 'main .data-grid' : `[data-test="${grid}"]`);

const cell = (rowId: string, colId: string) => gridCell(page, 'monthly-grid', rowId, colId);

/** Puts the keyboard on a cell of the monthly grid. */
const focusCell = (rowId: string, colId: string) => focusGridCell(page, 'monthly-grid', rowId, colId);

const focused = () => page.evaluate(() => document.activeElement?.closest('.ag-row')?.getAttribute('row-id'));

const activeTest = () => page.evaluate(() => document.activeElement?.getAttribute('data-test'));

/** axe-core's serious and critical violations on the page. */
const serious = async (on: Page) =>
  (await accessibilityViolations(on)).filter((v) => v.includes('(serious)') || v.includes('(critical)'));

/** Month 1 of year 1 with actuals (ACT), a cost among them: 5 new customers and S&M of 1,000. */
async function actMonthOne() {
  const saved = await stack.api.call('POST', '/pl/monthly/edit', {
    token: owner.token,
    body: { business_plan_id: planId, year: 1, month: 1, order: 5, sm: 1000 },
  });
  expect(saved.status).toBe(200);
}

describe('the grids, by keyboard and assistive technology, as a finance grid', () => {
  it('leads to the grid with a skip link; rows and columns are named; figures tabular, in the plan currency', async () => {
    await open(page, 'monthly_pl', 'monthly-grid');
    // The first Tab of the page reaches the skip link, shown while it has the focus; Enter puts the keyboard in the grid.
    await page.keyboard.press('Tab');
    expect(await activeTest()).toBe('skip-to-grid');
    const link = await page.locator('[data-test="skip-to-grid"]').boundingBox();
    expect(link?.x).toBeGreaterThanOrEqual(0);
    expect(link?.y).toBeGreaterThanOrEqual(0);
    await screenshot(page, 'grid-skip-link');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.closest('[data-test="monthly-grid"] .ag-cell') !== null);

    // ARIA grid roles: the label column's cells are row headers, its header names the unit (the plan's yen).
    const grid = page.locator('[data-test="monthly-grid"]');
    expect(await grid.locator('[role="grid"], [role="treegrid"]').count()).toBe(1);
    const labelHeader = grid.locator('.ag-header-cell[col-id="label"]');
    expect(await labelHeader.getAttribute('role')).toBe('columnheader');
    expect((await labelHeader.textContent())?.trim()).toBe('Amounts in ¥');
    expect(await grid.locator('.ag-row[row-id="revenue"] .ag-cell[col-id="label"]').getAttribute('role')).toBe(
      'rowheader',
    );
    expect(await cell('revenue', 'M1').getAttribute('role')).toBe('gridcell');
    // A figure is right-aligned in tabular digits.
    const style = await cell('revenue', 'M1').evaluate((el) => {
      const s = getComputedStyle(el);
      return { align: s.textAlign, digits: s.fontVariantNumeric };
    });
    expect(style).toEqual({ align: 'right', digits: 'tabular-nums' });

    // The header row stays in view while the grid scrolls: the grid is the one scroll container of its rows.
    const body = grid.locator('.ag-grid-viewport');
    expect(await body.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    // Arrowing down to the last row scrolls the grid, not the page, and the header row stays above it in view.
    await focusCell('session', 'M6');
    await page.evaluate(() => document.querySelector('[data-test="monthly-grid"]')?.scrollIntoView());
    const pageAt = await page.evaluate(() => window.scrollY);
    for (let i = 0; i < 60 && (await focused()) !== 'ending_cash_balance'; i++) await page.keyboard.press('ArrowDown');
    await expect.poll(() => body.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(pageAt);
    const header = await grid.locator('.ag-header').boundingBox();
    const last = await cell('ending_cash_balance', 'M6').boundingBox();
    expect(header && last && header.y >= 0 && header.y + header.height <= last.y && last.y + last.height <= 800).toBe(
      true,
    );
    // Scrolled to its end, the last row clears the horizontal scroll bar drawn over the grid's bottom edge.
    await body.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const bar = await grid.locator('.ag-body-horizontal-scroll').boundingBox();
    const end = await grid.locator('.ag-row[row-id="ending_cash_balance"]').first().boundingBox();
    expect(bar && end && end.y + end.height <= bar.y + 1).toBe(true);
    await screenshot(page, 'grid-header-in-view');

    // The P&L's table and chart name the currency too.
    await open(page, 'pl', 'pl-table');
    expect((await page.locator('[data-test="pl-table"] .ag-header-cell').first().textContent())?.trim()).toBe(
      'Amounts in ¥',
    );
    // Its skip link leads into its table as well (`?` there: explain.test.ts).
    await page.keyboard.press('Tab');
    expect(await activeTest()).toBe('skip-to-grid');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.closest('[data-test="pl-table"] .ag-cell') !== null);
    await page.locator('[data-test="pl-chart"] .ytick text').first().waitFor();
    const ticks = await page.locator('[data-test="pl-chart"] .ytick text').allTextContents();
    expect(ticks.every((tick) => tick.startsWith('¥'))).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);

  it('reaches Reverse and the memo with Tab and presses them with Space and Enter', async () => {
    // Month 3 has actuals (ACT).
    const saved = await stack.api.call('POST', '/pl/monthly/edit', {
      token: owner.token,
      body: { business_plan_id: planId, year: 1, month: 3, order: 7 },
    });
    expect(saved.status).toBe(200);
    await open(page, 'monthly_pl', 'monthly-grid');
    await page.getByRole('tab', { name: 'Enter actuals' }).click();
    await page.locator('[data-test="control-M3"] .ws-status.act').waitFor();
    await focusCell('control', 'M3');
    await page.keyboard.press('Tab');
    expect(await activeTest()).toBe('edit-M3');
    await page.keyboard.press('Enter');
    await page.locator('[data-test="reverse-M3"]').waitFor();
    await focusCell('control', 'M3');
    for (const expected of ['save-M3', 'cancel-M3', 'reverse-M3']) {
      await page.keyboard.press('Tab');
      expect(await activeTest()).toBe(expected);
    }
    const reversed = page.waitForResponse((r) => r.url().includes('/pl/monthly/reverse') && r.status() === 200);
    await page.keyboard.press(' ');
    await reversed;
    await page.waitForFunction(
      () => document.querySelector('[data-test="control-M3"] .ws-status')?.textContent === 'EST',
    );
    const actual = (await engineOf(stack, owner.token, planId)).monthlyGrid(0, 1, 'actual');
    expect(actual[2]?.status).toBe('EST');
    await waitForCell(page, 'monthly-grid', 'order', 'M3', formatNumber(actual[2]?.values.order));

    // The memo: Tab past Edit, Enter opens it; its box takes the text, and its Save is a button like any other.
    await focusCell('control', 'M2');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await activeTest()).toBe('memo-M2');
    expect(await page.locator('[data-test="memo-M2"]').getAttribute('aria-label')).toBe('Memo');
    await page.keyboard.press('Enter');
    const memo = page.locator('[data-test="memo-modal"] textarea');
    await memo.fill('Webinar month');
    const commented = page.waitForResponse((r) => r.url().includes('/pl/monthly/comment/edit') && r.status() === 200);
    await page.locator('[data-test="memo-modal"]').getByRole('button', { name: 'Save' }).press('Enter');
    await commented;
    await page.locator('[data-test="memo-M2"].has').waitFor();
    expect(await page.locator('[data-test="memo-M2"]').getAttribute('title')).toBe('Webinar month');
    // The estimate section has its own memo.
    await page.getByRole('tab', { name: 'Edit cash flow' }).click();
    expect(await page.locator('[data-test="memo-M2"].has').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 120_000);

  it('finds no serious or critical axe-core violation on the grid screens and the dashboard, in both languages', async () => {
    const ja = await newPage(stack, { locale: 'ja-JP' });
    await signIn(ja.page, owner.token);
    // Month 1 with actuals: its ACT column's tint under red negative figures (a cost), checked for contrast too.
    await actMonthOne();
    try {
      for (const on of [page, ja.page]) {
        for (const { path, screen, grid } of SCREENS) {
          await open(on, path, grid);
          expect({ screen, violations: await serious(on) }).toEqual({ screen, violations: [] });
        }
      }
      // Japanese names the unit in Japanese.
      await open(ja.page, 'monthly_pl', 'monthly-grid');
      expect(
        (await ja.page.locator('[data-test="monthly-grid"] .ag-header-cell[col-id="label"]').textContent())?.trim(),
      ).toBe('金額（¥）');
    } finally {
      await ja.context.close();
    }
  }, 240_000);

  it('fits a 375 px phone: the label column a third at most, Save, Cancel and Reverse whole, nothing scrolls sideways', async () => {
    const phone = await newPage(stack, { locale: 'en-US', width: 375, height: 740 });
    await signIn(phone.page, owner.token);
    const on = phone.page;
    try {
      for (const { path, screen, grid } of SCREENS) {
        await open(on, path, grid);
        const sideways = await on.evaluate(() => {
          const root = document.scrollingElement;
          return root ? root.scrollWidth - root.clientWidth : 0;
        });
        expect({ screen, sideways }).toEqual({ screen, sideways: 0 });
        if (grid && grid !== 'data-grid') {
          const label = await on
            .locator(`${gridSelector(grid)} .ag-header-cell`)
            .first()
            .boundingBox();
          expect(label?.width ?? 999).toBeLessThanOrEqual(375 / 3);
        }
      }
      // Month 1 with actuals (ACT): in edit mode its cell holds Reverse beside Save and Cancel.
      await actMonthOne();
      await open(on, 'monthly_pl', 'monthly-grid');
      await on.getByRole('tab', { name: 'Enter actuals' }).click();
      await on.locator('[data-test="control-M1"] .ws-status.act').waitFor();
      await on.locator('[data-test="edit-M1"]').click();
      await on.locator('[data-test="reverse-M1"]').waitFor();
      const control = await on.locator('.ag-row[row-id="control"] .ag-cell[col-id="M1"]').boundingBox();
      for (const button of ['save-M1', 'cancel-M1', 'reverse-M1']) {
        const box = await on.locator(`[data-test="${button}"]`).boundingBox();
        if (!box || !control) throw new Error(`${button} is not shown`);
        // Within the viewport and within its cell: nothing of it is cut off.
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(375);
        expect(box.x).toBeGreaterThanOrEqual(control.x);
        expect(box.x + box.width).toBeLessThanOrEqual(control.x + control.width);
        expect(box.y).toBeGreaterThanOrEqual(control.y);
        expect(box.y + box.height).toBeLessThanOrEqual(control.y + control.height);
      }
      await screenshot(on, 'grid-phone-edit');
    } finally {
      await phone.context.close();
    }
  }, 180_000);

  it("paints a cold screen's figures before the grid loads: the same text in the same cells, then the grid", async () => {
    await actMonthOne();
    for (const { path, screen, grid } of SCREENS.filter((s) => s.grid === 'pl-table' || s.grid === 'monthly-grid')) {
      // A new browser context has loaded nothing: AG Grid's chunk is held back until the first paint has been read.
      const cold = await newPage(stack, { locale: 'en-US', width: 1440, height: 900 });
      const pageErrors: string[] = [];
      cold.page.on('pageerror', (error) => pageErrors.push(error.message));
      await signIn(cold.page, owner.token);
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await cold.page.route(/\/assets\/AgDataGrid-[^/]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      try {
        await cold.page.goto(`/business-plans/${planId}/${path}`);
        const painted = cold.page.locator(`[data-first-paint="${grid}"]`);
        await painted.locator('.gfp-cell').first().waitFor();
        await cold.page.waitForFunction(() => document.querySelectorAll('.content-loading').length === 0);
        // Read-only and out of the accessibility tree: the grid that replaces it is what a keyboard and a reader use.
        expect(await painted.getAttribute('aria-hidden')).toBe('true');
        expect(await painted.evaluate((el) => (el as HTMLElement).inert)).toBe(true);
        expect(await cold.page.locator('.ag-root').count()).toBe(0);
        expect({ screen, violations: await serious(cold.page) }).toEqual({ screen, violations: [] });
        const first = await painted.evaluate(readFirstPaint);
        await screenshot(cold.page, `grid-first-paint-${screen}`);

        release();
        await cold.page
          .locator(`${gridSelector(grid)} .ag-row`)
          .first()
          .waitFor();
        await cold.page.waitForFunction((id) => !document.querySelector(`[data-first-paint="${id}"]`), grid);
        const drawn = await cold.page.locator(gridSelector(grid)).evaluate(readGrid);
        // Every row, every cell's text as the grid shows it (the monthly control row: its statuses, without controls).
        expect(first.rows.map((r) => r.id)).toEqual(drawn.rows.map((r) => r.id));
        for (const [index, row] of first.rows.entries()) {
          const shown = drawn.rows[index]?.texts ?? [];
          const expected = row.id === 'control' ? shown.map((text) => text.replace(/\s*Edit\s*✎$/, '')) : shown;
          expect({ screen, row: row.id, texts: row.texts }).toEqual({ screen, row: row.id, texts: expected });
        }
        expect(first.headers).toEqual(drawn.headers);
        // In the same place: every header cell and the first rows' cells within a pixel of the grid's.
        for (const [index, box] of first.boxes.entries()) {
          const at = drawn.boxes[index];
          for (const side of ['x', 'y', 'width', 'height'] as const)
            expect({ screen, index, side, off: Math.abs(box[side] - (at?.[side] ?? Number.NaN)) <= 1.5 }).toEqual({
              screen,
              index,
              side,
              off: true,
            });
        }
        expect(pageErrors).toEqual([]);
      } finally {
        release();
        await cold.context.close();
      }
    }
  }, 120_000);
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The first paint's headers, rows (id and cell texts) and the boxes of its headers and first three rows' cells. */
function readFirstPaint(root: Element) {
  const box = (el: Element): Box => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  const headers = [...root.querySelectorAll('.gfp-head')];
  const rows = [...root.querySelectorAll('.gfp-row[data-row-id]')].map((row) => ({
    id: row.getAttribute('data-row-id') ?? '',
    cells: [...row.querySelectorAll(':scope > .gfp-cell')],
  }));
  return {
    headers: headers.map(text),
    rows: rows.map((row) => ({ id: row.id, texts: row.cells.map(text) })),
    boxes: [...headers, ...rows.slice(0, 3).flatMap((row) => row.cells)].map(box),
  };
}

/** The same of AG Grid: rows by their index, cells by their column index (pinned and scrolling parts together). */
function readGrid(root: Element) {
  const box = (el: Element): Box => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  const column = (el: Element) => Number(el.getAttribute('aria-colindex'));
  const headers = [...root.querySelectorAll('.ag-header-cell')].sort((a, b) => column(a) - column(b));
  const byIndex = new Map<number, { id: string; cells: Element[] }>();
  for (const cell of root.querySelectorAll('.ag-row .ag-cell')) {
    const row = cell.closest('.ag-row');
    const index = Number(row?.getAttribute('row-index'));
    const entry = byIndex.get(index) ?? { id: row?.getAttribute('row-id') ?? '', cells: [] };
    entry.cells.push(cell);
    byIndex.set(index, entry);
  }
  const rows = [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) => ({ id: row.id, cells: row.cells.sort((a, b) => column(a) - column(b)) }));
  return {
    headers: headers.map(text),
    rows: rows.map((row) => ({ id: row.id, texts: row.cells.map(text) })),
    boxes: [...headers, ...rows.slice(0, 3).flatMap((row) => row.cells)].map(box),
  };
}
