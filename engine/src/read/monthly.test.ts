import { describe, expect, it } from 'vitest';
import { buildFixture } from '../testing';

describe('the monthly P&L answer', () => {
  it('answers the forecast as the actual view: the ACT months as entered, the forecast elsewhere', () => {
    const wb = buildFixture('actuals-revisions');
    const [year1] = wb.monthlyPl(0, 1);
    if (!year1) throw new Error('no year 1');
    expect(year1.forecast).toEqual(year1.actual);
    // Year 1 has ACT months, so the actual view is not the plan: a forecast read from the estimate would fail above.
    expect(year1.actual.monthly.some((m) => m.status === 'ACT')).toBe(true);
    expect(year1.actual).not.toEqual(year1.estimate);
  });
});
