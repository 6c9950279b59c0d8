import type { PerEmployeeAnswer } from '@topline/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { formatNumber } from '../../format/numbers';
import { Modal } from '../common/ui';

const dismissKey = (planId: number) => `topline.per_head_suggestion_dismissed.${planId}`;

/**
 * Offers listed companies' ARR and revenue per employee; a year whose per-head figure is below the average is marked.
 * The question can be dismissed, remembered per plan in this browser.
 */
export function PerHeadSuggestion({ planId, caseId }: { planId: number; caseId: number }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(() => window.localStorage.getItem(dismissKey(planId)) === '1');
  const [open, setOpen] = useState(false);
  const [data, setData] = useState<PerEmployeeAnswer | null>(null);
  useEffect(() => {
    if (!open) return;
    void api
      .get('/suggestions/per-employee', { query: { business_plan_id: planId, case_id: caseId } })
      .then((answer) => setData(answer.data))
      .catch(() => setOpen(false));
  }, [open, planId, caseId]);

  if (dismissed && !open) return null;
  return (
    <>
      {!dismissed && (
        <div className="ws-suggestion-ask" data-test="suggestion-ask">
          <span>{t('ws.pl.suggestionAsk')}</span>
          <button type="button" className="button button-small button-primary" onClick={() => setOpen(true)}>
            {t('ws.pl.suggestionShow')}
          </button>
          <button
            type="button"
            className="button button-small button-ghost"
            data-test="suggestion-dismiss"
            onClick={() => {
              window.localStorage.setItem(dismissKey(planId), '1');
              setDismissed(true);
            }}
          >
            {t('ws.pl.suggestionDismiss')}
          </button>
        </div>
      )}
      {open && (
        <Modal title={t('ws.pl.suggestionTitle')} onClose={() => setOpen(false)} testId="suggestion-modal">
          {!data ? (
            <p className="muted">{t('ws.common.loading')}</p>
          ) : (
            <div className="ws-suggestion">
              {(['arr_per_employee', 'revenue_per_employee'] as const).map((key) => (
                <section key={key}>
                  <h3>{t(`ws.pl.${key}`)}</h3>
                  <p>
                    {t('ws.pl.average')}: <strong>{formatNumber(data[key].average)}</strong>
                  </p>
                  <ul className="ws-company-list">
                    {data[key].companies.map((company) => (
                      <li key={company.name}>
                        {company.name}: {formatNumber(company.value)}
                      </li>
                    ))}
                  </ul>
                  <p>
                    {data.alerts
                      .filter((a) => a[key])
                      .map((a) => (
                        <span key={a.year} className="ws-alert-chip" data-test={`alert-${key}-${a.year}`}>
                          {t('ws.pl.belowAverage', { year: a.year })}
                        </span>
                      ))}
                  </p>
                </section>
              ))}
            </div>
          )}
        </Modal>
      )}
    </>
  );
}
