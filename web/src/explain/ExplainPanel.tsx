import type { ExplainAnswer } from '@topline/contract';
import { YEAR_KEY_AREAS } from '@topline/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../api/client';
import { formatNumber, formatPercent } from '../format/numbers';
import { currentLanguage } from '../i18n';
import { localExplanation } from './localExplain';
import type { ExplainTarget } from './target';
import './explain.css';

type Input = ExplainAnswer['inputs'][number];

const PERCENT = /(_rate|_cvr|_progress)$/;
const DECIMALS = new Set(['ltv_cac', 'burn_multiple', 'assumption.growth_multiple', 'assumption.case_rate']);

/** Views and dashboard figures that are shares whatever the row: progress, difference rate, fiscal year achieved. */
const SHARE_VIEWS = new Set(['progress', 'difference_rate']);
const FISCAL_YEAR = 'dashboard.fiscal_year_achieved.';

/**
 * A figure as the screens show it: rates as percentages, multiples with two decimals, amounts whole; a progress or
 * difference rate and a fiscal year achieved as percentages; a dashboard figure of a row as the row's.
 */
export function formatExplained(key: string, value: number | string | null, view?: string): string {
  if (value === null) return '—';
  if (typeof value === 'string') return value;
  if (SHARE_VIEWS.has(view ?? '') || key.startsWith(FISCAL_YEAR)) return formatPercent(value, 2);
  if (key === 'dashboard.mrr_progress_percent') return `${formatNumber(value, 2)}%`;
  const row = /^dashboard\.[a-z_]+\.([a-z_]+)$/.exec(key)?.[1] ?? key;
  if (PERCENT.test(row) && row !== 'assumption.upselling_month') return formatPercent(value, 2);
  if (DECIMALS.has(row)) return formatNumber(value, 2);
  return formatNumber(value, Number.isInteger(value) ? 0 : 2);
}

/** Where an input the user sets is edited: a screen of the plan (its path) or the plan's settings. */
export function editPlace(input: Input): { path: string; screen: string } | null {
  const { key, source } = input;
  if (key.startsWith('plan.')) return source === 'assumption' ? { path: '?settings=plan', screen: 'settings' } : null;
  if (key.startsWith('daily.')) return { path: 'home', screen: 'home' };
  if (key.startsWith('assumption.')) {
    const k = key.slice('assumption.'.length);
    const area = k in YEAR_KEY_AREAS ? YEAR_KEY_AREAS[k as keyof typeof YEAR_KEY_AREAS] : 'pl';
    if (k === 'mrr_target') return null;
    return area === 'kpi'
      ? { path: 'kpi', screen: 'kpi' }
      : area === 'sales_detail'
        ? { path: 'revenue', screen: 'revenue' }
        : { path: 'pl', screen: 'pl' };
  }
  return source === 'actual' || source === 'cash input' ? { path: 'monthly_pl', screen: 'monthly_pl' } : null;
}

/** The explanation of one figure: its value, its formula in words, and its inputs, each opening its own. */
export function ExplainPanel({
  planId,
  target,
  depth,
  takeFocus = true,
  onOpen,
  onBack,
  onClose,
}: {
  planId: number;
  target: ExplainTarget;
  depth: number;
  /** The panel's heading takes the focus once loaded (not while it follows the grid's selected cell). */
  takeFocus?: boolean;
  onOpen: (target: ExplainTarget) => void;
  onBack: () => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const [answer, setAnswer] = useState<ExplainAnswer | null>(null);
  /** The answer is the browser's, with values typed and not saved yet. */
  const [unsaved, setUnsaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const returnTo = useRef<Element | null>(null);
  const focusOnLoad = useRef(takeFocus);
  focusOnLoad.current = takeFocus;

  const panel = useRef<HTMLElement>(null);

  // Focus comes into the panel and goes back to the figure it was opened from, unless it is elsewhere by then (the
  // grid's cells, which the panel followed).
  useEffect(() => {
    returnTo.current = document.activeElement;
    const own = panel.current;
    return () => {
      const active = document.activeElement;
      const inPanel = !active || active === document.body || own?.contains(active);
      if (inPanel && returnTo.current instanceof HTMLElement) returnTo.current.focus();
    };
  }, []);

  useEffect(() => {
    let live = true;
    setError(null);
    const here = localExplanation(target, lang);
    setUnsaved(here !== null);
    setAnswer(here);
    if (here) {
      if (focusOnLoad.current) heading.current?.focus();
      return;
    }
    const query = {
      business_plan_id: planId,
      year: target.year,
      period: target.period,
      key: target.key,
      view: target.view ?? 'estimate',
      lang,
      ...(target.caseId !== undefined ? { case_id: target.caseId } : {}),
      ...(target.snapshotId !== undefined ? { snapshot_id: target.snapshotId } : {}),
    };
    api
      .get('/explain', { query, quiet: true })
      .then((response) => {
        if (!live) return;
        setAnswer(response.body);
        if (focusOnLoad.current) heading.current?.focus();
      })
      .catch((e: unknown) => {
        if (!live) return;
        const status = (e as { status?: number }).status;
        setError(status === 403 ? t('explain.noAccess') : t('explain.failed'));
      });
    return () => {
      live = false;
    };
  }, [planId, target, lang, t]);

  const sourceName = (input: Input) => t(`explain.sources.${input.source === 'cash input' ? 'cash' : input.source}`);
  const openInput = (input: Input) => {
    if (input.year === null || input.period === null) return;
    onOpen({
      caseId: target.caseId,
      year: input.year,
      period: input.period,
      key: input.key,
      view: input.view ?? target.view ?? 'estimate',
    });
  };

  return (
    <aside
      ref={panel}
      className="explain-panel"
      role="dialog"
      aria-modal="false"
      aria-labelledby="explain-title"
      data-test="explain-panel"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <div className="explain-head">
        {depth > 1 && (
          <button type="button" className="explain-back" onClick={onBack} data-test="explain-back">
            {t('explain.back')}
          </button>
        )}
        <h2 id="explain-title" tabIndex={-1} ref={heading} data-test="explain-title">
          {answer ? answer.label : t('explain.title')}
        </h2>
        <button type="button" className="explain-close" onClick={onClose} aria-label={t('common.close')}>
          ×
        </button>
      </div>
      {error && (
        <p className="explain-error" role="alert">
          {error}
        </p>
      )}
      {!answer && !error && <p className="explain-loading">{t('common.loading')}</p>}
      {answer && (
        <>
          {/* The figure as the screen shows it; a count shown rounded says what it is before rounding. */}
          <p
            className="explain-value"
            data-test="explain-value"
            data-value={answer.value ?? ''}
            data-shown={answer.dash ? '' : (answer.shown ?? answer.value ?? '')}
            {...(answer.dash ? { title: t('residue.zeroBase'), 'data-dash': answer.dash } : {})}
          >
            {answer.dash ? '—' : formatExplained(target.key, answer.shown ?? answer.value, target.view)}
          </p>
          {/* A rate over a base that is zero up to residue: the screens show a dash, and this says why. */}
          {answer.dash && (
            <p className="explain-rounding" data-test="explain-dash">
              {t('residue.zeroBase')}
            </p>
          )}
          {answer.shown !== undefined && (
            <p className="explain-rounding" data-test="explain-rounding">
              {t('explain.rounding', { value: formatExplained(target.key, answer.value, target.view) })}
            </p>
          )}
          {unsaved && (
            <p className="explain-rounding" data-test="explain-unsaved">
              {t('explain.unsaved')}
            </p>
          )}
          <p className="explain-formula" data-test="explain-formula">
            {answer.formula}
          </p>
          {answer.inputs.length > 0 && <h3 className="explain-inputs-title">{t('explain.inputs')}</h3>}
          <ul className="explain-inputs">
            {answer.inputs.map((input) => {
              const place = editPlace(input);
              return (
                <li
                  key={`${input.key}/${input.year}/${input.period}/${input.view ?? ''}`}
                  className="explain-input"
                  data-test="explain-input"
                  data-key={input.key}
                  data-source={input.source}
                  data-value={input.value ?? ''}
                >
                  <span className="explain-input-label">
                    {input.explainable ? (
                      <button type="button" className="explain-open" onClick={() => openInput(input)}>
                        {input.label}
                      </button>
                    ) : (
                      input.label
                    )}
                  </span>
                  <span className="explain-input-value">
                    {formatExplained(input.key, input.value, input.view ?? target.view)}
                  </span>
                  <span className={`explain-source explain-source-${input.source.replace(' ', '-')}`}>
                    {sourceName(input)}
                  </span>
                  {place && !input.explainable && (
                    <Link
                      className="explain-edit"
                      data-test="explain-edit"
                      to={`/business-plans/${planId}/${place.path}`}
                      onClick={onClose}
                    >
                      {t('explain.editAt', { place: t(`explain.places.${place.screen}`) })}
                    </Link>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
      <p className="explain-hint">{t('explain.hint')}</p>
    </aside>
  );
}
