/**
 * POST /business-plan/import: a plan file (MODEL.md section 9), which the engine's schema checks as it is imported.
 * The texts of the file a person reads (the plan's name, each case's, each cost item's, each memo) meet the rule of
 * the forms that set them (`unreadable` of fields.ts) and are stored NFC-normalised like them, so that an import is no
 * way around the forms; the rest of the file is left as sent.
 */
import { z } from 'zod';
import { unreadable } from './fields';
import { body } from './wire';

type Lines = 'single' | 'multi';

interface PlanText {
  /** Where the text is, from the plan file's root. */
  path: (string | number)[];
  holder: Record<string, unknown>;
  key: string;
  lines: Lines;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const recordsOf = (value: unknown): [number, Record<string, unknown>][] =>
  Array.isArray(value)
    ? value.flatMap((item, i): [number, Record<string, unknown>][] => (isRecord(item) ? [[i, item]] : []))
    : [];

/** The texts of a plan file that a person reads, where they are strings (the engine refuses anything else). */
function planTexts(plan: unknown): PlanText[] {
  if (!isRecord(plan)) return [];
  const texts: PlanText[] = [];
  const add = (path: (string | number)[], holder: Record<string, unknown>, key: string, lines: Lines = 'single') => {
    if (typeof holder[key] === 'string') texts.push({ path: [...path, key], holder, key, lines });
  };
  add([], plan, 'business_plan_name');
  for (const [c, planCase] of recordsOf(plan.cases)) {
    add(['cases', c], planCase, 'case_name');
    for (const [i, item] of recordsOf(planCase.cost_items)) add(['cases', c, 'cost_items', i], item, 'item_name');
    for (const [i, memo] of recordsOf(planCase.comments)) add(['cases', c, 'comments', i], memo, 'content', 'multi');
  }
  return texts;
}

export const planImportRequest = body({ plan: z.unknown() })
  .superRefine((input, ctx) => {
    for (const text of planTexts(input.plan)) {
      const problem = unreadable(String(text.holder[text.key]), text.lines);
      // Named from the plan file's root, as the engine names the file's other refusals (`cases.0.comments.1`).
      if (problem) ctx.addIssue({ code: 'custom', path: text.path, message: `${text.path.join('.')} ${problem}` });
    }
  })
  .transform((input) => {
    const plan = structuredClone(input.plan);
    for (const text of planTexts(plan)) text.holder[text.key] = String(text.holder[text.key]).normalize('NFC');
    return { plan };
  });
