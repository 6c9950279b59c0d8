import type { DataOf } from '@topline/contract';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { PriceTable } from '../pages/PriceTable';
import { useSession } from '../session';
import { Loading } from '../shell/Loading';

export const INVOICES_COLLAPSED = 3;

/** The subscription and invoices of GET /billing/retrieve. */
export type Billing = DataOf<'billingRetrieve'>['invoice'];

/** year/month/day, the interface's date format. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${date.getFullYear()}/${String(date.getMonth() + 1).padStart(2, '0')}/${String(date.getDate()).padStart(2, '0')}`;
}

/** Billing messages of spec section 4: scheduled cancellation (two messages), else the next renewal date. */
export function billingMessages(
  billing: Billing,
  t: (key: string, values?: Record<string, string>) => string,
): string[] {
  const plan = billing.plan;
  if (!plan) return [];
  const date = formatDate(plan.current_period_end);
  if (plan.status === 'scheduled_canceled') {
    return [t('settings.scheduledCanceled'), t('settings.scheduledCanceledEnd', { date })];
  }
  if (plan.current_period_end) return [t('settings.scheduled', { date })];
  return [];
}

/**
 * The plan tab: plan comparison with the monthly/annual switch, billing messages and the invoices. Changing or
 * cancelling a plan goes through a representative (the route table has no billing writes).
 */
export function BillingPanel() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [billing, setBilling] = useState<Billing | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'unavailable'>('loading');
  const [expanded, setExpanded] = useState(false);

  const load = useCallback(async () => {
    setState('loading');
    try {
      const answer = await api.get('/billing/retrieve', { quiet: true });
      setBilling(answer.data.invoice);
      setState('ready');
    } catch {
      setState('unavailable');
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  // Newest first, so the collapsed list shows the latest three.
  const invoices = [...(billing?.invoice_list ?? [])].sort((a, b) => b.created_at.localeCompare(a.created_at));
  const shown = expanded ? invoices : invoices.slice(0, INVOICES_COLLAPSED);
  const tier = user?.plan.plan ?? 'free';
  return (
    <div className="billing-panel">
      {user?.plan.is_trial && user.plan.trial_end && (
        <p className="muted">{t('settings.trialUntil', { date: formatDate(user.plan.trial_end) })}</p>
      )}
      <div className="plan-compare">
        <PriceTable current={tier} />
      </div>
      <p className="muted">{t('settings.contactToChange')}</p>
      {state === 'loading' && <Loading />}
      {state === 'unavailable' && (
        <p className="form-message" data-test="billing-unavailable">
          {t('settings.billingNotConfigured')}
        </p>
      )}
      {state === 'ready' && billing && (
        <>
          {billingMessages(billing, t).map((message) => (
            <p key={message} className="form-message" data-test="billing-message">
              {message}
            </p>
          ))}
          {billing.last4 && (
            <p>
              {t('settings.card', {
                last4: billing.last4,
                month: String(billing.exp_month ?? ''),
                year: String(billing.exp_year ?? ''),
              })}
            </p>
          )}
          <h3>{t('settings.invoices')}</h3>
          {invoices.length === 0 ? (
            <p className="muted">{t('settings.noInvoices')}</p>
          ) : (
            <ul className="invoice-list">
              {shown.map((invoice) => (
                <li key={invoice.url}>
                  <a href={invoice.url} target="_blank" rel="noreferrer">
                    {formatDate(invoice.created_at)}
                  </a>
                  <span>{invoice.price}</span>
                </li>
              ))}
            </ul>
          )}
          {invoices.length > INVOICES_COLLAPSED && (
            <button type="button" className="link-button" onClick={() => setExpanded((value) => !value)}>
              {expanded ? t('settings.showLess') : t('settings.showAll')}
            </button>
          )}
        </>
      )}
    </div>
  );
}
