/**
 * What the dashboard's figures are as of: the latest month with actual results, or, in a plan without any, what to
 * enter for the dashboard to show something.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** "YYYY/MM" of the latest ACT month (plan month t, 1-based), or null in a plan without actuals. */
export function asOfMonth(months: readonly string[], latest: number | null): string | null {
  if (latest === null) return null;
  const month = months[latest - 1];
  return month ? month.replace('-', '/') : null;
}

export function AsOf({
  planId,
  template,
  months,
  latest,
  mayEnter,
}: {
  planId: number;
  template: string;
  months: readonly string[];
  latest: number | null;
  /** Whether the user may enter actuals (the monthly P&L is editable for them). */
  mayEnter: boolean;
}) {
  const { t } = useTranslation();
  const month = asOfMonth(months, latest);
  if (month !== null) {
    return (
      <p className="ws-hint" data-test="as-of">
        {t('ws.dashboard.asOf', { month })}
      </p>
    );
  }
  const fields = t(template === 'saas' ? 'ws.dashboard.fieldsSaas' : 'ws.dashboard.fieldsSelf');
  return (
    <div className="ws-card" data-test="no-actuals" role="status">
      <h3>{t('ws.dashboard.noActualsTitle')}</h3>
      <p>{t('ws.dashboard.noActuals', { fields })}</p>
      {mayEnter && (
        <Link className="button button-small" to={`/business-plans/${planId}/monthly_pl`} data-test="enter-actuals">
          {t('ws.dashboard.enterActuals')}
        </Link>
      )}
    </div>
  );
}
