import { describe, expect, it } from 'vitest';
import { afterMonth, cellRefusalMessage, monthInput, readCellInput, sanitizeNumber, unbracket } from './input';

describe('input rules', () => {
  it('strips non-numeric characters, keeps a minus and floors decimals', () => {
    expect(sanitizeNumber('1a2,3')).toBe('123');
    expect(sanitizeNumber('-12')).toBe('-12');
    expect(sanitizeNumber('-12', { minus: false })).toBe('12');
    expect(sanitizeNumber('2.345', { decimal: true })).toBe('2.3');
    expect(sanitizeNumber('2.345', { decimal: true, digits: 2 })).toBe('2.34');
  });

  it('keeps month inputs to 1..12 and reverts anything else', () => {
    expect(monthInput('1', '')).toBe('1');
    expect(monthInput('12', '1')).toBe('12');
    expect(monthInput('13', '1')).toBe('1');
    expect(monthInput('a', '4')).toBe('4');
    expect(monthInput('123', '12')).toBe('12');
  });

  it('finds an end before the start', () => {
    expect(afterMonth({ year: 2026, month: 5 }, { year: 2026, month: 4 })).toBe(true);
    expect(afterMonth({ year: 2026, month: 4 }, { year: 2026, month: 4 })).toBe(false);
  });
});

describe('readCellInput: the one reader of typed and pasted cells with the one sign rule', () => {
  const en = (key: string, options?: Record<string, unknown>) => `${key} ${JSON.stringify(options ?? {})}`;

  it('reads -3,000, ▲3,000, (3,000) and full-width －３，０００ in a cost row as a cost of 3,000', () => {
    for (const text of ['-3,000', '▲3,000', '(3,000)', '（3,000）', '－３，０００', ' -3000 ']) {
      expect(readCellInput(text, 'cogs')).toEqual({ ok: true, value: 3000 });
    }
  });

  it('refuses 3,000 in a cost row and -500 as a repayment, with the sign the row takes', () => {
    const cost = readCellInput('3,000', 'sm');
    expect(cost).toMatchObject({ ok: false, problem: 'sign', kind: 'cost', text: '3,000' });
    if (!cost.ok) expect(cellRefusalMessage(cost, 'sm', en)).toBe('ws.sheet.sign.cost {"text":"3,000"}');
    const repayment = readCellInput('(500)', 'debt_payment');
    expect(repayment).toMatchObject({ ok: false, problem: 'sign', kind: 'repayment' });
    if (!repayment.ok) {
      expect(cellRefusalMessage(repayment, 'debt_payment', en)).toBe(
        'ws.sheet.sign.positive {"text":"(500)","what":"ws.sheet.kind.repayment {}"}',
      );
    }
    expect(readCellInput('1,234', 'debt_payment')).toEqual({ ok: true, value: 1234 });
  });

  it('keeps the typed-number rule: 12abc, 1,5 and (−5) are refused, an empty cell clears', () => {
    expect(readCellInput('12abc', 'cogs')).toMatchObject({ ok: false, problem: 'format' });
    expect(readCellInput('1,5', 'session')).toMatchObject({ ok: false, problem: 'format' });
    expect(readCellInput('(-5)', 'other')).toMatchObject({ ok: false, problem: 'format' });
    expect(readCellInput('(5)', 'session')).toMatchObject({ ok: false, problem: 'negative' });
    expect(readCellInput('', 'cogs')).toEqual({ ok: true, value: null });
    expect(readCellInput('(1,234)', 'other')).toEqual({ ok: true, value: -1234 });
  });

  it('reads brackets as a minus and leaves other text alone', () => {
    expect(unbracket('(1,234)')).toBe('-1,234');
    expect(unbracket('1,234')).toBe('1,234');
    expect(unbracket('(1')).toBe('(1');
  });
});
