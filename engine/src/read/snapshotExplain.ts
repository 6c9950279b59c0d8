/**
 * Explain for a figure of the progress and variance views read against a snapshot (`snapshotVariance.ts`): the
 * figure as the screen shows it, its formula in words, and the two sides it compares: the live actual view (an ACT
 * month as entered, another the live forecast), which has an explanation of its own, and the snapshot's estimate,
 * built by the same engine from the snapshot's stored inputs.
 */
import type { ExplainView } from '../explainKeys';
import { parseExplainPeriod } from '../explainKeys';
import type { ExplainLanguage } from '../explainLabels';
import type { Explanation } from '../explainTypes';
import { type Period, periodColumn, periodsOfYear } from '../layout';
import { CaseReader } from './cells';
import { columnName } from './monthly';
import { type PlanOfRecord, type SnapshotView, snapshotGrid } from './snapshotVariance';
import type { WorkbookFigures } from './source';

const WORDS = {
  en: {
    actual: '{row} (actual, the forecast where not entered)',
    budget: '{row} (snapshot “{name}”)',
    label: {
      progress: 'Progress of {row} against snapshot “{name}”',
      difference_value: 'Difference of {row} from snapshot “{name}”',
      difference_rate: 'Difference rate of {row} from snapshot “{name}”',
    },
    formula: {
      progress: '{label} = {actual} ÷ {budget}',
      difference_value: '{label} = {actual} − {budget}',
      difference_rate: '{label} = {actual} ÷ {budget} − 1',
    },
  },
  ja: {
    actual: '{row}（実績、未入力の月は見通し）',
    budget: '{row}（スナップショット「{name}」）',
    label: {
      progress: '{row}のスナップショット「{name}」に対する進捗率',
      difference_value: '{row}のスナップショット「{name}」との差額',
      difference_rate: '{row}のスナップショット「{name}」との差異率',
    },
    formula: {
      progress: '{label} = {actual} ÷ {budget}',
      difference_value: '{label} = {actual} − {budget}',
      difference_rate: '{label} = {actual} ÷ {budget} − 1',
    },
  },
} as const;

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');

export interface SnapshotExplainRequest {
  year: number;
  /** `1`..`12`, `q1`..`q4` or `cy`. */
  period: string;
  key: string;
  view: SnapshotView;
  language: ExplainLanguage;
  /** The figure's row as explain names it in the estimate ("Revenue"). */
  rowLabel: string;
  /** The snapshot's name. */
  name: string;
}

/** The request's period as a period of the plan, or undefined. */
function periodOf(year: number, text: string): Period | undefined {
  const asked = parseExplainPeriod(year, text);
  if (!asked) return undefined;
  return periodsOfYear(year).find((p) =>
    asked.kind === 'month'
      ? p.kind === 'month' && p.t === asked.t
      : asked.kind === 'quarter'
        ? p.kind === 'quarter' && p.quarter === asked.quarter
        : p.kind === 'year',
  );
}

/**
 * A figure of a comparison view against the snapshot, explained.
 * @throws RangeError when the period is not one of the year
 */
export function explainAgainstSnapshot(
  wb: WorkbookFigures,
  caseIndex: number,
  record: PlanOfRecord,
  request: SnapshotExplainRequest,
): Explanation {
  const p = periodOf(request.year, request.period);
  if (!p) throw new RangeError(`no period ${request.period} in year ${request.year}`);
  const words = WORDS[request.language === 'ja' ? 'ja' : 'en'];
  const row = request.rowLabel;
  const live = new CaseReader(wb, caseIndex);
  const budget = new CaseReader(record.workbook, record.caseIndex);
  const column = periodColumn(p);
  const actual = live.cell(live.viewSheet, request.key, column);
  const planned = budget.cell(budget.layout.sheets.estimate, request.key, column);
  const shownColumn = snapshotGrid(wb, caseIndex, record, request.year, request.view).find(
    (c) => c.column === columnName(p),
  );
  const shown = shownColumn?.values[request.key] ?? null;
  const dashed = shownColumn?.dashes?.includes(request.key) ?? false;
  const label = fill(words.label[request.view], { row, name: request.name });
  const actualLabel = fill(words.actual, { row });
  const budgetLabel = fill(words.budget, { row, name: request.name });
  const clean = (v: number | null) => (v !== null && Number.isFinite(v) ? v : null);
  const side = (value: number | null, sideLabel: string, explainable: boolean, view?: ExplainView) => ({
    label: sideLabel,
    key: request.key,
    year: request.year,
    period: request.period,
    value: clean(value),
    source: 'formula' as const,
    explainable,
    ...(view ? { view } : {}),
  });
  return {
    label,
    value: shown,
    ...(dashed ? { dash: 'zero_base' as const } : {}),
    formula: fill(words.formula[request.view], { label, actual: actualLabel, budget: budgetLabel }),
    // The live side is explained in the live actual view; the snapshot's estimate is not the plan's to explain.
    inputs: [side(actual, actualLabel, true, 'actual'), side(planned, budgetLabel, false)],
  };
}
