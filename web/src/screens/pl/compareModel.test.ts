import { describe, expect, it } from 'vitest';
import { type CompareAnswer, type CompareCase, compareTraces, shownCases } from './compareModel';

const LINK = '<a href="https://evil.example/">Base</a>';

/** A compared case with its ARR and ending cash by plan year (the other figures left out). */
function compared(name: string, arr: (number | null)[], cash: (number | null)[]): CompareCase {
  return {
    case_id: 1,
    case_index: 0,
    case_name: name,
    forecast_monthes: null,
    years: arr.map((value, i) => ({
      year: i + 1,
      values: { arr: value, ending_cash: cash[i] ?? null } as CompareCase['years'][number]['values'],
      difference: null,
      difference_rate: null,
    })),
  };
}

describe('compareTraces', () => {
  const cases = [
    compared(LINK, [5_000_000, null], [1_000_000, -2_500_000]),
    compared('Upside', [1_500_000, 3e6], [0, 0]),
  ];

  it('draws the chosen measure of every case in millions, blanks left blank', () => {
    expect(compareTraces(cases, 'arr', ['Y1', 'Y2'], [], (n) => n).map((t) => t.y)).toEqual([
      [5, null],
      [1.5, 3],
    ]);
    expect(compareTraces(cases, 'ending_cash', ['Y1', 'Y2'], [], (n) => n)[0]?.y).toEqual([1, -2.5]);
  });

  it('names each line with the escaped case name, in its colour', () => {
    const [first, second] = compareTraces(cases, 'arr', ['Y1', 'Y2'], ['#111111'], (n) => n);
    expect(first?.name).toBe('&lt;a href=&#34;https://evil.example/&#34;&gt;Base&lt;/a&gt;');
    expect(first?.line).toEqual({ color: '#111111' });
    expect(second?.line).toEqual({ color: undefined });
  });

  it('escapes the label the screen shows, not only the stored name', () => {
    const [trace] = compareTraces([compared('base', [], [])], 'arr', [], [], () => '<i>Base</i>');
    expect(trace?.name).toBe('&lt;i&gt;Base&lt;/i&gt;');
  });

  it('sets a chosen snapshot after the live cases, under its label', () => {
    const snapshot = { ...compared('Base case', [7_000_000], [0]), snapshot_id: 5 };
    const { case_id: _, ...withoutId } = snapshot;
    const answer = { cases, snapshot: withoutId } as CompareAnswer;
    const shown = shownCases(answer, 'Snapshot “Board plan”');
    expect(shown.map((c) => c.case_name)).toEqual([LINK, 'Upside', 'Snapshot “Board plan”']);
    expect(shown[2]?.case_id).toBe(-5);
    expect(compareTraces(shown, 'arr', ['Y1'], [], (n) => n)[2]?.y).toEqual([7]);
    expect(shownCases(answer, null)).toEqual(cases);
    expect(shownCases({ cases } as CompareAnswer, 'x')).toEqual(cases);
  });
});
