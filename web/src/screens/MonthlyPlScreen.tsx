import { COMMENT_MAX } from '@topline/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ExplainSnapshot } from '../explain/CellExplain';
import { useLocalExplain } from '../explain/useLocalExplain';
import { useCellMessages } from '../grid/CellMessages';
import { useNotice } from '../notices';
import { canEdit } from '../plan/access';
import { useRetrieve } from '../plan/answers';
import { useCurrentCase } from '../plan/currentCase';
import { followSave, resyncEngine, type SavedAnswer, useEngine, wantEngine } from '../plan/engineSession';
import { useShell } from '../shell/ShellContext';
import { SpreadsheetButton } from '../spreadsheet/SpreadsheetModal';
import { CaseSelect } from './common/CaseSelect';
import { MonthlyCsvButton, XlsxDownloadButton, XlsxImportButton } from './common/SpreadsheetDownloads';
import { Confirm, Modal, Tabs, useScreenReady, ViewOnlyNote } from './common/ui';
import { MonthlyCharts } from './monthly/MonthlyCharts';
import { type Display, MonthlyGrid, type MonthlyGridHandle } from './monthly/MonthlyGrid';
import { columnsOf, engineView, recordsOf, type ScreenView, type Section, viewPath } from './monthly/model';
import { useMonthlyEdits } from './monthly/useMonthlyEdits';
import { SnapshotChoice, useSnapshots } from './pl/SnapshotChoice';
import { RevisePanel } from './revise/RevisePanel';
import '../styles/screens/monthly.css';

/** Monthly P&L (working-screens.md section 2): five views, the 17-column grid, edits, revision, reverse, comments. */
export default function MonthlyPlScreen() {
  const { t } = useTranslation();
  const { plan, year } = useShell();
  const notice = useNotice();
  const navigate = useNavigate();
  const planId = plan.business_plan_id;
  const cases = plan.cases;
  const { current, choose } = useCurrentCase(planId, cases);
  const [view, setView] = useState<ScreenView>('estimate');
  // The budget of progress and variance: the live plan's estimate, or a snapshot's (a plan of record).
  const snapshots = useSnapshots(planId);
  const [budget, setBudget] = useState<number | null>(null);
  const chosen = snapshots?.find((s) => s.id === budget) ?? null;
  const compared = view === 'progress' || view === 'variance' ? (chosen?.id ?? undefined) : undefined;
  // The screen shows one plan year at a time and asks for just that year (a sixth of the six-year answer).
  const monthly = useRetrieve(
    '/pl/monthly/retrieve',
    { business_plan_id: planId, case_id: current?.case_id, year, snapshot_id: compared },
    current !== null || cases.length === 0,
  );
  // Without a case list the API answers the first case.
  const caseId = current?.case_id ?? monthly.data?.case_id;
  const engine = useEngine(planId);
  // The actual view marks what was entered and what is the forecast, from the plan file the workbook holds.
  useEffect(() => {
    if (view === 'actual') wantEngine(planId);
  }, [view, planId]);
  const [variance, setVariance] = useState<'rate' | 'value'>('rate');
  const [display, setDisplay] = useState<Display>({ months: true, quarters: false, cy: true });
  const [collapsed, setCollapsed] = useState<ReadonlySet<Section>>(new Set());
  const [commenting, setCommenting] = useState<{ index: number; text: string } | null>(null);
  const [leaving, setLeaving] = useState<string | null>(null);
  const editMonthly = canEdit(plan, 'monthly_pl');
  const editActuals = canEdit(plan, 'actuals');
  const allowedEdit = view === 'estimate' ? editMonthly : view === 'actual' ? editActuals : false;
  useScreenReady(monthly.data !== null);

  const eView = engineView(view, variance);
  // An answer read against another budget than the one chosen is not shown while the chosen one loads.
  const answer = monthly.data && monthly.data.snapshot?.id === compared ? monthly.data : null;
  const yearData = answer?.monthly_pl.find((entry) => entry.year === year);
  const serverColumns = useMemo(
    () =>
      yearData ? columnsOf(recordsOf(yearData, eView), year, { path: viewPath(eView), dashes: yearData.dashes }) : [],
    [yearData, eView, year],
  );
  const monthLabels = useMemo(
    () => serverColumns.filter((c) => c.monthType === 'month').map((c) => c.month),
    [serverColumns],
  );

  const grid = useRef<MonthlyGridHandle>(null);
  const cellMessages = useCellMessages();
  const toggleSection = useCallback(
    (section: Section) =>
      setCollapsed((prev) => {
        const next = new Set(prev);
        if (next.has(section)) next.delete(section);
        else next.add(section);
        return next;
      }),
    [],
  );
  const { columns, editing, actions, reset, revise, saveComment, enteredAt, unsaved } = useMonthlyEdits({
    planId,
    caseId,
    year,
    template: plan.template,
    view,
    engineView: eView,
    engine,
    serverColumns,
    reloadAnswer: monthly.reload,
    grid,
    toggleSection,
    openMemo: (index) => setCommenting({ index, text: columns[index]?.comment ?? '' }),
    fieldError: cellMessages.show,
    clearColumn: cellMessages.clearColumn,
  });

  // While the grid shows values not saved yet, the explain panel reads them from the browser's workbook.
  useLocalExplain(unsaved, engine, plan);

  // A change of year, view or case leaves edit mode without saving.
  // biome-ignore lint/correctness/useExhaustiveDependencies: these are the triggers
  useEffect(() => {
    reset();
    cellMessages.clearAll();
  }, [year, view, caseId]);

  // Leaving with a column in edit mode asks first; confirming clears every edit flag.
  useEffect(() => {
    if (editing.size === 0) return;
    const onClick = (event: MouseEvent) => {
      const anchor = (event.target as HTMLElement | null)?.closest('a[href]');
      if (!anchor || anchor.getAttribute('target') === '_blank') return;
      const href = anchor.getAttribute('href') ?? '';
      if (href.startsWith('#') || href === window.location.pathname) return;
      event.preventDefault();
      event.stopPropagation();
      setLeaving(href);
    };
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onUnload);
    };
  }, [editing]);

  const toggleDisplay = (key: keyof Display) => {
    const next = { ...display, [key]: !display[key] };
    if (!next.months && !next.quarters && !next.cy) {
      notice({ kind: 'error', title: t('ws.monthly.display'), message: t('ws.monthly.cannotAllOff') });
      return;
    }
    setDisplay(next);
  };

  // After an import, the screen reads its answer again and the browser's workbook follows the import's change set.
  const afterImport = (answer: SavedAnswer) => {
    monthly.reload();
    void followSave(String(planId), answer, { applied: false });
  };

  const saveMemo = () => {
    if (!commenting) return;
    setCommenting(null);
    void saveComment(commenting.index, commenting.text);
  };

  if (caseId === undefined) return <section className="ws-screen" data-screen="monthly_pl" />;
  return (
    <section className="ws-screen" data-screen="monthly_pl" data-engine={engine ? 'ready' : 'waiting'}>
      <ViewOnlyNote show={!editMonthly && !editActuals} />
      <div className="ws-toolbar">
        <CaseSelect cases={cases} current={caseId} onChange={choose} />
        <Tabs
          label={t('ws.monthly.views')}
          current={view}
          onChange={setView}
          testId="monthly-views"
          tabs={(['estimate', 'revise', 'actual', 'progress', 'variance'] as const).map((key) => ({
            key,
            label: t(`ws.monthly.view.${key}`),
          }))}
        />
        {(view === 'progress' || view === 'variance') && (
          <SnapshotChoice
            snapshots={snapshots}
            current={budget}
            onChange={setBudget}
            label={t('ws.budget.label')}
            none={t('ws.budget.live')}
            testId="budget-snapshot"
          />
        )}
        <MonthlyCsvButton
          planId={planId}
          caseId={caseId}
          year={year}
          view={view}
          variance={variance}
          snapshotId={compared}
        />
        <XlsxDownloadButton planId={planId} planName={plan.business_plan_name} snapshotId={compared} />
        {editActuals && <XlsxImportButton planId={planId} onImported={afterImport} />}
        <SpreadsheetButton planId={planId} isOwner={plan.is_owner} onImported={afterImport} />
      </div>
      <div className="ws-toolbar">
        <fieldset className="ws-display" data-test="display-filter">
          <legend>{t('ws.monthly.display')}</legend>
          {(['months', 'quarters', 'cy'] as const).map((key) => (
            <label key={key} className="ws-switch">
              <input
                type="checkbox"
                checked={display[key]}
                data-test={`display-${key}`}
                onChange={() => toggleDisplay(key)}
              />
              {t(`ws.monthly.show.${key}`)}
            </label>
          ))}
        </fieldset>
        {view === 'variance' && (
          <Tabs
            label={t('ws.monthly.varianceMode')}
            current={variance}
            onChange={setVariance}
            testId="variance-mode"
            tabs={[
              { key: 'rate', label: t('ws.monthly.rate') },
              { key: 'value', label: t('ws.monthly.value') },
            ]}
          />
        )}
      </div>
      {compared !== undefined && answer?.snapshot && chosen && (
        <p className="muted" data-test="budget-note">
          {t('ws.budget.note', { name: chosen.name, case: answer.snapshot.case_name })}
        </p>
      )}
      {view === 'revise' && (
        <div className="ws-card">
          <RevisePanel
            planId={planId}
            caseId={caseId}
            year={year}
            editable={editMonthly}
            onRevise={(pattern) =>
              revise(pattern, () =>
                notice({ kind: 'success', title: t('ws.common.saved'), message: t('ws.monthly.revised') }),
              )
            }
          />
        </div>
      )}
      {yearData && (
        <>
          <div className="ws-card ws-grid-card">
            {/* Against a snapshot, a figure explains against it. */}
            <ExplainSnapshot.Provider value={compared}>
              <MonthlyGrid
                handle={grid}
                columns={columns}
                template={plan.template}
                view={view}
                variance={variance}
                display={display}
                editing={editing}
                allowedEdit={allowedEdit}
                collapsed={collapsed}
                actions={actions}
                messages={cellMessages}
                enteredAt={engine ? enteredAt : undefined}
                caseId={caseId}
              />
            </ExplainSnapshot.Provider>
          </div>
          <MonthlyCharts graph={yearData.graph} months={monthLabels} template={plan.template} />
        </>
      )}
      {commenting && (
        <Modal
          title={t('ws.monthly.memo')}
          onClose={() => setCommenting(null)}
          testId="memo-modal"
          footer={
            <button type="button" className="button button-primary" disabled={!editMonthly} onClick={saveMemo}>
              {t('ws.common.save')}
            </button>
          }
        >
          <textarea
            className="ws-textarea"
            value={commenting.text}
            maxLength={COMMENT_MAX}
            disabled={!editMonthly}
            onChange={(e) => setCommenting({ ...commenting, text: e.target.value })}
          />
        </Modal>
      )}
      {leaving && (
        <Confirm
          title={t('ws.monthly.leaveTitle')}
          message={t('ws.monthly.leaveMessage')}
          onCancel={() => setLeaving(null)}
          onConfirm={() => {
            const target = leaving;
            reset();
            setLeaving(null);
            void resyncEngine(String(planId), true);
            navigate(target);
          }}
        />
      )}
    </section>
  );
}
