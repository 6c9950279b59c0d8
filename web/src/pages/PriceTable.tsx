import { TIERS, type Tier } from '@topline/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { type Billing, currencyForLanguage, formatPrice, monthlyPrice, type PriceCurrency } from '../lib/prices';

interface PriceTableProps {
  /** The user's current plan, marked in the settings modal. */
  current?: Tier | undefined;
  /** Extra content under each plan card (billing actions in the settings modal), for the billing shown. */
  renderAction?: (plan: Tier, billing: Billing) => React.ReactNode;
  /** The side of the switch shown first (the settings modal opens on the interval paid for). */
  initialBilling?: Billing | undefined;
  /** The currency to price in instead of the interface's (a running subscription's, which a change keeps). */
  currency?: PriceCurrency | undefined;
}

/** Free, Basic and Team with the monthly/annual switch; the annual side is labelled 15% OFF. */
export function PriceTable({ current, renderAction, initialBilling, currency: fixed }: PriceTableProps) {
  const { t, i18n } = useTranslation();
  const [billing, setBilling] = useState<Billing>(initialBilling ?? 'monthly');
  const currency = fixed ?? currencyForLanguage(currentLanguage(i18n.language));
  return (
    <div className="price-table">
      <div className="billing-switch">
        <button
          type="button"
          aria-pressed={billing === 'monthly'}
          className={billing === 'monthly' ? 'active' : ''}
          onClick={() => setBilling('monthly')}
        >
          {t('common.monthly')}
        </button>
        <button
          type="button"
          aria-pressed={billing === 'annual'}
          className={billing === 'annual' ? 'active' : ''}
          onClick={() => setBilling('annual')}
        >
          {t('common.annual')} <span className="badge-off">{t('common.off15')}</span>
        </button>
      </div>
      <div className="price-cards">
        {TIERS.map((plan) => (
          <div key={plan} className={`price-card${current === plan ? ' current' : ''}`} data-plan={plan}>
            {current === plan && <span className="current-label">{t('settings.current')}</span>}
            <h3>{t(`landing.plans.${plan}.name`)}</h3>
            <p className="price">
              <span className="amount">{formatPrice(currency, monthlyPrice(currency, plan, billing))}</span>
              <span className="unit">{t('common.perMonth')}</span>
            </p>
            <p className="price-sub">
              {t('common.taxIncluded')}
              {billing === 'annual' && plan !== 'free' ? ` · ${t('common.billedYearly')}` : ''}
            </p>
            <p className="summary">{t(`landing.plans.${plan}.summary`)}</p>
            <p className="limit">{t(`landing.plans.${plan}.limit`)}</p>
            {renderAction?.(plan, billing)}
          </div>
        ))}
      </div>
    </div>
  );
}
