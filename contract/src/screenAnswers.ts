/**
 * The working screens' number answers. Every number is a cell of the plan's workbook; the shapes are the engine's
 * read models, and this file only puts them in the spec's envelopes (working-screens.md section 7).
 */

import { modelSchema } from '@topline/engine/schema';
import {
  costYearSchema,
  dashboardSchema,
  gridColumnSchema,
  kpiYearSchema,
  monthlyPlYearSchema,
  plYearRowSchema,
  revenueYearSchema,
  snapshotBudgetSchema,
} from '@topline/engine/shapes';
import { z } from 'zod';
import { COST_AREAS } from './policy';

const caseHead = { case_id: z.number(), case_name: z.string(), case_rate: z.number() };
const colorSetAnswer = z.object({ arr: z.string(), pl: z.string(), gross_profit: z.string() });

export const plAnswer = z.object({
  values: z.array(z.object({ ...caseHead, model: modelSchema.nullable(), pl: z.array(plYearRowSchema) })),
  colors: z.array(colorSetAnswer),
});

export const kpiAnswer = z.object({ values: z.array(z.object({ ...caseHead, kpi: z.array(kpiYearSchema) })) });

export const revenueAnswer = z.object({
  values: z.array(z.object({ ...caseHead, revenue: z.array(revenueYearSchema) })),
});

/** Cost per year and case with only the groups the caller's roles show; totals only to those who see every group. */
export const costAnswer = z.object({
  values: z.array(
    z.object({
      ...caseHead,
      cost: z.array(
        z.object({
          year: z.number(),
          total_cost: costYearSchema.shape.total_cost.nullable(),
          groups: costYearSchema.shape.groups.partial(),
          broken: costYearSchema.shape.broken,
        }),
      ),
    }),
  ),
  visible_groups: z.array(z.enum(COST_AREAS)),
  /** The version of each cost item by its id, for the edit that follows (a stale version is refused). */
  versions: z.record(z.string(), z.number()),
});

export const dashboardAnswer = dashboardSchema.extend({ case_id: z.number() });

export const monthlyAnswer = z.object({
  case_id: z.number(),
  monthly_pl: z.array(monthlyPlYearSchema),
  /**
   * With `snapshot_id`: the snapshot whose estimate is the budget of the progress and difference views (the live
   * actual view, ACT months and forecast, against it in every month, quarter and year).
   */
  snapshot: snapshotBudgetSchema.optional(),
});

export const actualsAnswer = z.object({
  case_id: z.number(),
  years: z.array(z.object({ year: z.number(), columns: z.array(gridColumnSchema) })),
});

/** The plan's inputs for the browser's own engine, with the database ids of its cases by workbook index. */
export const planFileAnswer = z.object({ plan: z.unknown(), version: z.number(), case_ids: z.array(z.number()) });
