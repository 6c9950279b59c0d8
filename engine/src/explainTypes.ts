import type { ExplainView } from './explainKeys';
import type { ExplainLanguage } from './explainLabels';
import type { Value } from './workbook';

/** What explain is asked and what it answers: the request, the explanation, its inputs and its refusal. */

export type { ExplainView } from './explainKeys';

export type ExplainSource = 'formula' | 'assumption' | 'default' | 'actual' | 'cash input';

/** One figure the explained formula reads. */
export interface ExplainInput {
  label: string;
  /** A period-sheet row (`mrr`), `assumption.<key>`, `plan.<name>`, `daily.<metric>` or `dashboard.<figure>`. */
  key: string;
  /** The plan year of the input; null for the plan's own inputs. */
  year: number | null;
  /** `1`..`12`, `q1`..`q4` or `cy`; null for the plan's own inputs. */
  period: string | null;
  value: Value;
  source: ExplainSource;
  /** Whether the input is itself computed, so that it has an explanation of its own. */
  explainable: boolean;
  /**
   * The view the input is read in, set when it is not the view of the figure explained: the estimate read by the
   * actual view (a forecast month, a revision), the two sides of a comparison, the months a dashboard figure reads.
   */
  view?: ExplainView;
}

export interface Explanation {
  label: string;
  value: Value;
  /**
   * The figure as the screens show it, when that is not `value`: a count flow of the plan, the actual view or their
   * difference is shown as a whole number whose quarter and year add up (`read/footing.ts`), so a month of 2.62
   * orders may show as 3 and its quarter as the sum of its shown months; money within half a cent of zero shows as 0.
   */
  shown?: number;
  /**
   * Set when the screens show a dash for the figure: a rate, progress or difference rate whose base is zero up to
   * floating-point residue (`read/residue.ts`), whatever `value` the workbook computes from it.
   */
  dash?: 'zero_base';
  /** The formula in words: "Revenue = MRR + Professional services". */
  formula: string;
  inputs: ExplainInput[];
}

export interface ExplainRequest {
  caseIndex: number;
  year: number;
  /** `1`..`12`, `q1`..`q4` or `cy` (a dashboard figure does not depend on it). */
  period: string;
  key: string;
  /** The view of a row (the plan unless said); assumptions and dashboard figures have none. */
  view?: ExplainView;
  language?: ExplainLanguage;
}

export interface CellAddress {
  sheet: string;
  row: number;
  column: number;
}

/** An explanation and the cell it was read from, with the formula as HyperFormula holds it (for checks). */
export interface ExplainedCell {
  explanation: Explanation;
  cell: CellAddress;
  /** HyperFormula's formula of the cell; undefined for a value. */
  expression: string | undefined;
  /** The input read from a cell of the formula, or from one of its named expressions. */
  inputAt: (cell: CellAddress) => ExplainInput | undefined;
  inputNamed: (name: string) => ExplainInput | undefined;
}

/** A request explain cannot answer: an unknown key, a period that does not exist, a case the plan does not have. */
export class ExplainError extends Error {
  override readonly name = 'ExplainError';
}
