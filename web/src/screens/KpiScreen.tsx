import { caseYearEdits, type InputOf } from '@topline/contract';
import type { PlanWorkbook } from '@topline/engine';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnswerAt } from '../api/client';
import { api } from '../api/client';
import { Chart } from '../charts/Chart';
import { yyyymmdd } from '../format/numbers';
import { type TableRow, YearTable } from '../grid/YearTable';
import { useNotice } from '../notices';
import { canEdit } from '../plan/access';
import { download } from '../plan/answers';
import { useCurrentCase } from '../plan/currentCase';
import type { EngineSession } from '../plan/engineSession';
import { useLiveAnswer } from '../plan/live';
import { useShell } from '../shell/ShellContext';
import { CaseSelect } from './common/CaseSelect';
import { Tabs, useScreenReady, ViewOnlyNote } from './common/ui';

type CaseEdit = InputOf<'caseEdit'>;
type EditKey = CaseEdit['key'];

const computeKpi = (wb: PlanWorkbook, engine: EngineSession): AnswerAt<'/kpi/retrieve'> => ({
  values: engine.caseIds.map((caseId, index) => ({
    case_id: caseId,
    case_name: wb.plan.cases[index]?.case_name ?? '',
    case_rate: wb.plan.cases[index]?.case_rate ?? 1,
    kpi: wb.kpi(index),
  })),
});

const YEARLY_SAAS = ['session', 'lead', 'meeting', 'order', 'churn', 'cumulative'];
const YEARLY_SELF = ['session', 'registration', 'order', 'churn', 'cumulative'];

type Row = { format: TableRow['format']; level?: number; digits?: number; source?: string } & (
  | { key: EditKey; edit: true }
  | { key: string; edit?: false }
);

/** Editable per-year assumptions of the KPI area (section 2), rates as percentages (churn with two decimals). */
function summaryRows(template: string): Row[] {
  const funnel: Row[] =
    template === 'saas'
      ? [
          { key: 'lead_rate', format: 'percent', edit: true },
          { key: 'meeting_rate', format: 'percent', edit: true },
          { key: 'order_rate', format: 'percent', edit: true },
        ]
      : [
          { key: 'registration_rate', format: 'percent', edit: true },
          { key: 'billing_rate', format: 'percent', edit: true },
        ];
  return [
    { key: 'arr', format: 'money' },
    { key: 'mrr', format: 'money' },
    { key: 'arpa', format: 'money', edit: true },
    { key: 'upselling_rate', format: 'percent', edit: true },
    { key: 'upselling_month', format: 'count', edit: true },
    { key: 'churn_rate', format: 'percent', edit: true, digits: 2 },
    ...funnel,
  ];
}

function periodRows(template: string, quarterly: boolean): Row[] {
  const counts: Row[] =
    template === 'saas'
      ? [
          { key: 'session', format: 'count' },
          { key: 'lead', format: 'count' },
          { key: 'lead_cvr', format: 'percent', level: 2 },
          { key: 'meeting', format: 'count' },
          { key: 'meeting_cvr', format: 'percent', level: 2 },
          { key: 'order', format: 'count' },
          { key: 'order_cvr', format: 'percent', level: 2 },
        ]
      : [
          { key: 'session', format: 'count' },
          { key: 'registration', format: 'count' },
          { key: 'registration_cvr', format: 'percent', level: 2 },
          { key: 'billing', format: 'count' },
          { key: 'order_cvr', format: 'percent', level: 2 },
        ];
  return [
    ...(quarterly ? [{ key: 'progress_rate', format: 'percent' as const }] : []),
    ...counts,
    { key: 'churn', format: 'count' },
    { key: 'churn_cvr', format: 'percent', level: 2, digits: 2 },
    // The customer count at the end of the period: "Customers", or for self-serve "Paying customers" (every customer
    // of a self-serve plan pays; new paid sign-ups are the billing row above).
    template === 'saas'
      ? { key: 'cumulative', format: 'count' }
      : { key: 'paid', source: 'cumulative', format: 'count' },
    { key: 'arpa', format: 'money' },
    { key: 'mrr', format: 'money' },
    { key: 'arr', format: 'money' },
  ];
}

/** KPI (working-screens.md section 2): summary, monthly and quarterly views, editable rates, CSV. */
export default function KpiScreen() {
  const { t } = useTranslation();
  const { plan, year } = useShell();
  const notice = useNotice();
  const planId = plan.business_plan_id;
  const live = useLiveAnswer(planId, '/kpi/retrieve', { business_plan_id: planId }, computeKpi);
  const { current, choose } = useCurrentCase(planId, live.data?.values ?? []);
  const [view, setView] = useState<'summary' | 'monthly' | 'quarterly'>('summary');
  const editable = canEdit(plan, 'kpi');
  const template = plan.template;
  useScreenReady(live.data !== null);
  const { edit } = live;
  const yearData = current?.kpi[year - 1];

  const rows = useMemo<TableRow<EditKey>[]>(() => {
    if (!current || !yearData) return [];
    const label = (key: string) => t(`ws.rows.${key}`);
    if (view === 'summary') {
      const assumptionRows: TableRow<EditKey>[] = summaryRows(template).map((r) => ({
        key: r.key,
        label: label(r.key),
        format: r.format,
        ...(r.digits ? { digits: r.digits } : {}),
        ...(r.edit ? { editKey: r.key } : {}),
        values: current.kpi.map((y) =>
          r.key === 'arr' || r.key === 'mrr' ? y[r.key] : (y.assumptions[r.key] ?? null),
        ),
      }));
      // The yearly totals of the funnel (flows summed over the year, customers at its end).
      const totals = (template === 'saas' ? YEARLY_SAAS : YEARLY_SELF).map((key) => ({
        key: `yearly_${key}`,
        label: `${label(key)} (${t('ws.kpi.yearTotal')})`,
        format: 'count' as const,
        level: 3,
        values: current.kpi.map((y) => y.yearly[key] ?? null),
      }));
      return [...assumptionRows, ...totals];
    }
    const periods = view === 'monthly' ? yearData.monthly : yearData.quarterly;
    return periodRows(template, view === 'quarterly').map((r) => ({
      key: r.key,
      label: label(r.key),
      format: r.format,
      level: r.level ?? 1,
      ...(r.digits ? { digits: r.digits } : {}),
      values: periods.map((p) => {
        const v = p[r.source ?? r.key];
        return typeof v === 'number' ? v : null;
      }),
    }));
  }, [current, yearData, view, template, t]);

  const headers =
    view === 'summary'
      ? [1, 2, 3, 4, 5, 6].map((n) => t('ws.common.yearN', { n }))
      : view === 'monthly'
        ? (yearData?.monthly.map((m) => String(m.month)) ?? [])
        : [1, 2, 3, 4].map((q) => `Q${q}`);

  const onEdit = useCallback(
    (row: TableRow<EditKey>, index: number, value: number | null) => {
      if (!current || !row.editKey) return;
      const request: CaseEdit = {
        business_plan_id: planId,
        case_id: current.case_id,
        year: index + 1,
        key: row.editKey,
        value,
      };
      void edit(
        (ids) => caseYearEdits(request, ids),
        () => api.post('/case/edit', request),
      );
    },
    [current, edit, planId],
  );

  if (!live.data || !current || !yearData) return <section className="ws-screen" data-screen="kpi" />;
  const months = yearData.monthly.map((m) => String(m.month));
  const series = (key: string) => yearData.monthly.map((m) => (typeof m[key] === 'number' ? (m[key] as number) : null));

  return (
    <section className="ws-screen" data-screen="kpi">
      <ViewOnlyNote show={!editable} />
      <div className="ws-toolbar">
        <CaseSelect cases={live.data.values} current={current.case_id} onChange={choose} />
        <Tabs
          label={t('ws.kpi.views')}
          current={view}
          onChange={setView}
          testId="kpi-views"
          tabs={[
            { key: 'summary', label: t('ws.kpi.summary') },
            { key: 'monthly', label: t('ws.kpi.monthly') },
            { key: 'quarterly', label: t('ws.kpi.quarterly') },
          ]}
        />
        <button
          type="button"
          className="button button-small button-ghost"
          data-test="kpi-csv"
          onClick={() =>
            void download(
              '/kpi/csv',
              { business_plan_id: planId, case_id: current.case_id, year },
              `${plan.business_plan_name}_${current.case_name}_kpi_${yyyymmdd(new Date())}.csv`,
            ).catch(() => notice({ kind: 'error', title: t('errors.title'), message: t('errors.unexpected') }))
          }
        >
          {t('ws.common.csv')}
        </button>
      </div>
      <div className="ws-card">
        <Chart
          testId="kpi-chart"
          traces={[
            { type: 'bar', name: t('ws.rows.session'), x: months, y: series('session'), marker: { color: '#c8bdf2' } },
            {
              type: 'scatter',
              mode: 'lines+markers',
              name: t(template === 'saas' ? 'ws.rows.order' : 'ws.rows.billing'),
              x: months,
              y: series('order'),
              yaxis: 'y2',
              line: { color: '#5b3fd1' },
            },
          ]}
          layout={{ yaxis2: { overlaying: 'y', side: 'right' } }}
        />
      </div>
      <div className="ws-card">
        <YearTable
          rows={rows}
          headers={headers}
          editable={editable && view === 'summary'}
          onEdit={onEdit}
          testId="kpi-table"
          firstColumn={190}
        />
      </div>
    </section>
  );
}
