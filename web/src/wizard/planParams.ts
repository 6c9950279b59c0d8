/**
 * The wizard's plan step as the page holds it, and what it becomes: the summary's engine inputs and the multipart form
 * of POST /business-plan/create.
 */
import { ARPA_RANGE, ARR_RANGE, type ProfileEdit, type Range } from '@topline/contract';
import type { Currency } from '@topline/engine/schema';
import { convertMoney, EMPLOYEES, growthRates, POSITIONS, STAGES, WIZARD_DEFAULTS } from '../lib/wizardRules';
import type { EngineInput } from './summary';

export interface PlanParams {
  template: 'saas' | 'selfserve';
  currency: Currency;
  arr: number;
  period: number;
  arpa: number;
  modelName: string;
  modelRate: number[];
  startYear: number;
  startMonth: number;
  planName: string;
}

export const DEFAULT_PARAMS: PlanParams = {
  template: WIZARD_DEFAULTS.template,
  currency: WIZARD_DEFAULTS.currency,
  arr: WIZARD_DEFAULTS.arr,
  period: WIZARD_DEFAULTS.period,
  arpa: WIZARD_DEFAULTS.arpa,
  modelName: 't2d3',
  modelRate: growthRates('t2d3'),
  startYear: WIZARD_DEFAULTS.startYear,
  startMonth: WIZARD_DEFAULTS.startMonth,
  planName: '',
};

/**
 * The plan step's starting values in an interface language on a day: the spec's defaults (ARR 5,000,000, ARPA 15,000
 * in yen), in dollars (divided by 100) in the English interface; the start year is the current year.
 */
export function defaultParams(language: 'ja' | 'en', today: Date): PlanParams {
  const currency: Currency = language === 'en' ? 'USD' : 'JPY';
  return {
    ...DEFAULT_PARAMS,
    currency,
    arr: convertMoney(WIZARD_DEFAULTS.arr, 'JPY', currency),
    arpa: convertMoney(WIZARD_DEFAULTS.arpa, 'JPY', currency),
    startYear: today.getFullYear(),
  };
}

/** Older stored keys of a profile choice and the choice they mean now. */
const LEGACY_CHOICES: Record<string, string> = { 'angel-seed': 'angel/seed', '31-50': '30-50' };

/**
 * The profile the wizard starts from: the stored one, where each choice that is empty or not one of the choices
 * becomes the choice the form shows first, so what is shown is what is sent.
 */
export function startingProfile(stored: Partial<ProfileEdit> | undefined, fallback: ProfileEdit): ProfileEdit {
  const choice = (value: string | undefined, options: readonly { value: string }[], first: string) => {
    const known = LEGACY_CHOICES[value ?? ''] ?? value;
    return options.some((option) => option.value === known) ? (known as string) : first;
  };
  return {
    name: stored?.name ?? fallback.name,
    company_name: stored?.company_name ?? fallback.company_name,
    position: choice(stored?.position, POSITIONS, fallback.position),
    employees: choice(stored?.employees, EMPLOYEES, fallback.employees),
    stage: choice(stored?.stage, STAGES, fallback.stage),
  };
}

/** A typed amount's problem: not a whole number, or off the slider's range or steps. */
export type AmountProblem = 'number' | 'range';

/**
 * Reads an amount typed beside a slider: digits, with thousands separators and full-width digits (as a Japanese
 * keyboard types them) read as the number they mean; it must lie on the slider (`range`: min, max and step).
 */
export function readAmount(raw: string, range: Range): { value: number } | { problem: AmountProblem } {
  const text = raw
    .normalize('NFKC')
    .trim()
    .replace(/^[¥$]/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  if (!/^\d+$/.test(text)) return { problem: 'number' };
  const value = Number(text);
  if (value < range.min || value > range.max || (value - range.min) % range.step !== 0) return { problem: 'range' };
  return { value };
}

/** The slider ranges of the two amounts in a currency. */
export const amountRange = (key: 'arr' | 'arpa', currency: Currency): Range =>
  key === 'arr' ? ARR_RANGE[currency] : ARPA_RANGE[currency];

/** The inputs the summary's numbers depend on. */
export const engineInputOf = (params: PlanParams): EngineInput => ({
  template: params.template,
  currency: params.currency,
  arr: params.arr,
  period: params.period,
  arpa: params.arpa,
  start_year: params.startYear,
  start_month: params.startMonth,
  model_name: params.modelName,
  model_rate: params.modelRate,
});

/** The multipart form of POST /business-plan/create: the profile and the plan, numbers as text, rates as JSON. */
export function planForm(profile: ProfileEdit, params: PlanParams): FormData {
  const fields: Record<string, string> = {
    ...profile,
    ...Object.fromEntries(Object.entries(engineInputOf(params)).map(([key, value]) => [key, String(value)])),
    business_plan_name: params.planName.trim(),
    model_rate: JSON.stringify(params.modelRate),
  };
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}

export function formatMoney(currency: Currency, value: number): string {
  return currency === 'JPY' ? `¥${value.toLocaleString('ja-JP')}` : `$${value.toLocaleString('en-US')}`;
}
