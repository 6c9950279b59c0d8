/** The traces of the P&L screen's case comparison: one ARR line per case, named after the case. */
import type { Trace } from './Chart';
import { plotlyText } from './plotlyText';

export interface ComparedCase {
  case_name: string;
  pl: { arr: number | null }[];
}

/**
 * @param x the year labels of the horizontal axis
 * @param colors each case's ARR colour, by case position
 * @param label how a case name is shown (the legacy base case name is translated); the result is escaped for Plotly
 */
export function caseCompareTraces(
  cases: readonly ComparedCase[],
  x: string[],
  colors: readonly ({ arr?: string } | undefined)[],
  label: (caseName: string) => string,
): Trace[] {
  return cases.map((c, i) => ({
    type: 'scatter',
    mode: 'lines+markers',
    name: plotlyText(label(c.case_name)),
    x,
    y: c.pl.map((y) => (y.arr === null ? null : y.arr / 1_000_000)),
    line: { color: colors[i]?.arr },
  }));
}
