import { describe, expect, it } from 'vitest';
import { monthlyCsvView } from './SpreadsheetDownloads';

describe('the monthly P&L CSV of a screen view', () => {
  it('exports the variance as the view shows it: rates when rates are shown, values otherwise', () => {
    expect(monthlyCsvView('variance', 'rate')).toBe('difference_rate');
    expect(monthlyCsvView('variance', 'value')).toBe('difference');
    // The screen's revised forecast is the actual view; the other views are their own.
    expect(monthlyCsvView('revise', 'rate')).toBe('actual');
    expect(monthlyCsvView('progress', 'value')).toBe('progress');
    expect(monthlyCsvView('estimate')).toBe('estimate');
  });
});
