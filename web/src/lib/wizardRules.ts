import { GROWTH_TEMPLATES } from '@topline/engine/src/schema';
/** Slider ranges and defaults of the creation wizard (spec sections 5 and 9). */
export type Currency = 'JPY' | 'USD';

export interface SliderRange {
  min: number;
  max: number;
  step: number;
}

export const ARR_RANGE: Record<Currency, SliderRange> = {
  JPY: { min: 5_000_000, max: 100_000_000, step: 500_000 },
  USD: { min: 50_000, max: 1_000_000, step: 5_000 },
};

export const ARPA_RANGE: Record<Currency, SliderRange> = {
  JPY: { min: 500, max: 500_000, step: 500 },
  USD: { min: 5, max: 5_000, step: 5 },
};

export const PERIOD_RANGE: SliderRange = { min: 1, max: 12, step: 1 };

export const WIZARD_DEFAULTS = {
  arr: 5_000_000,
  period: 12,
  arpa: 15_000,
  currency: 'JPY' as Currency,
  template: 'saas' as 'saas' | 'selfserve',
  startYear: 2021,
  startMonth: 1,
};

export function clampToRange(value: number, range: SliderRange): number {
  const stepped = Math.round((value - range.min) / range.step) * range.step + range.min;
  return Math.min(range.max, Math.max(range.min, stepped));
}

/** Changing currency divides (JPY to USD) or multiplies (USD to JPY) the money values by 100. */
export function convertMoney(value: number, from: Currency, to: Currency): number {
  if (from === to) return value;
  return from === 'JPY' ? value / 100 : value * 100;
}

/** Start year options: 2018 up to six years ahead of the current year. */
export function startYearOptions(today: Date = new Date()): number[] {
  const years: number[] = [];
  for (let year = 2018; year <= today.getFullYear() + 6; year += 1) years.push(year);
  return years;
}

export interface GrowthTemplate {
  key: string;
  label: string;
  rates: number[];
}

// 5-year multiples come from the engine's schema (MODEL.md section 2); only the display names live here. The
// schema module is imported alone so the wizard does not load the workbook engine before it needs it.
const LABELS: Record<keyof typeof GROWTH_TEMPLATES, string> = {
  t2d3: 'T2D3',
  sansan: 'Sansan',
  freee: 'freee',
  salesforce: 'Salesforce',
  wix: 'Wix',
  okta: 'Okta',
  workday: 'Workday',
};
const GROWTH: Record<string, GrowthTemplate> = Object.fromEntries(
  Object.entries(GROWTH_TEMPLATES).map(([key, rates]) => [
    key,
    { key, label: LABELS[key as keyof typeof LABELS], rates: [...rates] },
  ]),
);

export function growthTemplates(language: 'ja' | 'en'): GrowthTemplate[] {
  const keys =
    language === 'ja'
      ? ['t2d3', 'sansan', 'freee', 'salesforce', 'workday']
      : ['t2d3', 'salesforce', 'wix', 'okta', 'workday'];
  return keys.flatMap((key) => (GROWTH[key] ? [GROWTH[key]] : []));
}

export function growthRates(key: string): number[] {
  return GROWTH[key]?.rates ?? [...GROWTH_TEMPLATES.t2d3];
}

/** Stored keys of the profile choices (some are Japanese terms, spec section 3); labels come from i18n. */
export const POSITIONS = [
  { value: 'CEO', label: 'ceo' },
  { value: 'CFO', label: 'cfo' },
  { value: '事業責任者', label: 'manager' },
  { value: '顧問', label: 'adviser' },
  { value: 'その他', label: 'other' },
] as const;

export const EMPLOYEES = [
  { value: '1-10', label: 'e1' },
  { value: '11-30', label: 'e2' },
  { value: '30-50', label: 'e3' },
  { value: '50+', label: 'e4' },
] as const;

export const STAGES = [
  { value: 'pre-founding', label: 'prefounding' },
  { value: 'angel-seed', label: 'seed' },
  { value: 'series-a-b', label: 'seriesAB' },
  { value: 'series-c+', label: 'seriesC' },
  { value: 'listed', label: 'listed' },
] as const;
