/**
 * The wizard's plan step as the page holds it, and what it becomes: the summary's engine inputs and the multipart form
 * of POST /business-plan/create.
 */
import type { ProfileEdit } from '@topline/contract';
import type { Currency } from '@topline/engine/src/schema';
import { growthRates, WIZARD_DEFAULTS } from '../lib/wizardRules';
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
