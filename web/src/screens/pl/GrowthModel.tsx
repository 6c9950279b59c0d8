import type { ModelName } from '@topline/engine/schema';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MULTIPLE_RULE, readTyped, refusalMessage } from '../../format/typed';
import { currentLanguage } from '../../i18n';
import { GROWTH_MODELS, isModelName, MODELS_BY_LANGUAGE } from '../../plan/growthModels';

const LATER_YEARS = [2, 3, 4, 5, 6];

/** The case's growth model; custom makes the five yearly multiples editable (decimal, at most 4 characters). */
export function GrowthModel({
  model,
  editable,
  onSave,
}: {
  model: { model_name: string; model_rate: number[] } | null;
  editable: boolean;
  onSave: (name: ModelName, rates: number[]) => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const name = model?.model_name ?? 't2d3';
  const [rates, setRates] = useState<string[]>(() => (model?.model_rate ?? GROWTH_MODELS.t2d3 ?? []).map(String));
  useEffect(() => setRates((model?.model_rate ?? []).map(String)), [model]);
  const options: string[] = [...MODELS_BY_LANGUAGE[currentLanguage(i18n.language)]];
  if (!options.includes(name)) options.unshift(name);
  const custom = name === 'custom';
  // Each multiple as typed, read by the one typed-number rule: refused with a message, never stripped.
  const typed = rates.map((r) => readTyped(r, MULTIPLE_RULE));
  const values = typed.map((r) => (r.ok ? r.value : null));
  const valid = rates.length === 5 && values.every((v) => v !== null);

  return (
    <div className="ws-growth" data-test="growth-model">
      <label className="field ws-inline-field">
        <span>{t('ws.pl.growthModel')}</span>
        <select
          value={name}
          disabled={!editable}
          onChange={(e) => {
            const next = e.target.value;
            if (!isModelName(next)) return;
            const nextRates = [...(GROWTH_MODELS[next] ?? model?.model_rate ?? GROWTH_MODELS.t2d3 ?? [])];
            void onSave(next, nextRates);
          }}
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {t(`ws.models.${option}`)}
            </option>
          ))}
        </select>
      </label>
      <div className="ws-growth-rates">
        {LATER_YEARS.map((to, index) => (
          <label key={to} className="ws-rate">
            <span>{t('ws.pl.yearToYear', { from: index + 1, to: index + 2 })}</span>
            <input
              value={rates[index] ?? ''}
              inputMode="decimal"
              disabled={!editable || !custom}
              aria-invalid={custom && typed[index]?.ok === false}
              aria-label={t('ws.pl.yearToYear', { from: index + 1, to: index + 2 })}
              onChange={(e) => {
                const next = rates.slice();
                next[index] = e.target.value;
                setRates(next);
              }}
            />
            {custom && typed[index]?.ok === false && (
              <span className="field-error" role="alert" data-test="growth-rate-error">
                {refusalMessage(typed[index] as Extract<(typeof typed)[number], { ok: false }>, MULTIPLE_RULE, t)}
              </span>
            )}
          </label>
        ))}
        {custom && editable && (
          <button
            type="button"
            className="button button-small button-primary"
            disabled={!valid}
            onClick={() =>
              void onSave(
                'custom',
                values.filter((v): v is number => v !== null),
              )
            }
          >
            {t('ws.common.save')}
          </button>
        )}
      </div>
    </div>
  );
}
