import { ApiError, BILLING_NOT_CONFIGURED, type BillingInterval, type DataOf, type PaidTier } from '@topline/contract';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { currentLanguage } from '../i18n';
import { useNewest } from '../lib/newest';
import {
  type Billing as BillingSide,
  billingCurrencyOf,
  currencyForLanguage,
  formatPrice,
  priceCurrencyOf,
} from '../lib/prices';
import { useNotice } from '../notices';
import { PriceTable } from '../pages/PriceTable';
import { useSession } from '../session';
import { Loading } from '../shell/Loading';
import { ConfirmBox } from './ConfirmBox';
import { formatDate, TierNoticeBox, type Translate } from './TierNotice';

export { formatDate };

export const INVOICES_COLLAPSED = 3;

/** GET /billing/retrieve: the subscription and invoices, and the plan and interval paid for. */
export type BillingData = DataOf<'billingRetrieve'>;
/** The spec's `data.invoice`. */
export type Billing = BillingData['invoice'];

/** Stripe's statuses of a subscription that runs (can be cancelled or changed). */
const RUNNING = new Set(['active', 'trialing', 'past_due', 'scheduled_canceled']);

/** An invoice's total in its currency: ¥14,980, $149, or the amount with its ISO code for any other currency. */
export function formatAmount(currency: string, amount: number): string {
  if (currency === 'JPY' || currency === 'USD') return formatPrice(currency, amount);
  return `${amount.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${currency}`;
}

/** Billing messages of spec section 4: scheduled cancellation (two messages), else the next renewal date. */
export function billingMessages(billing: Billing, t: Translate): string[] {
  const plan = billing.plan;
  if (!plan) return [];
  const date = formatDate(plan.current_period_end);
  if (plan.status === 'scheduled_canceled') {
    return [t('settings.scheduledCanceled'), t('settings.scheduledCanceledEnd', { date })];
  }
  if (RUNNING.has(plan.status) && plan.current_period_end) return [t('settings.scheduled', { date })];
  return [];
}

const intervalOf = (side: BillingSide): BillingInterval => (side === 'annual' ? 'year' : 'month');

/**
 * Why the billing could not be loaded: the API has no Stripe key (its 503 "billing is not configured": plans are
 * changed through a representative), or anything else (Stripe or the API out of reach: trying again may work).
 */
export function loadFailure(error: unknown): 'not_configured' | 'unreachable' {
  return error instanceof ApiError &&
    error.status === 503 &&
    error.code === 'unavailable' &&
    error.message === BILLING_NOT_CONFIGURED
    ? 'not_configured'
    : 'unreachable';
}

/**
 * The Plan tab (spec section 2): the plan comparison with the monthly/annual switch, where the user subscribes on
 * Stripe's Checkout page or changes the running subscription; cancelling (at the end of the period, after a
 * confirmation) and restoring; the billing messages; the card with its replacement; and the invoices, the latest
 * three then all. Without billing configured it says so, and plans are changed through a representative.
 */
export function BillingPanel() {
  const { t, i18n } = useTranslation();
  const notify = useNotice();
  const { user, notice, refresh } = useSession();
  const [data, setData] = useState<BillingData | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'not_configured' | 'unreachable'>('loading');
  const [expanded, setExpanded] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<
    { kind: 'cancel' } | { kind: 'change'; plan: PaidTier; interval: BillingInterval } | null
  >(null);

  // Loads overlap (the panel opened, a retry, a reload after a change): only the newest one's answer is shown.
  const loads = useNewest();
  const load = useCallback(async () => {
    const current = loads.begin();
    try {
      const answer = await api.get('/billing/retrieve', { quiet: true });
      if (!current()) return;
      setData(answer.data);
      setState('ready');
    } catch (error) {
      if (current()) setState(loadFailure(error));
    }
  }, [loads]);

  useEffect(() => {
    void load();
  }, [load]);

  /** Runs a billing call; a URL answer goes to Stripe's page, anything else re-reads the billing and the user. */
  const run = async (call: () => Promise<{ url: string } | object>, done?: string) => {
    setBusy(true);
    try {
      const answer = await call();
      if ('url' in answer && typeof answer.url === 'string') {
        window.location.assign(answer.url);
        return;
      }
      setConfirming(null);
      await Promise.all([load(), refresh()]);
      if (done) notify({ kind: 'success', title: t('common.success'), message: done });
    } catch {
      // The client has shown the API's message.
    } finally {
      setBusy(false);
    }
  };

  const billing = data?.invoice ?? null;
  const subscription = data?.subscription ?? null;
  const status = billing?.plan?.status ?? null;
  const scheduled = status === 'scheduled_canceled';
  const running = subscription !== null && status !== null && RUNNING.has(status);
  const periodEnd = formatDate(billing?.plan?.current_period_end);
  const planName = (plan: string) => t(`landing.plans.${plan}.name`);
  const intervalName = (interval: BillingInterval) => t(`settings.interval.${interval}`);
  // Prices in the interface's currency, which Checkout charges; a running subscription's own currency, which a change
  // keeps (Stripe cannot change a subscription's currency).
  const interfaceCurrency = currencyForLanguage(currentLanguage(i18n.language));
  const subscriptionCurrency = running ? priceCurrencyOf(subscription.currency) : undefined;
  const currency = subscriptionCurrency ?? interfaceCurrency;

  const action = (plan: string, side: BillingSide) => {
    if (state !== 'ready' || plan === 'free') return null;
    const tier = plan as PaidTier;
    const interval = intervalOf(side);
    if (running && subscription.plan === tier && subscription.interval === interval) {
      return (
        <p className="price-action muted" data-test="subscribed">
          {t('settings.yourPlan')}
        </p>
      );
    }
    const label = running
      ? t('settings.changeTo', { plan: planName(tier), interval: intervalName(interval) })
      : t('settings.choosePlan', { plan: planName(tier) });
    return (
      <button
        type="button"
        className="button button-primary price-action"
        data-test={`choose-${tier}`}
        disabled={busy}
        onClick={() =>
          running
            ? setConfirming({ kind: 'change', plan: tier, interval })
            : void run(
                async () =>
                  (await api.post('/billing/create', { plan: tier, interval, currency: billingCurrencyOf(currency) }))
                    .data,
              )
        }
      >
        {label}
      </button>
    );
  };

  // Newest first, so the collapsed list shows the latest three.
  const invoices = [...(billing?.invoice_list ?? [])].sort((a, b) => b.created_at.localeCompare(a.created_at));
  const shown = expanded ? invoices : invoices.slice(0, INVOICES_COLLAPSED);
  const tier = running ? subscription.plan : (user?.plan.plan ?? 'free');
  return (
    <div className="billing-panel">
      {notice && <TierNoticeBox notice={notice} />}
      {user?.plan.is_trial && user.plan.trial_end && (
        <p className="muted">{t('settings.trialUntil', { date: formatDate(user.plan.trial_end) })}</p>
      )}
      {state === 'loading' && <Loading />}
      {state !== 'loading' && (
        <div className="plan-compare">
          <PriceTable
            current={tier}
            initialBilling={running && subscription.interval === 'year' ? 'annual' : 'monthly'}
            renderAction={action}
            currency={currency}
          />
        </div>
      )}
      {state === 'ready' && currency !== interfaceCurrency && (
        <p className="muted" data-test="billed-in">
          {t('settings.billedIn', { currency })}
        </p>
      )}
      {confirming?.kind === 'change' && (
        <ConfirmBox
          label={t('settings.confirmChange')}
          keepText={t('settings.keepPlan')}
          confirmText={t('settings.confirmChange')}
          busy={busy}
          onKeep={() => setConfirming(null)}
          onConfirm={() =>
            void run(
              async () =>
                (await api.post('/billing/create', { plan: confirming.plan, interval: confirming.interval })).data,
              t('settings.planChanged'),
            )
          }
        >
          <p>
            {t('settings.changeConfirm', {
              plan: planName(confirming.plan),
              interval: intervalName(confirming.interval),
            })}
          </p>
        </ConfirmBox>
      )}
      {state === 'not_configured' && (
        <>
          <p className="form-message" data-test="billing-unavailable">
            {t('settings.billingNotConfigured')}
          </p>
          <p className="muted">{t('settings.contactToChange')}</p>
        </>
      )}
      {state === 'unreachable' && (
        <div className="billing-unreachable">
          <p className="form-message error" data-test="billing-unreachable">
            {t('settings.billingUnreachable')}
          </p>
          <button
            type="button"
            className="button button-ghost button-small"
            data-test="billing-retry"
            onClick={() => {
              setState('loading');
              void load();
            }}
          >
            {t('settings.billingRetry')}
          </button>
        </div>
      )}
      {state === 'ready' && billing && (
        <>
          {billingMessages(billing, t).map((message) => (
            <p key={message} className="form-message" data-test="billing-message">
              {message}
            </p>
          ))}
          {status === 'past_due' && <p className="form-message error">{t('settings.pastDue')}</p>}
          {running && (
            <div className="billing-actions">
              {scheduled ? (
                <button
                  type="button"
                  className="button button-primary"
                  data-test="restore"
                  disabled={busy}
                  onClick={() =>
                    void run(async () => (await api.post('/billing/restore', {})).data, t('settings.restored'))
                  }
                >
                  {t('settings.restore')}
                </button>
              ) : (
                confirming?.kind !== 'cancel' && (
                  <button
                    type="button"
                    className="button button-ghost"
                    data-test="cancel-subscription"
                    disabled={busy}
                    onClick={() => setConfirming({ kind: 'cancel' })}
                  >
                    {t('settings.cancelSubscription')}
                  </button>
                )
              )}
            </div>
          )}
          {confirming?.kind === 'cancel' && running && !scheduled && (
            <ConfirmBox
              label={t('settings.cancelSubscription')}
              keepText={t('settings.keepSubscription')}
              confirmText={t('settings.confirmCancel')}
              danger
              confirmTest="confirm-cancel"
              busy={busy}
              onKeep={() => setConfirming(null)}
              onConfirm={() =>
                void run(
                  async () => (await api.post('/billing/cancel', {})).data,
                  t('settings.cancelScheduled', { date: periodEnd }),
                )
              }
            >
              <p>{t('settings.cancelConfirm', { date: periodEnd })}</p>
            </ConfirmBox>
          )}
          {billing.last4 && (
            <div className="billing-card">
              <p data-test="billing-card">
                {t('settings.card', {
                  last4: billing.last4,
                  month: String(billing.exp_month ?? '').padStart(2, '0'),
                  year: String(billing.exp_year ?? ''),
                })}
              </p>
              <button
                type="button"
                className="button button-ghost button-small"
                disabled={busy}
                onClick={() => void run(async () => (await api.post('/billing/payment/attach', {})).data)}
              >
                {t('settings.replaceCard')}
              </button>
            </div>
          )}
          <h3>{t('settings.invoices')}</h3>
          {invoices.length === 0 ? (
            <p className="muted">{t('settings.noInvoices')}</p>
          ) : (
            <ul className="invoice-list" data-test="invoice-list">
              {shown.map((invoice) => (
                <li key={invoice.url}>
                  <a href={invoice.url} target="_blank" rel="noreferrer">
                    {formatDate(invoice.created_at)}
                  </a>
                  <span className="invoice-price">{formatAmount(invoice.currency, invoice.price)}</span>
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
