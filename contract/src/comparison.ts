/**
 * Cases side by side, and what a budget revision will do (issue 40). Both are reads of the engine's workbook: the
 * comparison is every case's plan-year figures with each case's difference from the base case (`caseComparison`), the
 * revise preview each pattern applied to a copy of the workbook as the save applies it (`revisionPreview`).
 * Comparing is open to every tier (the Free tier's "case comparison") with the P&L area's read; its XLSX holds every
 * case's whole workbook, so, like the plan's own XLSX, it needs the owner or a member who may see every area. The
 * preview is the monthly P&L area's read, as the revision is its write.
 */
import { caseComparisonSchema, comparedCaseSchema, revisionPreviewSchema } from '@topline/engine/shapes';
import { z } from 'zod';
import { jsonRoute } from './jsonRoute';
import { caseIdText, planIdText, planQuery, yearText } from './plans';
import type { Route } from './route';
import { snapshotIdText } from './snapshots';
import { body } from './wire';

/**
 * GET /pl/compare, optionally against a snapshot of the plan: the snapshot needs what reading it needs (Basic or
 * Team, the monthly P&L area's read); another plan's is a 404.
 */
export const caseCompareQuery = planQuery.extend({ snapshot_id: snapshotIdText.optional() });

/**
 * GET /pl/compare: every case, the base case first, with its id; with `snapshot_id`, the snapshot's case that is the
 * budget of the base case (the one of its name, else the snapshot's first), its difference from the live base case.
 */
export const caseCompareAnswer = z.object({
  data: caseComparisonSchema.extend({
    cases: z.array(comparedCaseSchema.extend({ case_id: z.number() })),
    snapshot: comparedCaseSchema.extend({ snapshot_id: z.number() }).optional(),
  }),
});

/**
 * The comparison's CSV: headers and labels in `lang`, else the request's `Accept-Language`; with `snapshot_id`, the
 * snapshot's rows last, as the comparison answers them.
 */
export const compareCsvQuery = body({
  business_plan_id: planIdText,
  snapshot_id: snapshotIdText.optional(),
  lang: z.enum(['ja', 'en'], 'lang must be ja or en').optional(),
});

export const revisePreviewQuery = body({ business_plan_id: planIdText, case_id: caseIdText, year: yearText });
/** GET /pl/monthly/adjust/preview: 400 on `year` when the year cannot be revised, as the save answers. */
export const revisePreviewAnswer = z.object({ data: revisionPreviewSchema.extend({ case_id: z.number() }) });

const PL = { kind: 'scope', scope: 'pl' } as const;
const MONTHLY_PL = { kind: 'scope', scope: 'monthly_pl' } as const;
const EVERY_AREA = { kind: 'every_area' } as const;

const file = <P extends string, Q extends z.ZodType, N extends Route['needs'], F extends 'csv' | 'xlsx'>(
  path: P,
  request: Q,
  needs: N,
  kind: F,
) =>
  ({ method: 'GET', path, request, answer: z.string(), needs, body: undefined, file: kind }) as Route<
    Q,
    z.ZodString
  > & {
    method: 'GET';
    path: P;
    needs: N;
    body: undefined;
    file: F;
  };

/** The comparison and revise preview calls, spread into the route table. */
export const comparisonRoutes = {
  caseCompare: jsonRoute('GET', '/pl/compare', caseCompareQuery, caseCompareAnswer, PL),
  compareCsv: file('/pl/compare/csv', compareCsvQuery, PL, 'csv'),
  /**
   * The plan's workbook with a `Comparison` sheet whose figures and differences are formulas over the cases' sheets;
   * with `snapshot_id`, the snapshot's figures as they stand and its differences as formulas.
   */
  compareXlsx: file('/pl/compare/xlsx', caseCompareQuery, EVERY_AREA, 'xlsx'),
  revisePreview: jsonRoute('GET', '/pl/monthly/adjust/preview', revisePreviewQuery, revisePreviewAnswer, MONTHLY_PL),
};
