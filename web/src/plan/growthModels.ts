import { GROWTH_TEMPLATES, MODEL_NAMES, type ModelName } from '@topline/engine/schema';

/** Growth templates of the engine (MODEL.md section 2) and the ones each language offers (working-screens.md 2). */
export const GROWTH_MODELS: Record<string, readonly number[]> = GROWTH_TEMPLATES;

export const MODELS_BY_LANGUAGE = {
  ja: ['t2d3', 'sansan', 'freee', 'salesforce', 'workday', 'custom'],
  en: ['t2d3', 'salesforce', 'wix', 'okta', 'workday', 'custom'],
} as const satisfies Record<'ja' | 'en', readonly ModelName[]>;

export const isModelName = (name: string): name is ModelName => (MODEL_NAMES as readonly string[]).includes(name);
