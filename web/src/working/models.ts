import { GROWTH_TEMPLATES } from '@topline/engine/src/schema';

/** Growth templates of the engine (MODEL.md section 2) and the ones each language offers (working-screens.md 2). */
export const GROWTH_MODELS: Record<string, readonly number[]> = GROWTH_TEMPLATES;

export const MODELS_BY_LANGUAGE = {
  ja: ['t2d3', 'sansan', 'freee', 'salesforce', 'workday', 'custom'],
  en: ['t2d3', 'salesforce', 'wix', 'okta', 'workday', 'custom'],
} as const;

export const MAX_CASES = 3;

/** Legacy Japanese default case names shown as the translated "Base case". */
const LEGACY_BASE_NAMES = new Set(['ベースケース', '基本ケース', 'ベース']);
export const isLegacyBaseName = (name: string): boolean => LEGACY_BASE_NAMES.has(name);

export interface ColorSetWire {
  arr: string;
  pl: string;
  gross_profit: string;
}
