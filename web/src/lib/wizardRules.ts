/**
 * The creation wizard's defaults, currency switch and choices (product-and-account.md sections 3, 5 and 9). The
 * sliders' ranges and the start years are the contract's (`ARR_RANGE`, `ARPA_RANGE`, `PERIOD_RANGE`, ...).
 */
import { FIRST_START_YEAR, lastStartYear, type Range } from '@topline/contract';
import { type Currency, GROWTH_TEMPLATES } from '@topline/engine/schema';
import { MODELS_BY_LANGUAGE } from '../plan/growthModels';

export const WIZARD_DEFAULTS = {
  arr: 5_000_000,
  period: 12,
  arpa: 15_000,
  currency: 'JPY' as Currency,
  template: 'saas' as 'saas' | 'selfserve',
  startYear: 2021,
  startMonth: 1,
};

export function clampToRange(value: number, range: Range): number {
  const stepped = Math.round((value - range.min) / range.step) * range.step + range.min;
  return Math.min(range.max, Math.max(range.min, stepped));
}

/** Changing currency divides (JPY to USD) or multiplies (USD to JPY) the money values by 100. */
export function convertMoney(value: number, from: Currency, to: Currency): number {
  if (from === to) return value;
  return from === 'JPY' ? value / 100 : value * 100;
}

/** Start year options: the contract's first start year up to six years ahead of the current (UTC) year. */
export function startYearOptions(today: Date): number[] {
  const years: number[] = [];
  for (let year = FIRST_START_YEAR; year <= lastStartYear(today); year += 1) years.push(year);
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

/** The templates the wizard offers in a language (its custom model is a choice of its own). */
export function growthTemplates(language: 'ja' | 'en'): GrowthTemplate[] {
  return MODELS_BY_LANGUAGE[language].flatMap((key) => GROWTH[key] ?? []);
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
  { value: 'angel/seed', label: 'seed' },
  { value: 'series-a-b', label: 'seriesAB' },
  { value: 'series-c+', label: 'seriesC' },
  { value: 'listed', label: 'listed' },
] as const;
