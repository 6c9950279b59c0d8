import { monthWithinYear } from '@topline/engine/calendar';
import type { RevisionPattern } from '@topline/engine/shapes';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AnswerAt, api } from '../../api/client';
import { isNegativeText } from '../../format/numbers';
import { formatCell } from '../../grid/YearTable';
import { Confirm } from '../common/ui';
import '../../styles/screens/revise.css';

type Preview = AnswerAt<'/pl/monthly/adjust/preview'>;
const PATTERNS: RevisionPattern[] = ['upward', 'downward'];
const money = (value: number | null | undefined) => formatCell(value, 'money');

function Figure({ value, test }: { value: number | null | undefined; test: string }) {
  const text = money(value);
  return (
    <td className={isNegativeText(text) ? 'ws-num ws-negative' : 'ws-num'} data-test={test}>
      {text}
    </td>
  );
}

/**
 * "Revise budget" (working-screens.md section 2, MODEL.md section 6), saying what it will do before anything is
 * saved: for each pattern the year-end MRR and ARR and the change to the remaining months' revenue, as the engine
 * computes them by applying the revision to a copy of the plan (`GET /pl/monthly/adjust/preview`), a sentence on what
 * the pattern means, and a confirmation naming the figures. After the save the preview is read again: the forecast as
 * it stands is then the pattern's outcome.
 */
export function RevisePanel({
  planId,
  caseId,
  year,
  editable,
  onRevise,
}: {
  planId: number;
  caseId: number;
  year: number;
  editable: boolean;
  /** Saves the revision; resolves once the API has answered. */
  onRevise: (pattern: RevisionPattern) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [pattern, setPattern] = useState<RevisionPattern>('upward');
  const [confirming, setConfirming] = useState(false);

  const load = useCallback(async () => {
    try {
      const answer = await api.get('/pl/monthly/adjust/preview', {
        query: { business_plan_id: planId, case_id: caseId, year },
        quiet: true,
      });
      setPreview(answer.data);
      setUnavailable(false);
    } catch {
      // The year has no actual month to revise from, or none left after it: the save would refuse it alike.
      setPreview(null);
      setUnavailable(true);
    }
  }, [planId, caseId, year]);
  useEffect(() => {
    void load();
  }, [load]);

  const chosen = preview?.patterns[pattern];
  const patternName = (p: RevisionPattern) => t(`ws.monthly.${p}`);
  return (
    <div className="ws-revise-panel" data-test="revise">
      {unavailable && (
        <p className="ws-revise-note" data-test="revise-unavailable">
          {t('ws.revise.unavailable')}
        </p>
      )}
      {preview && (
        <>
          <table className="ws-revise-preview" data-test="revise-preview">
            <caption>
              {t('ws.revise.preview', { year })}{' '}
              <small>{t('ws.revise.fromMonth', { month: `M${monthWithinYear(preview.from_month)}` })}</small>
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('ws.revise.pattern')}</th>
                <th scope="col">{t('ws.revise.yearEndMrr')}</th>
                <th scope="col">{t('ws.revise.yearEndArr')}</th>
                <th scope="col">{t('ws.revise.remainingRevenue')}</th>
                <th scope="col">{t('ws.revise.revenueChange')}</th>
              </tr>
            </thead>
            <tbody>
              <tr data-pattern="current">
                <th scope="row">
                  {t('ws.revise.current')}
                  {preview.current_pattern && (
                    <small> ({t('ws.revise.revisedNow', { pattern: patternName(preview.current_pattern) })})</small>
                  )}
                </th>
                <Figure value={preview.current.year_end_mrr} test="mrr" />
                <Figure value={preview.current.year_end_arr} test="arr" />
                <Figure value={preview.current.remaining_revenue} test="remaining" />
                <td />
              </tr>
              {PATTERNS.map((p) => (
                <tr key={p} data-pattern={p} className={p === pattern ? 'ws-revise-chosen' : undefined}>
                  <th scope="row">{patternName(p)}</th>
                  <Figure value={preview.patterns[p].year_end_mrr} test="mrr" />
                  <Figure value={preview.patterns[p].year_end_arr} test="arr" />
                  <Figure value={preview.patterns[p].remaining_revenue} test="remaining" />
                  <Figure value={preview.patterns[p].revenue_change} test="change" />
                </tr>
              ))}
            </tbody>
          </table>
          <fieldset className="ws-revise-choice">
            <legend>{t('ws.revise.pattern')}</legend>
            {PATTERNS.map((p) => (
              <label key={p} className="ws-revise-option">
                <input
                  type="radio"
                  name="revise-pattern"
                  value={p}
                  checked={pattern === p}
                  disabled={!editable}
                  onChange={() => setPattern(p)}
                />
                <strong>{patternName(p)}</strong>
                <span data-test={`revise-explain-${p}`}>{t(`ws.revise.explain.${p}`)}</span>
              </label>
            ))}
          </fieldset>
        </>
      )}
      <button
        type="button"
        className="button button-small button-primary"
        disabled={!editable || !preview}
        data-test="revise-submit"
        onClick={() => setConfirming(true)}
      >
        {t('ws.monthly.reviseBudget')}
      </button>
      {confirming && chosen && (
        <Confirm
          title={t('ws.revise.confirmTitle')}
          message={t('ws.revise.confirm', {
            year,
            pattern: patternName(pattern),
            mrr: money(chosen.year_end_mrr),
            arr: money(chosen.year_end_arr),
            change: money(chosen.revenue_change),
          })}
          confirmLabel={t('ws.monthly.reviseBudget')}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void onRevise(pattern).then(load);
          }}
        />
      )}
    </div>
  );
}
