import { describe, expect, it } from 'vitest';
import { hasInputSign, isShownInverted, readSigned, shownValue, storedValue } from './signs';

describe('the one sign rule', () => {
  it('reads a figure typed in a cost row as the row shows it: -3,000 is a cost of 3,000', () => {
    expect(isShownInverted('cogs')).toBe(true);
    expect(readSigned('cogs', -3000)).toEqual({ ok: true, value: 3000 });
    expect(readSigned('sm', -0.5)).toEqual({ ok: true, value: 0.5 });
    expect(readSigned('ga', 0)).toEqual({ ok: true, value: 0 });
    expect(Object.is(storedValue('rd', 0), 0)).toBe(true);
  });

  it('refuses a positive figure in a cost row (a negative cost), naming a cost typed negative', () => {
    expect(readSigned('cogs', 3000)).toEqual({ ok: false, problem: 'sign', kind: 'cost', typed: 'negative' });
    expect(readSigned('rd', 1)).toMatchObject({ ok: false, kind: 'cost' });
  });

  it('takes repayments, funding and revenue as positive figures and refuses negative ones', () => {
    expect(isShownInverted('debt_payment')).toBe(false);
    expect(readSigned('debt_payment', 500)).toEqual({ ok: true, value: 500 });
    expect(readSigned('debt_payment', -500)).toEqual({
      ok: false,
      problem: 'sign',
      kind: 'repayment',
      typed: 'positive',
    });
    expect(readSigned('equity_raised', -1)).toMatchObject({ ok: false, kind: 'funding' });
    expect(readSigned('professional_service', -1)).toMatchObject({ ok: false, kind: 'revenue' });
  });

  it('lets the opening balance, other movements and inputs without a sign rule take either sign', () => {
    expect(readSigned('beginning_cash_balance', -200)).toEqual({ ok: true, value: -200 });
    expect(readSigned('other', -7)).toEqual({ ok: true, value: -7 });
    expect(readSigned('session', 12)).toEqual({ ok: true, value: 12 });
  });

  it('shows a stored cost negative and a stored repayment as it is', () => {
    expect(shownValue('cogs', 3000)).toBe(-3000);
    expect(shownValue('operating_expense', 10)).toBe(-10);
    expect(shownValue('debt_payment', 500)).toBe(500);
    expect(hasInputSign('cogs', -1)).toBe(false);
    expect(hasInputSign('other', -1)).toBe(true);
  });
});
