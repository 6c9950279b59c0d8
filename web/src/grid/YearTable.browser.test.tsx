/**
 * The grid's edit loop, as a component in Chromium (vitest's browser mode): a year table of a screen, its figures
 * entered by typing, pasting, clearing and undoing; each value read by its row's rule and handed to the screen's save,
 * whose answer the table then shows; what a cell refuses is a message at that cell, and nothing is saved. The same
 * keys on the real screens, against the API, are in `e2e/gridKeyboard.test.ts` and `e2e/gridClipboard.test.ts`.
 */
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { initI18n } from '../i18n';
import { NoticeProvider } from '../notices';
import { type TableRow, YearTable } from './YearTable';
import '../styles/base.css';

type Key = 'arr' | 'churn_rate';

const ROWS: TableRow<Key>[] = [
  { key: 'arr', label: 'ARR', format: 'money', values: [1000, 2000, 3000], editKey: 'arr' },
  { key: 'churn_rate', label: 'Churn', format: 'percent', values: [0.01, 0.01, 0.01], editKey: 'churn_rate' },
  { key: 'mrr', label: 'MRR', format: 'money', values: [83, 167, 250] },
];

/** What the table handed to the screen's save, in order. */
let saved: { key: string; index: number; value: number | null }[] = [];
let root: Root | null = null;
let container: HTMLDivElement | null = null;

/** A screen around the table: each save is answered a moment later with the figure as stored, which the table shows. */
function Screen() {
  const [rows, setRows] = useState(ROWS);
  const onEdit = (row: TableRow<Key>, index: number, value: number | null) => {
    saved.push({ key: row.key, index, value });
    window.setTimeout(() => {
      setRows((current) =>
        current.map((r) =>
          r.key === row.key ? { ...r, values: r.values.map((v, i) => (i === index ? value : v)) } : r,
        ),
      );
    }, 20);
  };
  return (
    <NoticeProvider>
      <YearTable rows={rows} headers={['Y1', 'Y2', 'Y3']} editable onEdit={onEdit} testId="table" />
    </NoticeProvider>
  );
}

const cellAt = (rowId: string, colId: string) =>
  document.querySelector<HTMLElement>(`[data-test="table"] .ag-row[row-id="${rowId}"] .ag-cell[col-id="${colId}"]`);

const textAt = (rowId: string, colId: string) => cellAt(rowId, colId)?.textContent?.trim() ?? null;

/** The cell that holds the keyboard: its row and column. */
function focused(): string | null {
  const cell = document.activeElement?.closest('.ag-cell');
  return cell ? `${cell.closest('.ag-row')?.getAttribute('row-id')}/${cell.getAttribute('col-id')}` : null;
}

/** Puts the keyboard on a cell, not editing it (a click opens its editor: `singleClickEdit`). */
async function select(rowId: string, colId: string) {
  const cell = cellAt(rowId, colId);
  if (!cell) throw new Error(`no cell ${rowId}/${colId}`);
  cell.focus();
  await expect.poll(() => document.activeElement === cellAt(rowId, colId)).toBe(true);
}

/** A paste of `text` on the focused cell, as the browser delivers it. */
function paste(text: string) {
  const transfer = new DataTransfer();
  transfer.setData('text/plain', text);
  document.activeElement?.dispatchEvent(
    new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
  );
}

beforeAll(async () => {
  const i18n = initI18n();
  await i18n.changeLanguage('en');
});

beforeEach(async () => {
  saved = [];
  container = document.createElement('div');
  container.style.width = '900px';
  document.body.append(container);
  root = createRoot(container);
  await act(async () => root?.render(<Screen />));
  await expect.poll(() => textAt('arr', 'c0')).toBe('1,000');
});

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

describe('a year table of a screen, in Chromium', () => {
  it('enters a typed figure by its row’s rule, moves down, and shows the saved answer', async () => {
    await select('arr', 'c0');
    await userEvent.keyboard('1,234{Enter}');
    await expect.poll(() => saved).toEqual([{ key: 'arr', index: 0, value: 1234 }]);
    await expect.poll(() => textAt('arr', 'c0')).toBe('1,234');
    expect(focused()).toBe('churn_rate/c0');
    // A rate is typed in percent: 2.5 is 2.5 %.
    await userEvent.keyboard('2.5{Tab}');
    await expect.poll(() => saved.at(-1)).toEqual({ key: 'churn_rate', index: 0, value: 0.025 });
    await expect.poll(() => textAt('churn_rate', 'c0')).toBe('2.5%');
    expect(focused()).toBe('churn_rate/c1');
  });

  it('refuses what a cell cannot take with a message at that cell, and saves nothing', async () => {
    // A click opens the cell's editor, with the figure as shown.
    const cell = cellAt('arr', 'c1');
    if (!cell) throw new Error('no cell arr/c1');
    await userEvent.click(cell);
    await expect.poll(() => document.activeElement instanceof HTMLInputElement).toBe(true);
    expect((document.activeElement as HTMLInputElement).value).toBe('2,000');
    await userEvent.keyboard('{Control>}a{/Control}abc{Enter}');
    const message = () => document.querySelector('[data-test="cell-message"][data-row="arr"][data-col="c1"]');
    await expect.poll(() => message()?.textContent ?? '').not.toBe('');
    // ARR is never negative: the figure is refused, not turned around.
    await select('arr', 'c2');
    await userEvent.keyboard('-5{Enter}');
    await expect
      .poll(() => document.querySelector('[data-test="cell-message"][data-row="arr"][data-col="c2"]'))
      .not.toBeNull();
    expect(saved).toEqual([]);
    expect([textAt('arr', 'c1'), textAt('arr', 'c2')]).toEqual(['2,000', '3,000']);
    expect(cellAt('arr', 'c1')?.classList.contains('ws-refused')).toBe(true);
    // A figure it takes clears the cell's message.
    await select('arr', 'c1');
    await userEvent.keyboard('2,500{Enter}');
    await expect.poll(message).toBeNull();
    expect(saved).toEqual([{ key: 'arr', index: 1, value: 2500 }]);
  });

  it('leaves the figure as it was on Escape, and a computed row is never edited', async () => {
    await select('arr', 'c0');
    await userEvent.keyboard('999{Escape}');
    await expect.poll(() => textAt('arr', 'c0')).toBe('1,000');
    expect(focused()).toBe('arr/c0');
    await select('mrr', 'c0');
    await userEvent.keyboard('5{Enter}');
    await expect.poll(() => textAt('mrr', 'c0')).toBe('83');
    expect(saved).toEqual([]);
  });

  it('pastes a block from a spreadsheet as one edit, skipping computed cells, and undoes it whole', async () => {
    await select('arr', 'c0');
    paste('10\t20\r\n3\t4\r\n7\t8\r\n');
    await expect
      .poll(() => saved)
      .toEqual([
        { key: 'arr', index: 0, value: 10 },
        { key: 'arr', index: 1, value: 20 },
        { key: 'churn_rate', index: 0, value: 0.03 },
        { key: 'churn_rate', index: 1, value: 0.04 },
      ]);
    await expect
      .poll(() => [textAt('arr', 'c1'), textAt('churn_rate', 'c1'), textAt('mrr', 'c0')])
      .toEqual(['20', '4.0%', '83']);
    saved = [];
    await userEvent.keyboard('{Control>}z{/Control}');
    await expect.poll(() => saved).toHaveLength(4);
    expect(saved).toEqual(
      expect.arrayContaining([
        { key: 'arr', index: 0, value: 1000 },
        { key: 'arr', index: 1, value: 2000 },
        { key: 'churn_rate', index: 0, value: 0.01 },
        { key: 'churn_rate', index: 1, value: 0.01 },
      ]),
    );
    await expect.poll(() => [textAt('arr', 'c0'), textAt('churn_rate', 'c1')]).toEqual(['1,000', '1.0%']);
  });

  it('refuses a whole paste when one cell refuses its text, and clears a range with Delete', async () => {
    await select('arr', 'c0');
    paste('10\tabc');
    await expect
      .poll(() => document.querySelector('[data-test="cell-message"][data-row="arr"][data-col="c1"]'))
      .not.toBeNull();
    expect(saved).toEqual([]);
    await userEvent.keyboard('{ArrowRight}');
    await expect.poll(focused).toBe('arr/c1');
    await userEvent.keyboard('{Shift>}{ArrowRight}{/Shift}{Delete}');
    await expect
      .poll(() => saved)
      .toEqual([
        { key: 'arr', index: 1, value: null },
        { key: 'arr', index: 2, value: null },
      ]);
  });
});
