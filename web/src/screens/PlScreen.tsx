import { type ColorSet, caseNameEdits, caseYearEdits, type InputOf, modelEdits } from '@topline/contract';
import type { PlanWorkbook } from '@topline/engine';
import type { CompareMeasure } from '@topline/engine/shapes';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { Chart } from '../charts/Chart';
import { yyyymmdd } from '../format/numbers';
import { type TableRow, YearTable } from '../grid/YearTable';
import { useNotice } from '../notices';
import { canEdit, levelOf } from '../plan/access';
import { download, useRetrieve } from '../plan/answers';
import { caseLabel } from '../plan/caseNames';
import { useCurrentCase } from '../plan/currentCase';
import { type EngineSession, followSave, resyncEngine, type SavedAnswer } from '../plan/engineSession';
import { useLiveAnswer } from '../plan/live';
import { useSession } from '../session';
import { useShell } from '../shell/ShellContext';
import { XlsxDownloadButton } from './common/SpreadsheetDownloads';
import { useScreenReady, ViewOnlyNote } from './common/ui';
import { CaseComparisonTable } from './pl/CaseComparisonTable';
import { CaseTabs } from './pl/CaseTabs';
import { ColorEditor } from './pl/ColorEditor';
import { CompareToolbar } from './pl/CompareToolbar';
import { compareTraces, shownCases } from './pl/compareModel';
import { GrowthModel } from './pl/GrowthModel';
import { useSnapshots } from './pl/SnapshotChoice';
import { PerHeadSuggestion } from './pl/SuggestionModal';
import type { PlAnswer } from './pl/types';
import '../styles/screens/pl.css';

const computePl = (wb: PlanWorkbook, engine: EngineSession, previous: PlAnswer | null): PlAnswer => ({
  values: engine.caseIds.map((caseId, index) => {
    const c = wb.plan.cases[index];
    return {
      case_id: caseId,
      case_name: c?.case_name ?? '',
      case_rate: c?.case_rate ?? 1,
      model: c?.model ?? null,
      pl: wb.annualPl(index),
    };
  }),
  colors: previous?.colors ?? [],
});

type CaseEdit = InputOf<'caseEdit'>;
type EditKey = CaseEdit['key'];

/** The P&L rows of working-screens.md section 2, with the keys a per-year edit saves. */
const PL_ROWS: { key: string; format: TableRow['format']; editKey?: EditKey; level?: number }[] = [
  { key: 'arr', format: 'money', editKey: 'arr' },
  { key: 'revenue', format: 'money' },
  { key: 'cogs', format: 'money' },
  { key: 'cogs_rate', format: 'percent', editKey: 'cogs_rate', level: 2 },
  { key: 'gross_profit', format: 'money' },
  { key: 'gross_profit_rate', format: 'percent', level: 2 },
  { key: 'operating_cost', format: 'money' },
  { key: 'operating_cost_rate', format: 'percent', level: 2 },
  { key: 'sm', format: 'money', level: 3 },
  { key: 'sm_rate', format: 'percent', editKey: 'sm_rate', level: 4 },
  { key: 'rd', format: 'money', level: 3 },
  { key: 'rd_rate', format: 'percent', editKey: 'rd_rate', level: 4 },
  { key: 'ga', format: 'money', level: 3 },
  { key: 'ga_rate', format: 'percent', editKey: 'ga_rate', level: 4 },
  { key: 'operating_pl', format: 'money' },
  { key: 'operating_pl_rate', format: 'percent', level: 2 },
  { key: 'employees', format: 'count', editKey: 'employees' },
  { key: 'arr_per_headcount', format: 'money' },
  { key: 'revenue_per_headcount', format: 'money' },
  { key: 'required_cash', format: 'money' },
];

/** Annual P&L (working-screens.md section 2): cases, growth model, chart, comparison, detail table, CSV, colours. */
export default function PlScreen() {
  const { t } = useTranslation();
  const { plan } = useShell();
  const { refresh } = useSession();
  const notice = useNotice();
  const planId = plan.business_plan_id;
  const live = useLiveAnswer(planId, '/pl/retrieve', { business_plan_id: planId }, computePl);
  const { current: chosenCase, choose: setChosen } = useCurrentCase(planId, live.data?.values ?? []);
  const chosen = chosenCase?.case_id ?? null;
  const [compare, setCompare] = useState(false);
  const [measure, setMeasure] = useState<CompareMeasure>('arr');
  // Snapshots follow the monthly P&L area: its role, and the owner's tier (Basic or Team).
  const readsSnapshots = !plan.locked.includes('monthly_pl') && levelOf(plan, 'monthly_pl') !== 'no_access';
  const snapshots = useSnapshots(planId, readsSnapshots);
  const [snapshotId, setSnapshotId] = useState<number | null>(null);
  const snapshotName = snapshots?.find((s) => s.id === snapshotId)?.name;
  // Cases side by side: the engine's comparison, read while comparing and again after every change of the plan; a
  // snapshot chosen is set beside the cases.
  const comparison = useRetrieve(
    '/pl/compare',
    { business_plan_id: planId, snapshot_id: snapshotName === undefined ? undefined : (snapshotId ?? undefined) },
    compare,
  );
  const reloadComparison = comparison.reload;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new P&L answer is the trigger
  useEffect(() => {
    if (compare) void reloadComparison();
  }, [live.data]);
  const editable = canEdit(plan, 'pl');
  useScreenReady(live.data !== null);

  const cases = live.data?.values ?? [];
  const current = cases.find((c) => c.case_id === chosen) ?? cases[0];
  const caseIndex = current ? cases.indexOf(current) : 0;
  const colors = live.data?.colors ?? [];
  const palette = colors[Math.min(caseIndex, colors.length - 1)] ?? colors[0];
  const yearHeaders = [1, 2, 3, 4, 5, 6].map((y) => t('ws.common.yearN', { n: y }));

  const rows = useMemo<TableRow<EditKey>[]>(
    () =>
      current
        ? PL_ROWS.map((r) => ({
            ...r,
            label: t(`ws.rows.${r.key}`),
            values: current.pl.map((y) => (y as unknown as Record<string, number | null>)[r.key] ?? null),
          }))
        : [],
    [current, t],
  );

  const { edit } = live;
  const afterPlanChange = useCallback(async () => {
    await refresh();
  }, [refresh]);

  const onCellEdit = useCallback(
    (row: TableRow<EditKey>, index: number, value: number | null) => {
      const key = row.editKey;
      if (!current || !key) return;
      const request: CaseEdit = { business_plan_id: planId, case_id: current.case_id, year: index + 1, key, value };
      void edit(
        (ids) => caseYearEdits(request, ids),
        () => api.post('/case/edit', request),
      );
    },
    [current, edit, planId],
  );

  if (!live.data || !current) return <section className="ws-screen" data-screen="pl" />;
  const millions = (v: number | null) => (v === null ? null : v / 1_000_000);

  const label = (name: string) => caseLabel(name, t);
  const snapshotLabel = (name: string | undefined) =>
    name === undefined ? null : t('ws.budget.snapshotColumn', { name });
  const compared = compare && comparison.data ? shownCases(comparison.data, snapshotLabel(snapshotName)) : null;
  const traces = compared
    ? compareTraces(
        compared,
        measure,
        yearHeaders,
        compared.map((_, i) => colors[i]?.arr),
        label,
      )
    : [
        {
          type: 'bar' as const,
          name: t('ws.rows.arr'),
          x: yearHeaders,
          y: current.pl.map((y) => millions(y.arr)),
          marker: { color: palette?.arr },
        },
        {
          type: 'bar' as const,
          name: t('ws.rows.gross_profit'),
          x: yearHeaders,
          y: current.pl.map((y) => millions(y.gross_profit)),
          marker: { color: palette?.gross_profit },
        },
        {
          type: 'bar' as const,
          name: t('ws.rows.operating_pl'),
          x: yearHeaders,
          y: current.pl.map((y) => millions(y.operating_pl)),
          marker: { color: palette?.pl },
        },
      ];

  return (
    <section className="ws-screen" data-screen="pl">
      <ViewOnlyNote show={!editable} />
      <CaseTabs
        cases={cases}
        current={current.case_id}
        onSelect={setChosen}
        editable={editable}
        onAdd={async (name, rate) => {
          let saved: SavedAnswer | undefined;
          try {
            const answer = await api.post('/case/create', {
              business_plan_id: planId,
              case_name: name,
              case_rate: rate,
            });
            saved = answer;
            setChosen(answer.data.new_case_id);
          } finally {
            await live.reload();
            await afterPlanChange();
            // The workbook adds the case as the answer's change set has it (its id included).
            if (saved) void followSave(String(planId), saved, { applied: false });
            else void resyncEngine(String(planId));
          }
        }}
        onRename={async (caseId, name) => {
          const request = { business_plan_id: planId, case_id: caseId, case_name: name };
          await edit(
            (ids) => caseNameEdits(request, ids),
            () => api.post('/casename/edit', request),
          );
          await afterPlanChange();
        }}
        onDelete={async (caseId) => {
          await edit(null, () => api.post('/case/delete', { business_plan_id: planId, case_id: caseId }));
          setChosen(null);
          await afterPlanChange();
        }}
      />
      <div className="ws-toolbar">
        <GrowthModel
          model={current.model}
          editable={editable}
          onSave={async (name, rates) => {
            const request: InputOf<'modelEdit'> = {
              business_plan_id: planId,
              case_id: current.case_id,
              model: { name, rates },
            };
            await edit(
              (ids) => modelEdits(request, current.model?.model_rate ?? rates, ids),
              () => api.post('/model/edit', request),
            );
          }}
        />
        <div className="ws-toolbar-right">
          {(cases.length > 1 || (snapshots?.length ?? 0) > 0) && (
            <label className="ws-switch">
              <input
                type="checkbox"
                checked={compare}
                data-test="compare-toggle"
                onChange={(e) => setCompare(e.target.checked)}
              />
              {t('ws.pl.compare')}
            </label>
          )}
          <button
            type="button"
            className="button button-small button-ghost"
            data-test="pl-csv"
            onClick={() =>
              void download(
                '/pl/csv',
                { business_plan_id: planId, case_id: current.case_id },
                `${plan.business_plan_name}_${current.case_name}_pl_${yyyymmdd(new Date())}.csv`,
              ).catch(() => notice({ kind: 'error', title: t('errors.title'), message: t('errors.unexpected') }))
            }
          >
            {t('ws.common.csv')}
          </button>
          <XlsxDownloadButton planId={planId} planName={plan.business_plan_name} />
        </div>
      </div>
      {compare && (
        <CompareToolbar
          measure={measure}
          onMeasure={setMeasure}
          planId={planId}
          planName={plan.business_plan_name}
          onError={() => notice({ kind: 'error', title: t('errors.title'), message: t('errors.unexpected') })}
          snapshots={snapshots}
          snapshot={snapshotId}
          onSnapshot={setSnapshotId}
        />
      )}
      <PerHeadSuggestion planId={planId} caseId={current.case_id} />
      <div className="ws-card">
        <Chart
          traces={traces}
          testId="pl-chart"
          money
          title={compared ? t('ws.compare.chartTitle', { measure: t(`ws.compare.measures.${measure}`) }) : undefined}
          layout={{ yaxis: { title: { text: t('ws.common.millions') } } }}
        />
      </div>
      {compared && (
        <div className="ws-card">
          <CaseComparisonTable cases={compared} yearHeaders={yearHeaders} label={label} />
        </div>
      )}
      <div className="ws-card" hidden={compare}>
        <YearTable
          rows={rows}
          headers={yearHeaders}
          editable={editable}
          onEdit={onCellEdit}
          testId="pl-table"
          firstColumn={200}
          explain={(row, i) => ({ caseId: current.case_id, year: i + 1, period: 'cy', key: row.key })}
        />
      </div>
      <ColorEditor
        colors={colors}
        editable={editable}
        onSave={async (next: ColorSet[]) => {
          try {
            const answer = await api.post('/pl/color', { business_plan_id: planId, colors: next });
            if (answer.status !== 201 && answer.status !== 200) return false;
            notice({ kind: 'success', title: t('ws.common.saved'), message: t('ws.pl.colorsSaved') });
            await live.reload();
            return true;
          } catch {
            return false;
          }
        }}
      />
    </section>
  );
}
