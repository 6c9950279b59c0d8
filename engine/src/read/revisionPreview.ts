/**
 * What "Revise budget" will do (MODEL.md section 6), read from a workbook: the year-end MRR and ARR of the forecast and
 * its revenue over the months the revision rewrites (after the latest ACT month L to the year's end). `revise.ts`
 * reads it from a copy of the plan's workbook with each pattern applied, as the save applies it.
 */
import { z } from 'zod';
import { REVISION_PATTERNS } from '../caseInputs';
import { CaseReader, figureSchema as figure } from './cells';
import type { WorkbookFigures } from './source';

export type RevisionPattern = (typeof REVISION_PATTERNS)[number];

export const revisionFiguresSchema = z.strictObject({
  /** The forecast's MRR in the year's last month. */
  year_end_mrr: figure,
  /** The forecast's ARR in the year's last month (MRR x 12). */
  year_end_arr: figure,
  /** The forecast's revenue summed over the months after L to the year's end. */
  remaining_revenue: figure,
});
export type RevisionFigures = z.infer<typeof revisionFiguresSchema>;

export const revisionOutcomeSchema = revisionFiguresSchema.extend({
  /** How much the revision moves the remaining months' revenue from the forecast as it stands. */
  revenue_change: figure,
});

export const revisionPreviewSchema = z.strictObject({
  case_index: z.int(),
  year: z.int(),
  /** L: the latest ACT month of the year (plan month t), from which the revision starts. */
  from_month: z.int(),
  /** The pattern the year is revised with now; null before any revision. */
  current_pattern: z.enum(REVISION_PATTERNS).nullable(),
  /** The forecast as it stands. */
  current: revisionFiguresSchema,
  /** The forecast each pattern would leave. */
  patterns: z.strictObject({ upward: revisionOutcomeSchema, downward: revisionOutcomeSchema }),
});
export type RevisionPreview = z.infer<typeof revisionPreviewSchema>;

const finite = (v: number | null) => (v === null || Number.isFinite(v) ? v : null);

/** The forecast figures a revision of `year` from month `from` changes, in the actual view of the case. */
export function revisionFigures(wb: WorkbookFigures, caseIndex: number, year: number, from: number): RevisionFigures {
  const r = new CaseReader(wb, caseIndex);
  const last = 12 * year;
  let remaining: number | null = 0;
  for (let t = from + 1; t <= last; t++) {
    const revenue = finite(r.viewAt('revenue', t));
    remaining = remaining === null || revenue === null ? null : remaining + revenue;
  }
  return {
    year_end_mrr: finite(r.viewAt('mrr', last)),
    year_end_arr: finite(r.viewAt('arr', last)),
    remaining_revenue: remaining,
  };
}
