/** The P&L's case comparison as the screen shows it: the answer's rows, their formats and the chart of a measure. */
import type { CompareKey, CompareMeasure } from '@topline/engine/shapes';
import type { AnswerAt } from '../../api/client';
import { plotlyText } from '../../charts/plotlyText';
import type { Trace } from '../../charts/trace';
import type { CellFormat } from '../../grid/YearTable';

/** GET /pl/compare's data: every case, the base case first, with its figures and differences per plan year. */
export type CompareAnswer = AnswerAt<'/pl/compare'>;
export type CompareCase = CompareAnswer['cases'][number];

/**
 * The cases the comparison shows: the live cases, then, with a snapshot chosen, its case compared with the live base
 * case under the label given (the snapshot's name), as one more case of the table and the chart.
 */
export function shownCases(answer: CompareAnswer, snapshotLabel: string | null): CompareCase[] {
  const { snapshot } = answer;
  if (!snapshot || snapshotLabel === null) return answer.cases;
  const { snapshot_id, ...compared } = snapshot;
  return [...answer.cases, { ...compared, case_id: -snapshot_id, case_name: snapshotLabel }];
}

/** The compared rows in the order working-screens.md lists the P&L, each with its format and row label key. */
export const COMPARE_ROWS: { key: CompareKey; format: CellFormat; label: string }[] = [
  { key: 'revenue', format: 'money', label: 'revenue' },
  { key: 'gross_profit', format: 'money', label: 'gross_profit' },
  { key: 'gross_profit_rate', format: 'percent', label: 'gross_profit_rate' },
  { key: 'sm', format: 'money', label: 'sm' },
  { key: 'rd', format: 'money', label: 'rd' },
  { key: 'ga', format: 'money', label: 'ga' },
  { key: 'operating_pl', format: 'money', label: 'operating_pl' },
  { key: 'operating_pl_rate', format: 'percent', label: 'operating_pl_rate' },
  { key: 'arr', format: 'money', label: 'arr' },
  { key: 'customers', format: 'count', label: 'cumulative' },
  { key: 'employees', format: 'count', label: 'employees' },
  { key: 'ending_cash', format: 'money', label: 'ending_cash_balance' },
  { key: 'required_cash', format: 'money', label: 'required_cash' },
  { key: 'burn_multiple', format: 'decimal', label: 'burn_multiple' },
];

/**
 * One line per case of a measure, in millions, named after the case.
 * @param colors each case's colour, by case position
 * @param label how a case name is shown; the result is escaped for Plotly
 */
export function compareTraces(
  cases: readonly CompareCase[],
  measure: CompareMeasure,
  x: string[],
  colors: readonly (string | undefined)[],
  label: (caseName: string) => string,
): Trace[] {
  return cases.map((c, i) => ({
    type: 'scatter',
    mode: 'lines+markers',
    name: plotlyText(label(c.case_name)),
    x,
    y: c.years.map((y) => {
      const v = y.values[measure];
      return v === null ? null : v / 1_000_000;
    }),
    line: { color: colors[i] },
  }));
}
