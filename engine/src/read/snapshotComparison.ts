/**
 * The annual P&L against a snapshot (issue 40, point 3): the snapshot's plan-year figures beside the live plan's
 * cases, compared as the cases are (`caseComparison`). The snapshot's case is the one that is the budget of the live
 * base case (`snapshotCaseIndex`), its figures are read from its own workbook, built by the same engine from its
 * stored inputs, and its difference is from the live base case: how the plan of record stood against the plan now.
 */
import { PLAN_YEARS } from '../schema';
import {
  type ComparedCase,
  type CompareRecord,
  combine,
  difference,
  differenceRate,
  yearValues,
} from './caseComparison';
import { CaseReader, flagBroken, refusedInputs } from './cells';
import { forecastMonths } from './dashboard';
import { snapshotCaseIndex } from './snapshotVariance';
import type { WorkbookFigures } from './source';

/** A snapshot set beside the cases: its name and its workbook, built by the same engine from its stored inputs. */
export interface ComparedSnapshot {
  name: string;
  workbook: WorkbookFigures;
}

/** The case column of a snapshot's rows in the downloads: its name, said to be a snapshot (a case may share it). */
export const snapshotCaseLabel = (name: string, lang: 'en' | 'ja'): string =>
  lang === 'ja' ? `${name}（スナップショット）` : `${name} (snapshot)`;

/**
 * The snapshot's case beside the live plan: its figures per plan year and their differences from the live base case
 * (`case_index` is its index within the snapshot).
 */
export function snapshotCompared(live: WorkbookFigures, snapshot: WorkbookFigures): ComparedCase {
  const index = snapshotCaseIndex(live, 0, snapshot);
  const base = new CaseReader(live, 0);
  const r = new CaseReader(snapshot, index);
  const runway = forecastMonths(snapshot, index);
  return {
    case_index: index,
    case_name: snapshot.plan.cases[index]?.case_name ?? '',
    forecast_monthes: runway !== null && Number.isFinite(runway) ? runway : null,
    years: Array.from({ length: PLAN_YEARS }, (_, i) => {
      const values: CompareRecord = yearValues(r, i + 1);
      const baseValues = yearValues(base, i + 1);
      const year = {
        year: i + 1,
        values,
        difference: combine(values, baseValues, difference),
        difference_rate: combine(values, baseValues, differenceRate),
      };
      return flagBroken(year, refusedInputs(snapshot, index, i + 1));
    }),
  };
}
