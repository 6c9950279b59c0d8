import type { CostGroupYear, CostItemYear, CostYear, PlanWorkbook } from '@topline/engine';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { Chart } from '../charts/Chart';
import { DataGrid } from '../grid/DataGrid';
import { type TableRow, YearTable } from '../grid/YearTable';
import { useShell } from '../shell/ShellContext';
import { CaseSelect } from '../working/CaseSelect';
import { useCurrentCase } from '../working/currentCase';
import { roleOf } from '../working/data';
import { caseIndexIn, type EngineSession } from '../working/engine';
import { formatNumber, formatPercent } from '../working/format';
import { useLiveAnswer } from '../working/live';
import { Confirm, Tabs, useScreenReady, ViewOnlyNote } from '../working/ui';
import { COST_CATEGORIES, type CostGroup, type CostItemDraft, CostItemForm } from './expenses/CostItemForm';

type GroupKey = CostGroup | 'all';
interface CostCase {
  case_id: number;
  case_name: string;
  cost: { year: number; total_cost: number | null; groups: Partial<Record<GroupKey, CostGroupYear>> }[];
}
interface CostAnswer {
  values: CostCase[];
  visible_groups: CostGroup[];
}

const GROUPS = Object.keys(COST_CATEGORIES) as CostGroup[];

const computeCost = (wb: PlanWorkbook, engine: EngineSession, previous: CostAnswer | null): CostAnswer => {
  const visible = previous?.visible_groups ?? GROUPS;
  const all = visible.length === GROUPS.length;
  return {
    visible_groups: visible,
    values: engine.caseIds.map((caseId, index) => ({
      case_id: caseId,
      case_name: wb.plan.cases[index]?.case_name ?? '',
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
  const live = useLiveAnswer<CostAnswer>(planId, '/cost/retrieve', {}, computeCost);
  const { current, choose } = useCurrentCase(planId, live.data?.values ?? []);
  const visible = live.data?.visible_groups ?? [];
  const [tab, setTab] = useState<CostGroup | null>(null);
  const group = tab && visible.includes(tab) ? tab : visible[0];
  const [form, setForm] = useState<{ item: CostItemDraft | null } | null>(null);
  const [deleting, setDeleting] = useState<CostItemYear | null>(null);
  useScreenReady(live.data !== null);
  const { edit, engine } = live;

  const yearCost = current?.cost[year - 1];
  const groupYear = group ? yearCost?.groups[group] : undefined;
  const editable = group ? roleOf(plan, group) === 'can_edit' : false;

  const columns = useMemo<ColDef<CostItemYear>[]>(
    () => [
      {
        headerName: t('ws.cost.category'),
        field: 'item_title',
        width: 140,
        valueFormatter: (p) => t(`ws.cost.categories.${String(p.value).replace(/^[a-z]+_/, '')}`),
      },
      { headerName: t('ws.cost.itemName'), field: 'item_name', flex: 1, minWidth: 140 },
      {
        headerName: t('ws.cost.price'),
        field: 'price',
        type: 'rightAligned',
        width: 120,
        valueFormatter: (p) => formatNumber(p.value as number),
      },
      {
        headerName: t('ws.cost.term'),
        colId: 'term',
        width: 170,
        valueGetter: (p) =>
          p.data
            ? `${p.data.start_year}/${String(p.data.start_month).padStart(2, '0')} - ${p.data.end_year}/${String(p.data.end_month).padStart(2, '0')}`
            : '',
      },
      {
        headerName: t('ws.cost.yearTotal'),
        field: 'total',
        type: 'rightAligned',
        width: 140,
        valueFormatter: (p) => formatNumber(p.value as number),
      },
      ...(editable
        ? [
            {
              headerName: '',
              colId: 'actions',
              width: 150,
              cellRenderer: (p: ICellRendererParams<CostItemYear>) =>
                p.data ? (
                  <span className="ws-row-actions">
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => p.data && setForm({ item: p.data as unknown as CostItemDraft })}
                    >
                      {t('ws.common.edit')}
                    </button>
                    <button type="button" className="link-button" onClick={() => p.data && setDeleting(p.data)}>
                      {t('ws.common.delete')}
                    </button>
                  </span>
                ) : null,
            } satisfies ColDef<CostItemYear>,
          ]
        : []),
    ],
    [t, editable],
  );

  if (!live.data || !current || !yearCost) return <section className="ws-screen" data-screen="expenses" />;
  const caseIndex = caseIndexIn(engine, current.case_id);
  const monthsLabels = Array.from({ length: 12 }, (_, i) => {
    const index = plan.start_month - 1 + (year - 1) * 12 + i;
    return `${plan.start_year + Math.floor(index / 12)}/${String((index % 12) + 1).padStart(2, '0')}`;
  });
  const firstMonth = {
    year: plan.start_year + Math.floor((plan.start_month - 1 + (year - 1) * 12) / 12),
    month: ((plan.start_month - 1 + (year - 1) * 12) % 12) + 1,
  };

  const saveItem = async (draft: CostItemDraft) => {
    const isNew = draft.cost_id === undefined;
    const item = { ...draft, cost_id: draft.cost_id ?? `new-${Date.now()}` };
    const { cost_id: _id, ...fields } = item;
    await edit(caseIndex >= 0 ? [{ type: 'costItem', caseIndex, item }] : null, () =>
      isNew
        ? api.post('/cost/create', { business_plan_id: planId, case_id: current.case_id, year, item: fields })
        : api.post('/cost/edit', {
            business_plan_id: planId,
            case_id: current.case_id,
            cost_id: draft.cost_id,
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
            <div className={`ws-stat${groupYear.over_budget ? ' ws-negative' : ''}`}>
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
              title={t('ws.cost.chartTitle')}
              traces={[
                ...groupYear.detail.map((d) => ({
                  type: 'bar' as const,
                  name: d.item_name,
                  x: monthsLabels,
                  y: d.monthly.map((v) => (v === null ? null : v / 1000)),
                })),
                {
                  type: 'scatter' as const,
                  mode: 'lines',
                  name: t('ws.cost.budgetMonthly'),
                  x: monthsLabels,
                  y: monthsLabels.map(() => (groupYear.budget === null ? null : groupYear.budget / 12 / 1000)),
                  line: { color: '#d1364b', dash: 'dot' },
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
            void edit(
              caseIndex >= 0 && item.cost_id !== null
                ? [{ type: 'deleteCostItem', caseIndex, costId: item.cost_id }]
                : null,
              () =>
                api.post('/cost/delete', { business_plan_id: planId, case_id: current.case_id, cost_id: item.cost_id }),
            );
          }}
        />
      )}
    </section>
  );
}
