import { costDeleteChanges, costItemChanges, engineEdits } from '@topline/contract';
import type { CostItemYear, CostYear, PlanWorkbook } from '@topline/engine';
import { calendarOf } from '@topline/engine/calendar';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AnswerAt, api } from '../api/client';
import { Chart } from '../charts/Chart';
import { plotlyText } from '../charts/plotlyText';
import { formatNumber, formatPercent } from '../format/numbers';
import { DataGrid } from '../grid/DataGrid';
import { type TableRow, YearTable } from '../grid/YearTable';
import { yearMonths } from '../lib/months';
import { canEdit } from '../plan/access';
import { useCurrentCase } from '../plan/currentCase';
import type { EngineSession } from '../plan/engineSession';
import { useLiveAnswer } from '../plan/live';
import { useShell } from '../shell/ShellContext';
import { CaseSelect } from './common/CaseSelect';
import { Confirm, Tabs, useScreenReady, ViewOnlyNote } from './common/ui';
import { COST_CATEGORIES, type CostGroup, type CostItemDraft, CostItemForm } from './expenses/CostItemForm';
import { useCostItemColumns } from './expenses/costItemColumns';
import '../styles/screens/expenses.css';

type CostAnswer = AnswerAt<'/cost/retrieve'>;

const GROUPS = Object.keys(COST_CATEGORIES) as CostGroup[];

const computeCost = (wb: PlanWorkbook, engine: EngineSession, previous: CostAnswer | null): CostAnswer => {
  const visible = previous?.visible_groups ?? GROUPS;
  const all = visible.length === GROUPS.length;
  return {
    visible_groups: visible,
    // The items' versions are the saved answer's until it is read again.
    versions: previous?.versions ?? {},
    values: engine.caseIds.map((caseId, index) => ({
      case_id: caseId,
      case_name: wb.plan.cases[index]?.case_name ?? '',
      case_rate: wb.plan.cases[index]?.case_rate ?? 1,
      cost: wb.costs(index).map((y: CostYear) => ({
        year: y.year,
        total_cost: all ? y.total_cost : null,
        groups: Object.fromEntries(
          Object.entries(y.groups).filter(([g]) => (g === 'all' ? all : visible.includes(g as CostGroup))),
        ),
      })),
    })),
  };
};

/** Cost (working-screens.md section 2): four groups with chart, items, budgets, warnings and a yearly overview. */
export default function ExpensesScreen() {
  const { t } = useTranslation();
  const { plan, year } = useShell();
  const planId = plan.business_plan_id;
  const live = useLiveAnswer(planId, '/cost/retrieve', { business_plan_id: planId }, computeCost);
  const { current, choose } = useCurrentCase(planId, live.data?.values ?? []);
  const visible = live.data?.visible_groups ?? [];
  const [tab, setTab] = useState<CostGroup | null>(null);
  const group = tab && visible.includes(tab) ? tab : visible[0];
  const [form, setForm] = useState<{ item: CostItemDraft | null } | null>(null);
  const [deleting, setDeleting] = useState<CostItemYear | null>(null);
  useScreenReady(live.data !== null);
  const { edit } = live;

  const yearCost = current?.cost[year - 1];
  const groupYear = group ? yearCost?.groups[group] : undefined;
  const editable = group ? canEdit(plan, group) : false;

  const itemActions = useMemo(
    () => ({
      edit: (item: CostItemYear) => setForm({ item: item as unknown as CostItemDraft }),
      remove: setDeleting,
    }),
    [],
  );
  const columns = useCostItemColumns(editable, itemActions);

  if (!live.data || !current || !yearCost) return <section className="ws-screen" data-screen="expenses" />;
  const caseId = current.case_id;
  const monthsLabels = yearMonths(plan.start_year, plan.start_month, year);
  const firstMonth = calendarOf(plan.start_year, plan.start_month, 12 * (year - 1) + 1);

  const saveItem = async (draft: CostItemDraft) => {
    const { cost_id: costId, ...fields } = draft;
    if (costId === undefined) {
      // The browser shows a new item under a stand-in id until the saved answer (with the API's id) replaces it.
      const standIn = `new-${Date.now()}`;
      await edit(
        (ids) => engineEdits(costItemChanges(caseId, null, fields), ids, standIn),
        () => api.post('/cost/create', { business_plan_id: planId, case_id: caseId, year, item: fields }),
        {
          provisional: { undo: (ids) => [{ type: 'deleteCostItem', caseIndex: ids.indexOf(caseId), costId: standIn }] },
        },
      );
      return;
    }
    await edit(
      // An item still shown under its stand-in id keeps it in the preview (the API refuses the edit until it is saved).
      (ids) =>
        engineEdits(costItemChanges(caseId, typeof costId === 'number' ? costId : null, fields), ids, String(costId)),
      () =>
        api.post('/cost/edit', {
          business_plan_id: planId,
          case_id: caseId,
          cost_id: costId,
          // The version the item was read at: an item changed since then is refused (409) rather than overwritten.
          version: live.server?.versions[String(costId)],
          ...fields,
        }),
    );
  };

  const overview: TableRow[] = [
    ...visible.map((g) => ({
      key: g,
      label: t(`ws.cost.groups.${g}`),
      format: 'money' as const,
      values: current.cost.map((y) => y.groups[g]?.total ?? null),
    })),
    ...visible.map((g) => ({
      key: `${g}_budget`,
      label: `${t(`ws.cost.groups.${g}`)} ${t('ws.cost.budget')}`,
      format: 'money' as const,
      level: 2,
      values: current.cost.map((y) => y.groups[g]?.budget ?? null),
    })),
    ...(current.cost[0]?.total_cost !== null
      ? [
          {
            key: 'total_cost',
            label: t('ws.cost.totalCost'),
            format: 'money' as const,
            values: current.cost.map((y) => y.total_cost),
          },
        ]
      : []),
  ];

  const warnings = visible.map((g) => ({ g, gy: yearCost.groups[g] })).filter(({ gy }) => gy?.over_budget);
  const allOver = yearCost.groups.all?.over_budget ?? false;

  return (
    <section className="ws-screen" data-screen="expenses">
      <div className="ws-toolbar">
        <CaseSelect cases={live.data.values} current={current.case_id} onChange={choose} />
      </div>
      {(warnings.length > 0 || allOver) && (
        <div className="ws-warning-box" role="alert" data-test="over-budget">
          {allOver && <p>{t('ws.cost.totalOver')}</p>}
          {warnings.map(({ g, gy }) => (
            <p key={g}>
              {t('ws.cost.groupOver', {
                group: t(`ws.cost.groups.${g}`),
                items: (gy?.over_budget_items ?? []).join(', '),
              })}
            </p>
          ))}
        </div>
      )}
      {group && (
        <Tabs
          label={t('ws.cost.groupsLabel')}
          current={group}
          onChange={setTab}
          testId="cost-tabs"
          tabs={visible.map((g) => ({ key: g, label: t(`ws.cost.groups.${g}`) }))}
        />
      )}
      {group && groupYear && (
        <>
          <ViewOnlyNote show={!editable} />
          <div className="ws-budget" data-test="budget-summary">
            <div className="ws-stat">
              <span>{t('ws.cost.budget')}</span>
              <strong>{formatNumber(groupYear.budget)}</strong>
            </div>
            <div className="ws-stat">
              <span>{t('ws.cost.itemsTotal')}</span>
              <strong>{formatNumber(groupYear.total)}</strong>
            </div>
            <div className={`ws-stat${groupYear.over_budget ? ' ws-over-budget' : ''}`}>
              <span>{t('ws.cost.budgetaryAverages')}</span>
              <strong data-test="budgetary-averages">
                {formatPercent(groupYear.budgetary_averages === null ? null : groupYear.budgetary_averages / 100)}
              </strong>
            </div>
            <div className="ws-stat">
              <span>{t('ws.cost.remaining')}</span>
              <strong
                className={groupYear.remaining_budget !== null && groupYear.remaining_budget < 0 ? 'ws-negative' : ''}
              >
                {formatNumber(groupYear.remaining_budget)}
              </strong>
            </div>
          </div>
          <div className="ws-card">
            <Chart
              testId="cost-chart"
              money
              title={t('ws.cost.chartTitle')}
              traces={[
                ...groupYear.detail.map((d) => ({
                  type: 'bar' as const,
                  name: plotlyText(d.item_name),
                  x: monthsLabels,
                  y: d.monthly.map((v) => (v === null ? null : v / 1000)),
                })),
                {
                  type: 'scatter' as const,
                  mode: 'lines',
                  name: t('ws.cost.budgetMonthly'),
                  x: monthsLabels,
                  y: monthsLabels.map(() => (groupYear.budget === null ? null : groupYear.budget / 12 / 1000)),
                  line: { color: '#b8283d', dash: 'dot' },
                },
              ]}
              layout={{ barmode: 'stack', yaxis: { title: { text: t('ws.common.thousands') } } }}
            />
          </div>
          <div className="ws-card">
            <header className="ws-card-header">
              <h3>{t('ws.cost.details')}</h3>
              {editable && (
                <button
                  type="button"
                  className="button button-small button-primary"
                  data-test="cost-add"
                  onClick={() => setForm({ item: null })}
                >
                  + {t('ws.cost.addItem')}
                </button>
              )}
            </header>
            <DataGrid
              rows={groupYear.detail}
              columns={columns}
              getRowId={(r) => String(r.cost_id)}
              testId="cost-items"
            />
          </div>
        </>
      )}
      <div className="ws-card">
        <h3>{t('ws.cost.overview')}</h3>
        <YearTable
          rows={overview}
          headers={[1, 2, 3, 4, 5, 6].map((n) => t('ws.common.yearN', { n }))}
          editable={false}
          testId="cost-overview"
        />
      </div>
      {form && group && (
        <CostItemForm
          group={group}
          item={form.item}
          defaults={firstMonth}
          onSubmit={saveItem}
          onClose={() => setForm(null)}
        />
      )}
      {deleting && (
        <Confirm
          title={t('ws.cost.deleteItem')}
          message={t('ws.cost.deleteConfirm', { name: deleting.item_name })}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const item = deleting;
            setDeleting(null);
            // An item shown under a stand-in id is not saved yet, so there is nothing to delete.
            const costId = item.cost_id;
            if (typeof costId !== 'number') return;
            void edit(
              (ids) => engineEdits(costDeleteChanges(caseId, costId), ids),
              () => api.post('/cost/delete', { business_plan_id: planId, case_id: caseId, cost_id: costId }),
            );
          }}
        />
      )}
    </section>
  );
}
