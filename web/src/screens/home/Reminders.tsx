import type { Reminder } from '@topline/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRetrieve } from '../../plan/answers';

/** A month `YYYY-MM` as the language writes it ("June 2026", "2026年6月"). */
const monthName = (month: string | null, language: string) => {
  if (!month) return '';
  const [year, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(language, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year ?? 2000, (m ?? 1) - 1, 1)),
  );
};

/** A day `YYYY-MM-DD` as the language writes it. */
const dayName = (date: string | null, language: string) =>
  date
    ? new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))
    : '';

/** Where a reminder leads, if anywhere. */
const LINKS: Partial<Record<Reminder['code'], { to: string; label: string }>> = {
  actuals_missing: { to: 'monthly_pl', label: 'ws.home.toMonthly' },
  no_members: { to: 'setting', label: 'ws.home.reminder.toMembers' },
  trial_ending: { to: 'setting', label: 'ws.home.reminder.toBilling' },
};

/** Home's reminders, derived by the API from the plan as of today (contract `REMINDER_CODES`). */
export function Reminders({ planId }: { planId: number }) {
  const { t, i18n } = useTranslation();
  const answer = useRetrieve('/home/reminders', { business_plan_id: planId });
  const reminders = answer.data?.reminders;
  const text = (r: Reminder) => {
    const params = { month: monthName(r.month, i18n.language), date: dayName(r.date, i18n.language) };
    if (r.code === 'trial_ending')
      return r.days === 0
        ? t('ws.home.reminder.trial_ending_today')
        : t('ws.home.reminder.trial_ending', { ...params, count: r.days ?? 0 });
    return t(`ws.home.reminder.${r.code}`, params);
  };
  return (
    <div className="ws-card" data-test="reminders">
      <h3>{t('ws.home.reminders')}</h3>
      {reminders && reminders.length === 0 && <p className="muted">{t('ws.home.reminder.none')}</p>}
      <ul>
        {reminders?.map((r) => {
          const link = LINKS[r.code];
          return (
            <li key={r.code} data-test={`reminder-${r.code}`}>
              {text(r)}
              {link && (
                <>
                  {' '}
                  <Link to={`/business-plans/${planId}/${link.to}`}>{t(link.label)}</Link>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
