import type { ExplainView } from '@topline/engine/shapes';

/**
 * One figure: a key of the monthly record or the annual P&L (or `assumption.<key>`) in a period of a plan year and a
 * view, or a dashboard figure (`dashboard.<column>.<row>`, `dashboard.<scalar>`, whatever the period).
 */
export interface ExplainTarget {
  caseId?: number | undefined;
  year: number;
  /** `1`..`12`, `q1`..`q4` or `cy`. */
  period: string;
  key: string;
  view?: ExplainView;
  /** A comparison view's budget: the snapshot whose estimate the figure is compared with (the live plan's without). */
  snapshotId?: number | undefined;
}
