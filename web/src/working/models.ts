/** Growth templates (MODEL.md section 2) and the ones each interface language offers (working-screens.md section 2). */
export const GROWTH_MODELS: Record<string, number[]> = {
  t2d3: [3, 3, 2, 2, 2],
  sansan: [1.6, 1.5, 1.5, 1.4, 1.3],
  freee: [2.6, 2.1, 2.0, 1.9, 1.5],
  salesforce: [4.4, 2.3, 1.9, 1.8, 1.8],
  wix: [2.5, 1.8, 1.8, 1.4, 1.4],
  okta: [2.7, 2, 2, 1.7, 1.7],
  workday: [2.7, 2.0, 2.0, 1.7, 1.7],
};

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
