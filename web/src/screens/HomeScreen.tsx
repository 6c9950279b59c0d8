import { HOME_ALIASES, type HomeAnswer } from '@topline/contract';
import type { DAILY_METRICS } from '@topline/engine/schema';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../api/client';
import { runtimeConfig } from '../config';
import { sanitizeNumber } from '../format/input';
import { formatNumber } from '../format/numbers';
import { useNotice } from '../notices';
import { canEdit } from '../plan/access';
import { useRetrieve } from '../plan/answers';
import { followSave } from '../plan/engineSession';
import { useSession } from '../session';
import { useShell } from '../shell/ShellContext';
import { useScreenReady } from './common/ui';
import { Reminders } from './home/Reminders';
import { Todos } from './home/Todos';
import '../styles/screens/home.css';

type HomeMetric = HomeAnswer['calendar']['sales'];

/** The label of each daily metric; which two a plan's home shows is the contract's HOME_ALIASES for its template. */
const METRIC_LABELS: Record<(typeof DAILY_METRICS)[number], string> = {
  meeting: 'ws.home.meetings',
  order: 'ws.home.orders',
  registration: 'ws.home.registrations',
  billing: 'ws.home.billing',
};

/** A day of the calendar as the user lives it (local time), as YYYY-MM-DD: the calendar and a daily entry use it. */
const localDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

const PAD_KEYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function Calendar({
  sales,
  orders,
  labels,
  language,
}: {
  sales: HomeMetric;
  orders: HomeMetric;
  labels: [string, string];
  language: string;
}) {
  const today = new Date();
  const first = new Date(today.getFullYear(), today.getMonth(), 1);
  const days = new Date(today.getFullYear(), today.getMonth() + 1, 0).getDate();
  const offset = first.getDay();
  const count = (metric: HomeMetric, day: string) =>
    metric.daily_data.filter((d) => d.date === day).reduce((s, d) => s + d.count, 0);
  const cells = [
    ...PAD_KEYS.slice(0, offset).map((key) => <div key={key} className="ws-day empty" />),
    ...Array.from({ length: days }, (_, i) => {
      const day = localDay(new Date(today.getFullYear(), today.getMonth(), i + 1));
      const s = count(sales, day);
      const o = count(orders, day);
      return (
        <div key={day} className={day === localDay(today) ? 'ws-day today' : 'ws-day'} data-test={`day-${day}`}>
          <span className="ws-day-n">{i + 1}</span>
          {s > 0 && <span className="ws-day-sales">{`${labels[0]} ${s}`}</span>}
          {o > 0 && <span className="ws-day-orders">{`${labels[1]} ${o}`}</span>}
        </div>
      );
    }),
  ];
  const weekdays = PAD_KEYS.map((key, i) => (
    <div key={`h-${key}`} className="ws-day-head">
      {new Intl.DateTimeFormat(language, { weekday: 'short' }).format(new Date(2026, 1, 1 + i))}
    </div>
  ));
  return (
    <div className="ws-calendar" data-test="calendar">
      {weekdays}
      {cells}
    </div>
  );
}

/** Home (working-screens.md section 2): greeting, daily inputs, reminders, to-dos, calendar, status, benchmarks, blog. */
export default function HomeScreen() {
  const { t, i18n } = useTranslation();
  const { plan } = useShell();
  const { user } = useSession();
  const notice = useNotice();
  const planId = plan.business_plan_id;
  const home = useRetrieve('/home/retrieve', { business_plan_id: planId });
  const [inputs, setInputs] = useState<Record<'sales' | 'orders', string>>({ sales: '', orders: '' });
  const editable = canEdit(plan, 'actuals');
  useScreenReady(home.data !== null);
  const aliases = HOME_ALIASES[plan.template];
  const labels: [string, string] = [t(METRIC_LABELS[aliases.sales]), t(METRIC_LABELS[aliases.orders])];
  const links = runtimeConfig().links;

  const submit = async (kind: 'sales' | 'orders') => {
    const value = Number(inputs[kind]);
    if (inputs[kind] === '' || !Number.isFinite(value)) return;
    try {
      const answer = await api.post('/home/edit', {
        business_plan_id: planId,
        kpi_title: kind,
        value,
        date: localDay(new Date()),
      });
      // The browser's workbook, when built, takes the entry as the API stored it.
      void followSave(String(planId), answer, { applied: false });
      notice({ kind: 'success', title: t('ws.common.saved'), message: t('ws.home.recorded') });
      setInputs({ ...inputs, [kind]: '' });
      await home.reload();
    } catch {
      // The client shows the server's message.
    }
  };

  const data = home.data;
  return (
    <section className="ws-screen ws-home" data-screen="home">
      <h2 className="ws-greeting" data-test="greeting">
        {t('ws.home.greeting', { name: user?.name ?? '' })}
      </h2>
      {data && (
        <>
          <div className="ws-two">
            {(['sales', 'orders'] as const).map((kind, i) => {
              const metric = data.calendar[kind];
              return (
                <div key={kind} className="ws-card ws-daily" data-test={`daily-${kind}`}>
                  <h3>{t('ws.home.todayInput', { metric: labels[i] })}</h3>
                  <p className="muted">
                    {t('ws.home.todayWeekMonth', {
                      today: metric.actual.today,
                      weekly: metric.actual.weekly,
                      monthly: metric.actual.monthly,
                    })}
                  </p>
                  <form
                    className="ws-inline-form"
                    onSubmit={(e) => {
                      e.preventDefault();
                      void submit(kind);
                    }}
                  >
                    <input
                      value={inputs[kind]}
                      inputMode="numeric"
                      disabled={!editable}
                      aria-label={labels[i]}
                      onChange={(e) =>
                        setInputs({ ...inputs, [kind]: sanitizeNumber(e.target.value, { minus: false }) })
                      }
                    />
                    <button
                      type="submit"
                      className="button button-small button-primary"
                      disabled={!editable || inputs[kind] === ''}
                    >
                      {t('ws.home.record')}
                    </button>
                  </form>
                </div>
              );
            })}
          </div>
          <div className="ws-two">
            <div className="ws-card" data-test="monthly-status">
              <h3>{t('ws.home.monthlyStatus')}</h3>
              {(['sales', 'orders'] as const).map((kind, i) => {
                const metric = data.calendar[kind];
                const rate = metric.completion_rate;
                const gap = metric.estimated.monthly !== null && metric.estimated.monthly > metric.actual.monthly;
                return (
                  <div key={kind} className="ws-status-line">
                    <span>{labels[i]}</span>
                    <span>
                      {formatNumber(metric.actual.monthly)} / {formatNumber(metric.estimated.monthly)} (
                      {rate === null ? '-' : `${rate.toFixed(1)}%`})
                    </span>
                    {gap && (
                      <span className="ws-alert-chip" data-test={`gap-${kind}`}>
                        {t('ws.home.caseGap', { rate: rate === null ? '-' : rate.toFixed(1) })}
                      </span>
                    )}
                  </div>
                );
              })}
              <Link to={`/business-plans/${planId}/monthly_pl`}>{t('ws.home.toMonthly')}</Link>
            </div>
            <Reminders planId={planId} />
          </div>
          <div className="ws-two">
            <div className="ws-card">
              <h3>{t('ws.home.calendar')}</h3>
              <Calendar
                sales={data.calendar.sales}
                orders={data.calendar.orders}
                labels={labels}
                language={i18n.language}
              />
            </div>
            <Todos planId={planId} />
          </div>
          <div className="ws-card" data-test="benchmarks">
            <header className="ws-card-header">
              <h3>{t('ws.home.benchmarks')}</h3>
              {links.database && (
                <a href={links.database} target="_blank" rel="noreferrer">
                  {t('ws.home.database')}
                </a>
              )}
            </header>
            {data.db_chart.length === 0 && <p className="muted">{t('ws.home.nothingYet')}</p>}
            <div className="ws-two">
              {data.db_chart.map((chart) => (
                <iframe
                  key={chart.iframe}
                  src={chart.iframe}
                  title={chart.title}
                  className="ws-iframe"
                  loading="lazy"
                />
              ))}
            </div>
          </div>
          <div className="ws-card" data-test="blog">
            <header className="ws-card-header">
              <h3>{t('ws.home.blog')}</h3>
              {links.blog && (
                <a href={links.blog} target="_blank" rel="noreferrer">
                  {t('ws.home.blogLink')}
                </a>
              )}
            </header>
            {data.blog.length === 0 && <p className="muted">{t('ws.home.nothingYet')}</p>}
            <div className="ws-blog">
              {data.blog.map((post) => {
                const card = (
                  <>
                    {post.thumbnail && <img src={post.thumbnail} alt="" loading="lazy" />}
                    <small>{post.category}</small>
                    <span>{post.title}</span>
                  </>
                );
                // An article with no address of its own links to the blog, when there is one; else it is no link.
                const href = post.url ?? links.blog;
                return href ? (
                  <a key={post.id} className="ws-blog-card" href={href} target="_blank" rel="noreferrer">
                    {card}
                  </a>
                ) : (
                  <div key={post.id} className="ws-blog-card">
                    {card}
                  </div>
                );
              })}
            </div>
          </div>
        </>
      )}
    </section>
  );
}
