import type { GridColumn, PlanEdit } from '@topline/engine';
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../api/client';
import { useNotice } from '../notices';
import { useShell } from '../shell/ShellContext';
import { CaseSelect } from '../working/CaseSelect';
import { useCurrentCase } from '../working/currentCase';
import { canEdit, planCases, useRetrieve } from '../working/data';
import { applyLocal, caseIndexIn, resyncEngine, useEngine } from '../working/engine';
import { Confirm, Modal, Tabs, useScreenReady, ViewOnlyNote } from '../working/ui';
import { MonthlyCharts } from './monthly/MonthlyCharts';
import { type Display, type GridActions, MonthlyGrid, type MonthlyGridHandle } from './monthly/MonthlyGrid';
import {
  columnsOf,
  commentSection,
  engineView,
  type MonthlyAnswer,
  recordsOf,
  type ScreenView,
  type Section,
} from './monthly/model';

/** Runs a callback once the browser has painted its next frame. */
const afterPaint = (callback: () => void) => requestAnimationFrame(() => setTimeout(callback, 0));

/** Monthly P&L (working-screens.md section 2): five views, the 17-column grid, edits, revision, reverse, comments. */
export default function MonthlyPlScreen() {
  const { t } = useTranslation();
  const { plan, year } = useShell();
  const notice = useNotice();
  const navigate = useNavigate();
  const planId = plan.business_plan_id;
  const cases = planCases(plan);
  const { current, choose } = useCurrentCase(planId, cases);
  // The screen shows one plan year at a time and asks for just that year (a sixth of the six-year answer).
  const monthly = useRetrieve<MonthlyAnswer>(
    '/pl/monthly/retrieve',
    { business_plan_id: planId, case_id: current?.case_id, year },
    current !== null || cases.length === 0,
  );
  // Without a case list the API answers the first case.
  const caseId = current?.case_id ?? monthly.data?.case_id;
  const engine = useEngine(planId);
  const [view, setView] = useState<ScreenView>('estimate');
  const [variance, setVariance] = useState<'rate' | 'value'>('rate');
  const [display, setDisplay] = useState<Display>({ months: true, quarters: false, cy: true });
  const [editing, setEditing] = useState<ReadonlySet<number>>(new Set());
  const [collapsed, setCollapsed] = useState<ReadonlySet<Section>>(new Set());
  const [local, setLocalState] = useState<GridColumn[] | null>(null);
  // Every change of the local columns counts, so that a value's deferred update never overrides a later change.
  const localChanges = useRef(0);
  const setLocal = useCallback((next: GridColumn[] | null) => {
    localChanges.current += 1;
    setLocalState(next);
  }, []);
  const [pattern, setPattern] = useState<'upward' | 'downward'>('upward');
  const [commenting, setCommenting] = useState<{ index: number; text: string } | null>(null);
  const [leaving, setLeaving] = useState<string | null>(null);
  const pending = useRef(new Map<number, Record<string, number | null>>());
  const editMonthly = canEdit(plan, 'monthly_pl');
  const editActuals = canEdit(plan, 'actuals');
  const allowedEdit = view === 'estimate' ? editMonthly : view === 'actual' ? editActuals : false;
  useScreenReady(monthly.data !== null);

  const eView = engineView(view, variance);
  const yearData = monthly.data?.monthly_pl.find((entry) => entry.year === year);
  const serverColumns = useMemo(
    () => (yearData ? columnsOf(recordsOf(yearData, eView), year) : []),
    [yearData, eView, year],
  );
  const columns = local ?? serverColumns;
  const monthLabels = useMemo(
    () => serverColumns.filter((c) => c.monthType === 'month').map((c) => c.month),
    [serverColumns],
  );

  // A change of year, view or case leaves edit mode without saving.
  // biome-ignore lint/correctness/useExhaustiveDependencies: these are the triggers
  useEffect(() => {
    pending.current.clear();
    setEditing(new Set());
    setLocal(null);
  }, [year, view, caseId]);

  const grid = useRef<MonthlyGridHandle>(null);
  const recompute = useCallback(() => {
    const ci = caseIndexIn(engine, caseId);
    if (engine && ci >= 0) setLocal(engine.workbook.monthlyGrid(ci, year, eView));
  }, [engine, caseId, year, eView, setLocal]);
  // A value typed into the grid: the grid shows the recomputed rows in the next frame and the screen's state follows
  // after that frame is painted. The rows go to the grid once the grid has closed its editor (a microtask later), so
  // that it lays the cells out once.
  const recomputeValues = useCallback(() => {
    const ci = caseIndexIn(engine, caseId);
    if (!engine || ci < 0) return;
    const next = engine.workbook.monthlyGrid(ci, year, eView);
    localChanges.current += 1;
    const change = localChanges.current;
    queueMicrotask(() => grid.current?.show(next));
    afterPaint(() => {
      if (localChanges.current === change) startTransition(() => setLocalState(next));
    });
  }, [engine, caseId, year, eView]);

  const reload = useCallback(
    async (failed = false) => {
      await monthly.reload();
      setLocal(null);
      void resyncEngine(String(planId), failed);
    },
    [monthly, planId, setLocal],
  );

  const saveColumn = useCallback(
    async (index: number) => {
      const column = columns[index];
      const values = pending.current.get(index) ?? {};
      pending.current.delete(index);
      setEditing((prev) => new Set([...prev].filter((i) => i !== index)));
      if (!column?.t || Object.keys(values).length === 0 || caseId === undefined) return;
      const month = column.t - 12 * (year - 1);
      let ok = true;
      try {
        if (view === 'estimate') {
          await api.post('/pl/monthly/cashflow/edit', {
            business_plan_id: planId,
            case_id: caseId,
            year,
            month,
            ...values,
          });
        } else {
          await api.post('/pl/monthly/edit', { business_plan_id: planId, year, month, ...values });
        }
      } catch {
        ok = false;
      }
      await reload(!ok);
    },
    [columns, caseId, year, view, planId, reload],
  );

  // The grid's actions stay the same object across renders (so the grid keeps its columns); they read the latest state.
  const state = useRef({
    columns,
    year,
    engine,
    caseId,
    planId,
    view,
    recompute,
    recomputeValues,
    reload,
    saveColumn,
    local,
    serverColumns,
  });
  state.current = {
    columns,
    year,
    engine,
    caseId,
    planId,
    view,
    recompute,
    recomputeValues,
    reload,
    saveColumn,
    local,
    serverColumns,
  };
  const actions = useMemo<GridActions>(
    () => ({
      startEdit: (index) => setEditing((prev) => new Set([...prev, index])),
      save: (index) => void state.current.saveColumn(index),
      cancel: (index) => {
        const hadEdits = pending.current.has(index);
        pending.current.delete(index);
        setEditing((prev) => new Set([...prev].filter((i) => i !== index)));
        if (hadEdits) {
          setLocal(null);
          void resyncEngine(String(state.current.planId), true);
        }
      },
      reverse: (index) => {
        const { columns, year, engine, caseId, planId, recompute, reload } = state.current;
        const column = columns[index];
        if (!column?.t) return;
        const month = column.t - 12 * (year - 1);
        const ci = caseIndexIn(engine, caseId);
        if (ci >= 0 && applyLocal(engine, { type: 'reverse', caseIndex: ci, month: column.t })) recompute();
        pending.current.delete(index);
        setEditing((prev) => new Set([...prev].filter((i) => i !== index)));
        void api
          .post('/pl/monthly/reverse', { business_plan_id: planId, year, month })
          .then(() => reload())
          .catch(() => reload(true));
      },
      comment: (index) => setCommenting({ index, text: state.current.columns[index]?.comment ?? '' }),
      toggleSection: (section) =>
        setCollapsed((prev) => {
          const next = new Set(prev);
          if (next.has(section)) next.delete(section);
          else next.add(section);
          return next;
        }),
      enter: (index, key, value) => {
        const { columns, engine, caseId, view, recomputeValues, local, serverColumns } = state.current;
        const column = columns[index];
        if (!column?.t) return;
        const values = { ...(pending.current.get(index) ?? {}), [key]: value };
        pending.current.set(index, values);
        const ci = caseIndexIn(engine, caseId);
        const edit: PlanEdit =
          view === 'estimate'
            ? { type: 'cash', caseIndex: ci, month: column.t, values: { [key]: value } }
            : { type: 'actual', caseIndex: ci, month: column.t, values: { [key]: value } };
        if (ci >= 0 && applyLocal(engine, edit)) recomputeValues();
        else
          setLocal(
            (local ?? serverColumns).map((c, i) => (i === index ? { ...c, values: { ...c.values, [key]: value } } : c)),
          );
      },
    }),
    [setLocal],
  );

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

  const revise = async () => {
    if (!editMonthly || caseId === undefined) return;
    const ci = caseIndexIn(engine, caseId);
    if (ci >= 0 && applyLocal(engine, { type: 'revise', caseIndex: ci, year, pattern })) recompute();
    try {
      await api.post('/pl/monthly/adjust/edit', { business_plan_id: planId, case_id: caseId, year, pattern });
      notice({ kind: 'success', title: t('ws.common.saved'), message: t('ws.monthly.revised') });
      await reload();
    } catch {
      await reload(true);
    }
  };

  const saveComment = async () => {
    if (!commenting || caseId === undefined) return;
    const column = columns[commenting.index];
    setCommenting(null);
    if (!column?.t) return;
    try {
      await api.post('/pl/monthly/comment/edit', {
        business_plan_id: planId,
        case_id: caseId,
        year,
        column_name: column.t - 12 * (year - 1),
        section: commentSection(view),
        content: commenting.text,
      });
    } finally {
      await reload();
    }
  };

  if (caseId === undefined) return <section className="ws-screen" data-screen="monthly_pl" />;
  return (
    <section className="ws-screen" data-screen="monthly_pl">
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
        {view === 'revise' && (
          <div className="ws-revise" data-test="revise">
            {(['upward', 'downward'] as const).map((p) => (
              <label key={p} className="ws-switch">
                <input
                  type="radio"
                  name="revise-pattern"
                  checked={pattern === p}
                  disabled={!editMonthly}
                  onChange={() => setPattern(p)}
                />
                {t(`ws.monthly.${p}`)}
              </label>
            ))}
            <button
              type="button"
              className="button button-small button-primary"
              disabled={!editMonthly}
              data-test="revise-submit"
              onClick={() => void revise()}
            >
              {t('ws.monthly.reviseBudget')}
            </button>
          </div>
        )}
      </div>
      {yearData && (
        <>
          <div className="ws-card ws-grid-card">
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
            />
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
            <button
              type="button"
              className="button button-primary"
              disabled={!editMonthly}
              onClick={() => void saveComment()}
            >
              {t('ws.common.save')}
            </button>
          }
        >
          <textarea
            className="ws-textarea"
            value={commenting.text}
            maxLength={2000}
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
            pending.current.clear();
            setEditing(new Set());
            setLeaving(null);
            void resyncEngine(String(planId), true);
            navigate(target);
          }}
        />
      )}
    </section>
  );
}
