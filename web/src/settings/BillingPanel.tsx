import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import type { Billing } from '../api/types';
import { tierOf } from '../lib/tiers';
import { PriceTable } from '../pages/PriceTable';
import { useSession } from '../session';
import { Loading } from '../shell/Loading';

export const INVOICES_COLLAPSED = 3;

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

/** The plan tab: plan comparison with the monthly/annual switch, billing messages and the invoices. */
export function BillingPanel() {
  const { t } = useTranslation();
  const { user, refresh } = useSession();
  const [billing, setBilling] = useState<Billing | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'unavailable'>('loading');
  const [expanded, setExpanded] = useState(false);

  const load = useCallback(async () => {
    setState('loading');
    try {
      const answer = await api.get<{ invoice?: Billing } | Billing>('/billing/retrieve', { quiet: true });
      const data = answer.data;
      const found = data && 'invoice' in data && data.invoice ? data.invoice : (data as Billing | null);
      setBilling(found ?? null);
      setState('ready');
    } catch {
      setState('unavailable');
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const act = async (path: '/billing/cancel' | '/billing/restore') => {
    try {
      await api.post(path, {});
      await load();
      await refresh();
    } catch {
      // Notice already shown.
    }
  };

  // Newest first, so the collapsed list shows the latest three.
  const invoices = [...(billing?.invoice_list ?? [])].sort((a, b) => b.created_at.localeCompare(a.created_at));
  const shown = expanded ? invoices : invoices.slice(0, INVOICES_COLLAPSED);
  const tier = tierOf(user);
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
          {billing.plan?.status === 'scheduled_canceled' ? (
            <button type="button" className="button button-primary" onClick={() => void act('/billing/restore')}>
              {t('settings.restorePlan')}
            </button>
          ) : (
            tier !== 'free' &&
            billing.plan && (
              <button type="button" className="button button-ghost" onClick={() => void act('/billing/cancel')}>
                {t('settings.cancelPlan')}
              </button>
            )
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
