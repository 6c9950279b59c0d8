import { caseYearEdits, type InputOf } from '@topline/contract';
import type { PlanWorkbook, RevenueYear } from '@topline/engine';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnswerAt } from '../api/client';
import { api } from '../api/client';
import { Chart } from '../charts/Chart';
import { formatPercent, yyyymmdd } from '../format/numbers';
import { type TableRow, YearTable } from '../grid/YearTable';
import { useNotice } from '../notices';
import { canEdit } from '../plan/access';
import { download } from '../plan/answers';
import { useCurrentCase } from '../plan/currentCase';
import type { EngineSession } from '../plan/engineSession';
import { useLiveAnswer } from '../plan/live';
import { useShell } from '../shell/ShellContext';
import { CaseSelect } from './common/CaseSelect';
import { useScreenReady, ViewOnlyNote } from './common/ui';

const computeRevenue = (wb: PlanWorkbook, engine: EngineSession): AnswerAt<'/revenue/retrieve'> => ({
  values: engine.caseIds.map((caseId, index) => ({
    case_id: caseId,
    case_name: wb.plan.cases[index]?.case_name ?? '',
    case_rate: wb.plan.cases[index]?.case_rate ?? 1,
    revenue: wb.revenue(index),
  })),
});

/** Recurring revenue of at least 80% is what the spec calls desirable. */
export const RECURRING_HINT = 0.8;

/** Revenue (working-screens.md section 2): recurring vs professional service, monthly and cumulative charts. */
export default function RevenueScreen() {
  const { t } = useTranslation();
  const { plan, year } = useShell();
  const notice = useNotice();
  const planId = plan.business_plan_id;
  const live = useLiveAnswer(planId, '/revenue/retrieve', { business_plan_id: planId }, computeRevenue);
  const { current, choose } = useCurrentCase(planId, live.data?.values ?? []);
  const editable = canEdit(plan, 'sales_detail');
  useScreenReady(live.data !== null);
  const { edit } = live;

  const rows = useMemo<TableRow[]>(() => {
    if (!current) return [];
    const pick = (key: keyof RevenueYear) => current.revenue.map((y) => y[key] as number | null);
    return [
      { key: 'revenue', label: t('ws.rows.revenue'), format: 'money', values: pick('revenue') },
      {
        key: 'mrr_total',
        label: t('ws.revenue.recurring'),
        format: 'money',
        values: current.revenue.map((y) => (y.revenue ?? 0) - (y.professional_service ?? 0)),
      },
      {
        key: 'professional_service',
        label: t('ws.rows.professional_service'),
        format: 'money',
        values: pick('professional_service'),
      },
      {
        key: 'recurring_revenue_rate',
        label: t('ws.rows.recurring_revenue_rate'),
        format: 'percent',
        editKey: 'recurring_revenue_rate',
        values: pick('recurring_revenue_rate'),
      },
      {
        key: 'professional_service_rate',
        label: t('ws.rows.professional_service_rate'),
        format: 'percent',
        level: 2,
        values: pick('professional_service_rate'),
      },
    ];
  }, [current, t]);

  const onEdit = useCallback(
    (row: TableRow, index: number, value: number | null) => {
      if (!current || row.editKey !== 'recurring_revenue_rate') return;
      const request: InputOf<'revenueEdit'> = {
        business_plan_id: planId,
        case_id: current.case_id,
        year: index + 1,
        key: 'recurring_revenue_rate',
        value,
      };
      // The revenue share is a per-year assumption like those of /case/edit.
      void edit(
        (ids) => caseYearEdits(request, ids),
        () => api.post('/revenue/edit', request),
      );
    },
    [current, edit, planId],
  );

  const yearData = current?.revenue[year - 1];
  if (!live.data || !current || !yearData) return <section className="ws-screen" data-screen="revenue" />;
  const months = yearData.monthly.map((m) => m.month);
  const m = (v: number | null) => (v === null ? null : v / 1_000_000);
  const low = current.revenue.filter((y) => (y.recurring_revenue_rate ?? 1) < RECURRING_HINT).map((y) => y.year);

  return (
    <section className="ws-screen" data-screen="revenue">
      <ViewOnlyNote show={!editable} />
      <div className="ws-toolbar">
        <CaseSelect cases={live.data.values} current={current.case_id} onChange={choose} />
        <button
          type="button"
          className="button button-small button-ghost"
          data-test="revenue-csv"
          onClick={() =>
            void download(
              '/revenue/csv',
              { business_plan_id: planId, case_id: current.case_id },
              `${plan.business_plan_name}_${current.case_name}_revenue_${yyyymmdd(new Date())}.csv`,
            ).catch(() => notice({ kind: 'error', title: t('errors.title'), message: t('errors.unexpected') }))
          }
        >
          {t('ws.common.csv')}
        </button>
      </div>
      <p className={low.length > 0 ? 'ws-hint ws-warning' : 'ws-hint'} data-test="recurring-hint">
        {t('ws.revenue.hint', { rate: formatPercent(RECURRING_HINT, 0) })}
        {low.length > 0 &&
          ` ${t('ws.revenue.below', { years: low.map((y) => t('ws.common.yearN', { n: y })).join(', ') })}`}
      </p>
      <div className="ws-two">
        <div className="ws-card">
          <Chart
            testId="revenue-monthly"
            money
            title={t('ws.revenue.monthly')}
            traces={[
              {
                type: 'bar',
                name: t('ws.revenue.recurring'),
                x: months,
                y: yearData.monthly.map((x) => m(x.mrr)),
                marker: { color: '#5b3fd1' },
              },
              {
                type: 'bar',
                name: t('ws.rows.professional_service'),
                x: months,
                y: yearData.monthly.map((x) => m(x.professional_service)),
                marker: { color: '#f2a93b' },
              },
            ]}
            layout={{ barmode: 'stack', yaxis: { title: { text: t('ws.common.millions') } } }}
          />
        </div>
        <div className="ws-card">
          <Chart
            testId="revenue-cumulative"
            money
            title={t('ws.revenue.cumulative')}
            traces={[
              {
                type: 'scatter',
                mode: 'lines',
                fill: 'tozeroy',
                name: t('ws.revenue.cumulativeRevenue'),
                x: months,
                y: yearData.monthly.map((x) => m(x.cumulative_revenue)),
                line: { color: '#2bb3a3' },
              },
            ]}
            layout={{ yaxis: { title: { text: t('ws.common.millions') } } }}
          />
        </div>
      </div>
      <div className="ws-card">
        <YearTable
          rows={rows}
          headers={[1, 2, 3, 4, 5, 6].map((n) => t('ws.common.yearN', { n }))}
          editable={editable}
          onEdit={onEdit}
          testId="revenue-table"
        />
      </div>
    </section>
  );
}
