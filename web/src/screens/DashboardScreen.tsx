import type { DashboardSeries } from '@topline/engine';
import type { DashboardColumn } from '@topline/engine/shapes';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from '../charts/Chart';
import { dashboardFigureTarget, dashboardScalarTarget, dashboardTarget, explainFigure } from '../explain/figureExplain';
import { cashOutColor } from '../format/colors';
import { formatPercent } from '../format/numbers';
import { canEdit } from '../plan/access';
import { useRetrieve } from '../plan/answers';
import { useCurrentCase } from '../plan/currentCase';
import { useShell } from '../shell/ShellContext';
import { CaseSelect } from './common/CaseSelect';
import { useScreenReady } from './common/ui';
import { AsOf } from './dashboard/AsOf';
import {
  formatMetric,
  METRICS_SAAS,
  METRICS_SELF,
  MONEY_METRICS,
  RATE_METRICS,
  zeroBaseDash,
} from './dashboard/metrics';
import { CasesCashRunway } from './pl/CasesCashRunway';
import '../styles/screens/dashboard.css';

/** A metric card's figures beside its latest value: the fiscal year achieved (a share) and the averages. */
const AVERAGES = [
  { label: 'ws.dashboard.fiscalYear', test: 'fiscal-year', column: 'fiscal_year_achieved', percent: true },
  { label: 'ws.dashboard.ave3', test: 'ave-3', column: 'ave_three_monthes', percent: false },
  { label: 'ws.dashboard.ave6', test: 'ave-6', column: 'ave_six_monthes', percent: false },
  { label: 'ws.dashboard.ave12', test: 'ave-12', column: 'ave_twelve_monthes', percent: false },
] as const;

const COLORS = { red: '#b8283d', orange: '#f08a24', teal: '#1fa39a', none: '#6b6880' } as const;

/** A half-circle gauge of the MRR progress against the year's goal (the basic Plotly bundle has no indicator). */
function Gauge({ percent }: { percent: number | null }) {
  const p = Math.max(0, Math.min(100, percent ?? 0));
  const angle = Math.PI * (1 - p / 100);
  const x = 60 + 50 * Math.cos(angle);
  const y = 60 - 50 * Math.sin(angle);
  return (
    <svg viewBox="0 0 120 70" width="180" height="105" role="img" aria-label={`${p.toFixed(1)}%`} data-test="mrr-gauge">
      <path d="M10 60 A50 50 0 0 1 110 60" fill="none" stroke="#ece8fb" strokeWidth="12" />
      <path d={`M10 60 A50 50 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)}`} fill="none" stroke="#5b3fd1" strokeWidth="12" />
      <text x="60" y="58" textAnchor="middle" fontSize="14" fontWeight="700">
        {percent === null ? '-' : `${percent.toFixed(1)}%`}
      </text>
    </svg>
  );
}

/** Dashboard (working-screens.md section 2): every metric with actual and estimate series and its averages. */
export default function DashboardScreen() {
  const { t } = useTranslation();
  const { plan, year } = useShell();
  const planId = plan.business_plan_id;
  const cases = plan.cases;
  const { current, choose } = useCurrentCase(planId, cases);
  const answer = useRetrieve(
    '/dashboard/retrieve',
    { business_plan_id: planId, case_id: current?.case_id },
    cases.length === 0 || current !== null,
  );
  const [trend, setTrend] = useState<'mrr' | 'arr'>('mrr');
  const [hideEstimate, setHideEstimate] = useState(false);
  const [compareCases, setCompareCases] = useState(false);
  const mayHide = canEdit(plan, 'dashboard');
  useScreenReady(answer.data !== null || cases.length === 0);
  const data = answer.data;
  if (!data) return <section className="ws-screen" data-screen="dashboard" />;

  const from = 12 * (year - 1);
  const months = data.months.slice(from, from + 12);
  const slice = (series: DashboardSeries | undefined, key: 'actual' | 'estimate') =>
    (series?.[key] ?? []).slice(from, from + 12);
  const runway = data.forecast_monthes;
  const runwayColor = cashOutColor(runway);
  // A cash-out within the actual months already happened: said as a fact, not as a runway.
  const cashOutPast = data.cash_out !== null && data.cash_out.t <= (data.latest_actual_month ?? 0);
  const cashOutWhen = data.cash_out ? `${data.cash_out.year}/${String(data.cash_out.month).padStart(2, '0')}` : '';
  const showEstimate = !hideEstimate;
  // Without an ACT month there is no latest value or average to show: the dashboard says what to enter instead.
  const hasActuals = data.latest_actual_month !== null;
  const seriesChart = (name: string, height = 200) => {
    const series = data.metrics[name];
    const scale = RATE_METRICS.has(name) ? 100 : 1;
    const scaled = (values: (number | null)[]) => values.map((v) => (v === null ? null : v * scale));
    return (
      <Chart
        height={height}
        money={MONEY_METRICS.has(name)}
        testId={`chart-${name}`}
        traces={[
          {
            type: 'bar',
            name: t('ws.common.actual'),
            x: months,
            y: scaled(slice(series, 'actual')),
            marker: { color: '#5b3fd1' },
          },
          ...(showEstimate
            ? [
                {
                  type: 'scatter' as const,
                  mode: 'lines',
                  name: t('ws.common.estimate'),
                  x: months,
                  y: scaled(slice(series, 'estimate')),
                  line: { color: '#f2a93b' },
                },
              ]
            : []),
        ]}
      />
    );
  };

  const cash = data.metrics.cash_balance;
  // Each dashboard figure opens its explanation: a metric's averages and fiscal year, the MRR gauge's values.
  const caseId = current?.case_id;
  const gaugeYear = data.mrr_progress.year;
  const figure = (name: string, column: DashboardColumn) =>
    dashboardFigureTarget(name, column, data.latest_actual_month, caseId);
  // A rate over a base that is zero up to residue is a dash titled with why.
  const dash = (path: string) => zeroBaseDash(data.dashes, path, t('residue.zeroBase'));
  const metrics = plan.template === 'saas' ? METRICS_SAAS : METRICS_SELF;
  return (
    <section className="ws-screen" data-screen="dashboard">
      <div className="ws-toolbar">
        <CaseSelect cases={cases} current={current?.case_id ?? data.case_id} onChange={choose} />
        <label className="ws-switch">
          <input
            type="checkbox"
            checked={hideEstimate}
            disabled={!mayHide}
            data-test="hide-estimate"
            onChange={(e) => setHideEstimate(e.target.checked)}
          />
          {t('ws.dashboard.hideEstimate')}
        </label>
        {cases.length > 1 && (
          <label className="ws-switch">
            <input
              type="checkbox"
              checked={compareCases}
              data-test="dashboard-compare"
              onChange={(e) => setCompareCases(e.target.checked)}
            />
            {t('ws.pl.compare')}
          </label>
        )}
      </div>
      {compareCases && <CasesCashRunway planId={planId} />}
      <AsOf
        planId={planId}
        template={plan.template}
        months={data.months}
        latest={data.latest_actual_month}
        mayEnter={canEdit(plan, 'monthly_pl')}
      />
      <div className="ws-dash-top">
        <div className="ws-card ws-metric-card" data-test="cash-balance">
          <h3>{t('ws.dashboard.cash_balance')}</h3>
          {hasActuals && (
            <strong
              className="ws-big"
              data-test="latest-cash_balance"
              {...explainFigure(dashboardTarget('cash_balance', data.latest_actual_month, current?.case_id))}
            >
              {formatMetric('cash_balance', cash?.latest_value ?? null)}
            </strong>
          )}
          <p
            data-test="cash-out"
            data-color={runwayColor}
            style={{ color: COLORS[runwayColor] }}
            className="ws-runway"
            {...explainFigure(
              runway === null ? null : dashboardScalarTarget('forecast_monthes', gaugeYear, caseId),
              'ws-runway',
            )}
          >
            {runway === null
              ? t('ws.dashboard.noCashOut')
              : t(cashOutPast ? 'ws.dashboard.cashOutPast' : 'ws.dashboard.cashOut', {
                  months: runway,
                  when: cashOutWhen,
                })}
          </p>
          {seriesChart('cash_balance', 180)}
        </div>
        <div className="ws-card ws-metric-card" data-test="mrr-trend">
          <header className="ws-card-header">
            <h3>{t(`ws.dashboard.${trend}`)}</h3>
            <span className="ws-segment">
              {(['mrr', 'arr'] as const).map((k) => (
                <button
                  key={k}
                  type="button"
                  className={trend === k ? 'ws-tab active' : 'ws-tab'}
                  aria-pressed={trend === k}
                  data-test={`trend-${k}`}
                  onClick={() => setTrend(k)}
                >
                  {k.toUpperCase()}
                </button>
              ))}
            </span>
          </header>
          {hasActuals && (
            <strong
              className="ws-big"
              data-test={`latest-${trend}`}
              {...explainFigure(dashboardTarget(trend, data.latest_actual_month, current?.case_id))}
            >
              {formatMetric(trend, data.metrics[trend]?.latest_value ?? null)}
            </strong>
          )}
          {seriesChart(trend, 180)}
        </div>
        <div className="ws-card ws-metric-card" data-test="mrr-progress">
          <h3>{t('ws.dashboard.mrrProgress')}</h3>
          {hasActuals && (
            <span
              data-test="mrr-progress-percent"
              {...explainFigure(dashboardScalarTarget('mrr_progress_percent', gaugeYear, caseId), 'ws-gauge')}
              {...dash('mrr_progress.progress_percent')}
            >
              <Gauge percent={data.mrr_progress.progress_percent} />
            </span>
          )}
          <p className="muted" data-test="mrr-progress-values">
            {hasActuals && (
              <>
                {`${t('ws.dashboard.asIs')}: `}
                <span
                  data-test="mrr-as-is"
                  {...explainFigure(dashboardScalarTarget('mrr_as_is', gaugeYear, caseId), '')}
                >
                  {formatMetric('mrr', data.mrr_progress.as_is)}
                </span>
                {' / '}
              </>
            )}
            {t('ws.dashboard.goal')}:{' '}
            <span data-test="mrr-goal" {...explainFigure(dashboardScalarTarget('mrr_goal', gaugeYear, caseId), '')}>
              {formatMetric('mrr', data.mrr_progress.goal)}
            </span>
          </p>
        </div>
      </div>
      <div className="ws-metric-grid">
        {metrics.map((name) => {
          const series = data.metrics[name];
          if (!series) return null;
          return (
            <div key={name} className="ws-card ws-metric-card" data-test={`metric-${name}`}>
              <h3>{t(`ws.dashboard.${name}`)}</h3>
              {hasActuals && (
                <>
                  <strong
                    className="ws-big"
                    data-test={`latest-${name}`}
                    {...explainFigure(dashboardTarget(name, data.latest_actual_month, current?.case_id))}
                    {...dash(`metrics.${name}.latest_value`)}
                  >
                    {formatMetric(name, series.latest_value)}
                  </strong>
                  {/* Each figure opens its explanation: a control inside its dd, which keeps its own role. */}
                  <dl className="ws-averages">
                    {AVERAGES.map(({ label, test, column, percent }) => (
                      <Fragment key={column}>
                        <dt>{t(label)}</dt>
                        <dd>
                          <span
                            data-test={test}
                            {...explainFigure(figure(name, column), '')}
                            {...dash(`metrics.${name}.${column}`)}
                          >
                            {percent ? formatPercent(series[column]) || '-' : formatMetric(name, series[column])}
                          </span>
                        </dd>
                      </Fragment>
                    ))}
                  </dl>
                </>
              )}
              {seriesChart(name, 170)}
            </div>
          );
        })}
      </div>
    </section>
  );
}
