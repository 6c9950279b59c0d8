import { BILLING_RETURNS, type BillingReturn as Result } from '@topline/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useNotice } from '../notices';
import { landingPathFor, useSession } from '../session';
import { Loading } from '../shell/Loading';

/** How long the page waits for Stripe's event to raise the tier after a payment: 15 reads, one a second. */
const READS = 15;
const sleep = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/**
 * Where Stripe's Checkout page sends the browser back (`BILLING_RETURN_PATH`): after a payment it waits for the tier
 * to follow (Stripe's event usually arrives within seconds), says what happened, and opens the Plan tab of the
 * settings modal over the user's first plan.
 */
export default function BillingReturn() {
  const { t } = useTranslation();
  const notify = useNotice();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const { refresh } = useSession();
  const result = search.get('result') as Result | null;
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      let me = await refresh();
      let confirmed = true;
      if (result === 'paid') {
        for (let read = 1; me && me.user.plan.plan === 'free' && read < READS; read += 1) {
          await sleep(1000);
          me = await refresh();
        }
        confirmed = me !== null && me.user.plan.plan !== 'free';
      }
      if (result && BILLING_RETURNS.includes(result)) {
        const message =
          result === 'paid'
            ? t(confirmed ? 'settings.return.paid' : 'settings.return.pending')
            : t(`settings.return.${result === 'card_saved' ? 'cardSaved' : 'cancelled'}`);
        notify({ kind: 'success', title: t('settings.plan'), message });
      }
      const path = landingPathFor(me?.business_plans ?? []);
      navigate(path === '/create' ? path : `${path}?settings=plan`, { replace: true });
    })();
  }, [notify, navigate, refresh, result, t]);

  return <Loading />;
}
