/**
 * Where the plan-level inputs of a plan file (the engine's `PLAN_INPUT_KEYS`) are stored: each in the
 * `business_plans` column of its own name, but for the plan's name, stored as `name`. The one place where the plan
 * file's names and the table's meet; reading a plan into a plan file and importing one both go through it.
 */
import { PLAN_INPUT_KEYS, type PlanInputKey, type PlanInputs, planInputsSchema } from '@topline/engine/schema';
import { z } from 'zod';

export type PlanInputColumn = Exclude<PlanInputKey, 'business_plan_name'> | 'name';

export const planInputColumn = (key: PlanInputKey): PlanInputColumn => (key === 'business_plan_name' ? 'name' : key);

const numeric = (schema: z.ZodType): boolean =>
  schema instanceof z.ZodNumber || (schema instanceof z.ZodDefault && numeric(schema.unwrap() as z.ZodType));

/** The inputs the plan file holds as numbers; PostgreSQL answers its numeric columns (arr, arpa) as text. */
const NUMBER_KEYS = new Set(PLAN_INPUT_KEYS.filter((key) => numeric(planInputsSchema.shape[key])));

/**
 * A plan row's plan-level inputs as a plan file holds them, values as stored (numbers as numbers). Typed as the plan
 * file's, though a value stored outside its bounds is passed on too, for the engine to refuse.
 */
export function planInputsOf(row: Readonly<Record<PlanInputColumn, unknown>>): PlanInputs {
  const inputs: Partial<Record<PlanInputKey, unknown>> = {};
  for (const key of PLAN_INPUT_KEYS) {
    const value = row[planInputColumn(key)];
    inputs[key] = NUMBER_KEYS.has(key) && value !== null ? Number(value) : value;
  }
  return inputs as PlanInputs;
}

/** The `business_plans` columns of a plan file's plan-level inputs, for an insert. */
export function planInputRow(inputs: PlanInputs): Record<PlanInputColumn, PlanInputs[PlanInputKey]> {
  const row: Partial<Record<PlanInputColumn, PlanInputs[PlanInputKey]>> = {};
  for (const key of PLAN_INPUT_KEYS) row[planInputColumn(key)] = inputs[key];
  return row as Record<PlanInputColumn, PlanInputs[PlanInputKey]>;
}

const DAILY_KEYS = new Set(['meeting', 'order', 'registration', 'billing']);

/** The plan's daily entries (rows of `daily_entries`) as each case of the plan file holds them. */
export function dailyFileOf(rows: readonly Record<string, unknown>[]): Record<string, Record<string, number>> {
  const dailyFile: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    const key = row.key as string;
    if (!DAILY_KEYS.has(key)) continue;
    const date = row.date as string;
    dailyFile[date] ??= {};
    (dailyFile[date] as Record<string, number>)[key] = Number(row.value);
  }
  return dailyFile;
}
