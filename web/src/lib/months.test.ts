import { describe, expect, it } from 'vitest';
import { yearMonths } from './months';

describe('year switcher months', () => {
  it('labels the 12 months of a plan year from the start month', () => {
    expect(yearMonths(2021, 4, 1)).toEqual([
      '2021/04',
      '2021/05',
      '2021/06',
      '2021/07',
      '2021/08',
      '2021/09',
      '2021/10',
      '2021/11',
      '2021/12',
      '2022/01',
      '2022/02',
      '2022/03',
    ]);
    expect(yearMonths(2021, 1, 6)[0]).toBe('2026/01');
    expect(yearMonths(2021, 1, 6)[11]).toBe('2026/12');
  });
});
