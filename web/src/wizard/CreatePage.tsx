import { ARPA_RANGE, ARR_RANGE, PERIOD_RANGE, type ProfileEdit, type Range } from '@topline/contract';
import type { Currency } from '@topline/engine/schema';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { api } from '../api/client';
import { currentLanguage } from '../i18n';
import { FieldMessage } from '../lib/FieldMessage';
import { checkName } from '../lib/validation';
import { clampToRange, convertMoney, growthRates, growthTemplates, startYearOptions } from '../lib/wizardRules';
import { useNotice } from '../notices';
import { LanguageSwitch, Logo } from '../pages/SiteChrome';
import { useSession } from '../session';
import { EMPTY_PROFILE, ProfileFields, profileErrors } from '../settings/ProfileFields';
import { Loading } from '../shell/Loading';
import {
  type AmountProblem,
  amountRange,
  defaultParams,
  engineInputOf,
  formatMoney,
  type PlanParams,
  planForm,
  readAmount,
  startingProfile,
} from './planParams';
import { SummaryPanel } from './SummaryPanel';

/** The two-step plan creation wizard at /create. */
export default function CreatePage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotice();
  const { user, plans, refresh } = useSession();
  const hasProfile = Boolean(user?.name && user.company?.company_name);
  const [step, setStep] = useState<1 | 2>(hasProfile ? 2 : 1);
  const [profile, setProfile] = useState<ProfileEdit>(() =>
    startingProfile({ name: user?.name ?? '', ...user?.company }, EMPTY_PROFILE),
  );
  const language = currentLanguage(i18n.language);
  const [params, setParams] = useState<PlanParams>(() => defaultParams(language, new Date()));
  // What is typed beside the ARR and ARPA sliders while it is not (yet) a value the slider takes.
  const [typed, setTyped] = useState<Partial<Record<'arr' | 'arpa', { text: string; problem: AmountProblem }>>>({});
  const [busy, setBusy] = useState(false);
  // Whether the user may create another plan, read afresh on entry (a plan may just have been deleted).
  const [allowedAtEntry, setAllowedAtEntry] = useState<boolean | null>(null);
  const templates = useMemo(() => growthTemplates(language), [language]);

  // Start fetching the engine while the profile step is filled in, so the summary is ready on step 2.
  useEffect(() => {
    void import('./engineSummary');
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, on entry
  useEffect(() => {
    let live = true;
    void refresh().then((me) => {
      if (live) setAllowedAtEntry(me?.user.plan.can_create_plan ?? false);
    });
    return () => {
      live = false;
    };
  }, []);

  if (allowedAtEntry === null) return <Loading />;
  if (!allowedAtEntry) {
    const first = plans[0];
    return <Navigate to={first ? `/business-plans/${first.business_plan_id}/home` : '/'} replace />;
  }

  const profileProblems = profileErrors(profile);
  const nextDisabled = Boolean(profileProblems.name || profileProblems.company_name);
  const planNameError = checkName(params.planName, true);

  const set = <K extends keyof PlanParams>(key: K, value: PlanParams[K]) => setParams((p) => ({ ...p, [key]: value }));

  const changeCurrency = (currency: Currency) => {
    setTyped({});
    setParams((p) => ({
      ...p,
      currency,
      arr: clampToRange(convertMoney(p.arr, p.currency, currency), ARR_RANGE[currency]),
      arpa: clampToRange(convertMoney(p.arpa, p.currency, currency), ARPA_RANGE[currency]),
    }));
  };

  const changeModel = (modelName: string) => {
    setParams((p) => ({ ...p, modelName, modelRate: modelName === 'custom' ? p.modelRate : growthRates(modelName) }));
  };

  // The plan list lives in the settings modal of a plan; without a plan, back where the user came from (or Home).
  const backToList = () => {
    const first = plans[0];
    if (window.history.length > 1) navigate(-1);
    else navigate(first ? `/business-plans/${first.business_plan_id}/pl?settings=plans` : '/');
  };

  const typeAmount = (key: 'arr' | 'arpa', text: string) => {
    const read = readAmount(text, amountRange(key, params.currency));
    if ('value' in read) {
      setTyped((current) => ({ ...current, [key]: undefined }));
      set(key, read.value);
    } else {
      setTyped((current) => ({ ...current, [key]: { text, problem: read.problem } }));
    }
  };
  const amountBlocked = Boolean(typed.arr || typed.arpa);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (planNameError || nextDisabled || amountBlocked) return;
    setBusy(true);
    try {
      const answer = await api.post('/business-plan/create', planForm(profile, params));
      notify({ kind: 'success', title: t('common.success'), message: t('wizard.created') });
      await refresh();
      navigate(`/business-plans/${answer.data.business_plan_id}/pl`, { replace: true });
      window.scrollTo(0, 0);
    } catch {
      // Notice already shown.
    } finally {
      setBusy(false);
    }
  };

  const arrRange = ARR_RANGE[params.currency];
  const arpaRange = ARPA_RANGE[params.currency];
  const amountField = (key: 'arr' | 'arpa', range: Range, label: string) => {
    const problem = typed[key];
    const id = `wizard-${key}-typed`;
    return (
      <div className="amount-typed">
        <input
          type="text"
          inputMode="numeric"
          name={`${key}_typed`}
          aria-label={label}
          aria-invalid={Boolean(problem)}
          aria-describedby={problem ? `${id}-error` : undefined}
          value={problem ? problem.text : String(params[key])}
          onChange={(event) => typeAmount(key, event.target.value)}
        />
        {problem && (
          <p className="field-error" id={`${id}-error`} role="alert" data-test={`${key}-error`}>
            {t('wizard.amountRule', {
              field: label,
              min: formatMoney(params.currency, range.min),
              max: formatMoney(params.currency, range.max),
              step: formatMoney(params.currency, range.step),
            })}
          </p>
        )}
      </div>
    );
  };

  return (
    <div className="wizard-page">
      <header className="auth-header">
        <Logo />
        <LanguageSwitch />
      </header>
      <main className="wizard" data-step={step}>
        <ol className="wizard-steps">
          <li className={step === 1 ? 'active' : 'done'}>1. {t('wizard.step1')}</li>
          <li className={step === 2 ? 'active' : ''}>2. {t('wizard.step2')}</li>
        </ol>
        {step === 1 ? (
          <section className="wizard-card">
            <h1>{t('wizard.step1')}</h1>
            <ProfileFields profile={profile} onChange={setProfile} />
            <div className="form-actions">
              <button type="button" className="button button-ghost" onClick={backToList}>
                {t('wizard.backToList')}
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={nextDisabled}
                onClick={() => setStep(2)}
              >
                {t('common.next')}
              </button>
            </div>
          </section>
        ) : (
          <form className="wizard-card wizard-plan" onSubmit={create} noValidate>
            <h1>{t('wizard.step2')}</h1>
            <div className="wizard-grid">
              <div className="wizard-inputs">
                <fieldset className="field">
                  <legend>{t('wizard.template')}</legend>
                  <div className="segmented">
                    {(['saas', 'selfserve'] as const).map((template) => (
                      <label key={template} className={params.template === template ? 'active' : ''}>
                        <input
                          type="radio"
                          name="template"
                          value={template}
                          checked={params.template === template}
                          onChange={() => set('template', template)}
                        />
                        {template === 'saas' ? t('wizard.templateSaas') : t('wizard.templateSelfServe')}
                      </label>
                    ))}
                  </div>
                </fieldset>
                <label className="field">
                  <span>{t('wizard.currency')}</span>
                  <select
                    name="currency"
                    value={params.currency}
                    onChange={(event) => changeCurrency(event.target.value as Currency)}
                  >
                    <option value="JPY">JPY</option>
                    <option value="USD">USD</option>
                  </select>
                </label>
                <label className="field slider">
                  <span>
                    {t('wizard.arr')} <output data-test="arr-value">{formatMoney(params.currency, params.arr)}</output>
                  </span>
                  <input
                    type="range"
                    name="arr"
                    min={arrRange.min}
                    max={arrRange.max}
                    step={arrRange.step}
                    value={params.arr}
                    onChange={(event) => {
                      setTyped((current) => ({ ...current, arr: undefined }));
                      set('arr', Number(event.target.value));
                    }}
                  />
                </label>
                {amountField('arr', arrRange, t('wizard.arrTyped'))}
                <label className="field slider">
                  <span>
                    {t('wizard.periodLabel')} <output>{t('wizard.period', { n: params.period })}</output>
                  </span>
                  <input
                    type="range"
                    name="period"
                    min={PERIOD_RANGE.min}
                    max={PERIOD_RANGE.max}
                    step={PERIOD_RANGE.step}
                    value={params.period}
                    onChange={(event) => set('period', Number(event.target.value))}
                  />
                </label>
                <label className="field slider">
                  <span>
                    {t('wizard.arpa')}{' '}
                    <output data-test="arpa-value">{formatMoney(params.currency, params.arpa)}</output>
                  </span>
                  <input
                    type="range"
                    name="arpa"
                    min={arpaRange.min}
                    max={arpaRange.max}
                    step={arpaRange.step}
                    value={params.arpa}
                    onChange={(event) => {
                      setTyped((current) => ({ ...current, arpa: undefined }));
                      set('arpa', Number(event.target.value));
                    }}
                  />
                </label>
                {amountField('arpa', arpaRange, t('wizard.arpaTyped'))}
                <label className="field">
                  <span>{t('wizard.growth')}</span>
                  <select
                    name="model_name"
                    value={params.modelName}
                    onChange={(event) => changeModel(event.target.value)}
                  >
                    {templates.map((template) => (
                      <option key={template.key} value={template.key}>
                        {template.label} ({template.rates.join('-')})
                      </option>
                    ))}
                    <option value="custom">{t('wizard.custom')}</option>
                  </select>
                </label>
                {params.modelName === 'custom' && (
                  <div className="custom-rates">
                    {params.modelRate.map((rate, index) => (
                      <input
                        // biome-ignore lint/suspicious/noArrayIndexKey: the five yearly multiples are positional
                        key={index}
                        type="number"
                        min={0.1}
                        max={100}
                        step={0.1}
                        aria-label={`${t('wizard.growth')} ${index + 2}`}
                        value={rate}
                        onChange={(event) => {
                          const next = [...params.modelRate];
                          next[index] = Math.max(0.1, Number(event.target.value) || 0.1);
                          set('modelRate', next);
                        }}
                      />
                    ))}
                  </div>
                )}
                <fieldset className="field">
                  <legend>{t('wizard.startDate')}</legend>
                  <div className="inline-fields">
                    <select
                      name="start_year"
                      aria-label={t('wizard.startYear')}
                      value={params.startYear}
                      onChange={(event) => set('startYear', Number(event.target.value))}
                    >
                      {startYearOptions(new Date()).map((year) => (
                        <option key={year} value={year}>
                          {year}
                        </option>
                      ))}
                    </select>
                    <select
                      name="start_month"
                      aria-label={t('wizard.startMonth')}
                      value={params.startMonth}
                      onChange={(event) => set('startMonth', Number(event.target.value))}
                    >
                      {Array.from({ length: 12 }, (_, i) => i + 1).map((month) => (
                        <option key={month} value={month}>
                          {month}
                        </option>
                      ))}
                    </select>
                  </div>
                </fieldset>
                <label className="field">
                  <span>{t('wizard.planName')}</span>
                  <input
                    name="business_plan_name"
                    value={params.planName}
                    onChange={(event) => set('planName', event.target.value)}
                  />
                </label>
                {params.planName !== '' && <FieldMessage error={planNameError} field={t('wizard.planName')} />}
              </div>
              <SummaryPanel input={engineInputOf(params)} />
            </div>
            <div className="form-actions">
              <button type="button" className="button button-ghost" onClick={() => setStep(1)}>
                {t('wizard.backToCompany')}
              </button>
              <button
                type="submit"
                className="button button-primary"
                disabled={busy || Boolean(planNameError) || nextDisabled || amountBlocked}
              >
                {t('wizard.create')}
              </button>
            </div>
          </form>
        )}
      </main>
    </div>
  );
}
