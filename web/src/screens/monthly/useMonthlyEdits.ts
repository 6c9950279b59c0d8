/**
 * The monthly P&L's edits (working-screens.md section 2): the 17 edit flags, the values typed into a column until it
 * is saved, reverse, the budget revision and memos. Each change goes to the browser engine at once, through the
 * contract's request-to-edit functions applied to the request the save sends, and the grid shows the recomputed
 * columns; the saved answer then replaces them.
 */
import {
  type ActualsEdit,
  actualsEdits,
  type CashflowEdit,
  cashflowEdits,
  commentEdits,
  reverseEdits,
  reviseEdits,
} from '@topline/contract';
import type { GridColumn, ViewName } from '@topline/engine';
import { calendarOf, isoMonth } from '@topline/engine/calendar';
import { type RefObject, startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, fieldErrorsOf } from '../../api/client';
import {
  applyLocal,
  caseIndexIn,
  type EngineSession,
  followSave,
  resyncEngine,
  type SavedAnswer,
} from '../../plan/engineSession';
import type { GridActions } from './gridCells';
import type { MonthlyGridHandle } from './MonthlyGrid';
import { commentSection, isActualKey, isCashKey, type ScreenView, type Section } from './model';

/** Runs a callback once the browser has painted its next frame. */
const afterPaint = (callback: () => void) => requestAnimationFrame(() => setTimeout(callback, 0));

type Values = Record<string, number | null>;

interface MonthlyEditsInput {
  planId: number;
  /** The case shown; actuals are saved for every case, but only this one is recomputed at once. */
  caseId: number | undefined;
  year: number;
  template: 'saas' | 'selfserve';
  view: ScreenView;
  engineView: ViewName;
  engine: EngineSession | null;
  /** The columns of the last saved answer. */
  serverColumns: GridColumn[];
  /** Reads the saved answer again. */
  reloadAnswer: () => Promise<unknown>;
  grid: RefObject<MonthlyGridHandle | null>;
  toggleSection: (section: Section) => void;
  openMemo: (index: number) => void;
  /** Shows the server's message for a field at its cell (the row of the field, the column saved). */
  fieldError: (rowKey: string, column: string, message: string) => void;
  /** A column saved or left: its cells' messages go. */
  clearColumn: (column: string) => void;
}

/** The plan month of month column `t` of a plan year: 1..12. */
const monthOf = (t: number, year: number) => t - 12 * (year - 1);

export function useMonthlyEdits(input: MonthlyEditsInput) {
  const { planId, caseId, year, template, view, engineView, engine, serverColumns } = input;
  const [editing, setEditing] = useState<ReadonlySet<number>>(new Set());
  const [local, setLocalState] = useState<GridColumn[] | null>(null);
  // Every change of the local columns counts, so that a value's deferred update never overrides a later change.
  const localChanges = useRef(0);
  const setLocal = useCallback((next: GridColumn[] | null) => {
    localChanges.current += 1;
    setLocalState(next);
  }, []);
  const pending = useRef(new Map<number, Values>());
  /** The columns some of whose typed values the browser's workbook could not take: their save reads the plan file. */
  const unapplied = useRef(new Set<number>());
  /** The columns typed into before the workbook was there (it is built on demand): applied once it comes. */
  const awaiting = useRef(new Set<number>());
  const columns = local ?? serverColumns;
  const stopEditing = useCallback((index: number) => {
    pending.current.delete(index);
    unapplied.current.delete(index);
    awaiting.current.delete(index);
    setEditing((prev) => new Set([...prev].filter((i) => i !== index)));
  }, []);

  /** Leaves edit mode without saving (a change of year, view or case, or leaving the screen). */
  const reset = useCallback(() => {
    pending.current.clear();
    unapplied.current.clear();
    awaiting.current.clear();
    setEditing(new Set());
    setLocal(null);
  }, [setLocal]);

  const recompute = useCallback(() => {
    const ci = caseIndexIn(engine, caseId);
    if (engine && ci >= 0) setLocal(engine.workbook.monthlyGrid(ci, year, engineView));
  }, [engine, caseId, year, engineView, setLocal]);
  // A value typed into the grid: the grid shows the recomputed rows in the next frame and the screen's state follows
  // after that frame is painted. The rows go to the grid once the grid has closed its editor (a microtask later), so
  // that it lays the cells out once.
  const recomputeValues = useCallback(() => {
    const ci = caseIndexIn(engine, caseId);
    if (!engine || ci < 0) return;
    const next = engine.workbook.monthlyGrid(ci, year, engineView);
    localChanges.current += 1;
    const change = localChanges.current;
    queueMicrotask(() => input.grid.current?.show(next));
    afterPaint(() => {
      if (localChanges.current === change) startTransition(() => setLocalState(next));
    });
  }, [engine, caseId, year, engineView, input.grid]);

  const { reloadAnswer } = input;
  const reload = useCallback(
    async (failed = false) => {
      await reloadAnswer();
      setLocal(null);
      void resyncEngine(String(planId), failed);
    },
    [reloadAnswer, planId, setLocal],
  );
  /** After a save the API took: its answer replaces the local columns, and the workbook follows it (`followSave`). */
  const saved = useCallback(
    async (answer: SavedAnswer, applied: boolean) => {
      await reloadAnswer();
      setLocal(null);
      void followSave(String(planId), answer, { applied });
    },
    [reloadAnswer, planId, setLocal],
  );

  /** The requests of a column's typed values: the cash items of the estimate, or a month of actuals. */
  const requestsOf = useCallback(
    (t: number, shownCase: number, values: Values) => {
      const month = monthOf(t, year);
      const cash: CashflowEdit = { business_plan_id: planId, case_id: shownCase, year, month };
      // Without case_id the actuals are saved for every case of the plan.
      const actuals: ActualsEdit = { business_plan_id: planId, year, month };
      for (const [key, value] of Object.entries(values)) {
        if (isCashKey(key)) cash[key] = value;
        if (isActualKey(key)) actuals[key] = value;
      }
      return { cash, actuals };
    },
    [planId, year],
  );

  /**
   * Saves a column's typed values. A refusal with messages per field shows each at its cell and keeps the column in
   * edit mode with every value typed, for correction; the API's answer replaces the columns once it took them.
   */
  const saveColumn = useCallback(
    async (index: number) => {
      const column = columns[index];
      const values = pending.current.get(index) ?? {};
      if (!column?.t || Object.keys(values).length === 0 || caseId === undefined) {
        stopEditing(index);
        if (column) input.clearColumn(column.column);
        return;
      }
      const { cash, actuals } = requestsOf(column.t, caseId, values);
      const applied = !unapplied.current.has(index);
      let answer: SavedAnswer;
      try {
        answer =
          view === 'estimate'
            ? await api.post('/pl/monthly/cashflow/edit', cash)
            : await api.post('/pl/monthly/edit', actuals);
      } catch (error) {
        const fields = Object.entries(fieldErrorsOf(error)).filter(([key]) => key in values);
        if (fields.length > 0) {
          for (const [key, message] of fields) input.fieldError(key, column.column, message);
          return;
        }
        stopEditing(index);
        input.clearColumn(column.column);
        await reload(true);
        return;
      }
      stopEditing(index);
      input.clearColumn(column.column);
      await saved(answer, applied);
    },
    [columns, caseId, view, requestsOf, reload, saved, stopEditing, input],
  );

  /**
   * Which actual values of a month column the user entered (saved, or typed and not saved yet) and which come from
   * the daily entries; the others are the month's forecast (engine/DECISIONS.md). Null where the plan file is not at
   * hand (a member without it sees the values only).
   */
  const enteredAt = useCallback(
    (index: number): { entered: ReadonlySet<string>; daily: ReadonlySet<string> } | null => {
      const column = columns[index];
      const ci = caseIndexIn(engine, caseId);
      if (!column?.t || !engine || ci < 0) return null;
      const plan = engine.workbook.plan;
      const c = plan.cases[ci];
      if (!c) return null;
      const entered = new Set<string>(Object.keys(c.actuals[String(column.t)] ?? {}));
      for (const [key, value] of Object.entries(pending.current.get(index) ?? {})) {
        if (value === null) entered.delete(key);
        else entered.add(key);
      }
      const prefix = `${isoMonth(calendarOf(plan.start_year, plan.start_month, column.t))}-`;
      const daily = new Set<string>();
      for (const [date, entry] of Object.entries(c.daily ?? {})) {
        if (!date.startsWith(prefix)) continue;
        for (const [metric, value] of Object.entries(entry)) {
          if (value !== undefined) daily.add(metric === 'billing' ? 'order' : metric);
        }
      }
      return { entered, daily };
    },
    [columns, engine, caseId],
  );

  // The grid's actions stay the same object across renders (so the grid keeps its columns); they read the latest state.
  const state = useRef({ columns, year, engine, caseId, planId, view, template, local, serverColumns });
  state.current = { columns, year, engine, caseId, planId, view, template, local, serverColumns };
  const latest = useRef({ recompute, recomputeValues, reload, saved, saveColumn, requestsOf, input });
  latest.current = { recompute, recomputeValues, reload, saved, saveColumn, requestsOf, input };

  // The workbook came after values were typed (it is built on demand): they go into it now, as typing would have put
  // them, and the grid shows them recomputed; the save then follows the workbook rather than reading the plan file.
  useEffect(() => {
    const { columns, caseId, view, template } = state.current;
    if (!engine || caseId === undefined || awaiting.current.size === 0) return;
    let all = true;
    for (const index of awaiting.current) {
      const t = columns[index]?.t;
      const values = pending.current.get(index);
      if (!t || !values) continue;
      const { cash, actuals } = latest.current.requestsOf(t, caseId, values);
      const edits =
        view === 'estimate'
          ? cashflowEdits(cash, engine.caseIds)
          : actualsEdits(actuals, template, engine.caseIds, engine.caseIds);
      if (applyLocal(engine, edits)) unapplied.current.delete(index);
      else all = false;
    }
    awaiting.current.clear();
    if (all) latest.current.recomputeValues();
  }, [engine]);

  const actions = useMemo<GridActions>(
    () => ({
      startEdit: (index) => setEditing((prev) => new Set([...prev, index])),
      save: (index) => void latest.current.saveColumn(index),
      cancel: (index) => {
        const hadEdits = pending.current.has(index);
        stopEditing(index);
        const column = state.current.columns[index];
        if (column) latest.current.input.clearColumn(column.column);
        if (hadEdits) {
          setLocal(null);
          void resyncEngine(String(state.current.planId), true);
        }
      },
      reverse: (index) => {
        const { columns, year, engine, caseId, planId } = state.current;
        const { recompute, reload } = latest.current;
        const column = columns[index];
        if (!column?.t) return;
        const request = { business_plan_id: planId, year, month: monthOf(column.t, year) };
        const applied =
          engine !== null &&
          caseId !== undefined &&
          applyLocal(engine, reverseEdits(request, [caseId], engine.caseIds));
        if (applied) recompute();
        stopEditing(index);
        void api
          .post('/pl/monthly/reverse', request)
          .then((answer) => latest.current.saved(answer, applied))
          .catch(() => reload(true));
      },
      comment: (index) => latest.current.input.openMemo(index),
      toggleSection: (section) => latest.current.input.toggleSection(section),
      enter: (values) => {
        const { columns, engine, caseId, view, template, local, serverColumns } = state.current;
        const byColumn = new Map<number, Values>();
        for (const { index, key, value } of values) {
          if (!columns[index]?.t) continue;
          byColumn.set(index, { ...(byColumn.get(index) ?? {}), [key]: value });
        }
        if (byColumn.size === 0) return;
        // A value entered into a month not in edit mode opens it (the button is one way in, typing another).
        setEditing((prev) =>
          [...byColumn.keys()].every((i) => prev.has(i)) ? prev : new Set([...prev, ...byColumn.keys()]),
        );
        let allApplied = true;
        let next = local ?? serverColumns;
        for (const [index, entered] of byColumn) {
          const t = columns[index]?.t;
          if (!t) continue;
          pending.current.set(index, { ...(pending.current.get(index) ?? {}), ...entered });
          let applied = false;
          if (engine && caseId !== undefined) {
            const { cash, actuals } = latest.current.requestsOf(t, caseId, entered);
            // Actuals are saved for every case of the plan, and so are they applied here.
            const edits =
              view === 'estimate'
                ? cashflowEdits(cash, engine.caseIds)
                : actualsEdits(actuals, template, engine.caseIds, engine.caseIds);
            applied = applyLocal(engine, edits);
          }
          if (!engine) awaiting.current.add(index);
          if (!applied) {
            unapplied.current.add(index);
            allApplied = false;
            next = next.map((c, i) => (i === index ? { ...c, values: { ...c.values, ...entered } } : c));
          }
        }
        if (allApplied) latest.current.recomputeValues();
        else setLocal(next);
      },
      enteredValue: (index, key) => {
        const { columns, engine, caseId, view } = state.current;
        const typed = pending.current.get(index);
        if (typed && key in typed) return typed[key] ?? null;
        const t = columns[index]?.t;
        const c = engine?.workbook.plan.cases[caseIndexIn(engine, caseId)];
        if (!t || !c) return null;
        const inputs: Partial<Record<string, number | string>> | undefined =
          view === 'estimate' ? c.cash?.[String(t)] : c.actuals[String(t)];
        const value = inputs?.[key];
        return typeof value === 'number' ? value : null;
      },
    }),
    [setLocal, stopEditing],
  );

  /** Revises the year's budget from the latest actual (working-screens.md section 2); `onSaved` once the API took it. */
  const revise = useCallback(
    async (pattern: 'upward' | 'downward', onSaved: () => void) => {
      if (caseId === undefined) return;
      const request = { business_plan_id: planId, case_id: caseId, year, pattern };
      const applied = engine !== null && applyLocal(engine, reviseEdits(request, engine.caseIds));
      if (applied) recompute();
      try {
        const answer = await api.post('/pl/monthly/adjust/edit', request);
        onSaved();
        await saved(answer, applied);
      } catch {
        await reload(true);
      }
    },
    [caseId, planId, year, engine, recompute, reload, saved],
  );

  /** Saves the memo of a month column in the view's comment section. */
  const saveComment = useCallback(
    async (index: number, content: string) => {
      const column = columns[index];
      if (!column?.t || caseId === undefined) return;
      const request = {
        business_plan_id: planId,
        case_id: caseId,
        year,
        column_name: monthOf(column.t, year),
        section: commentSection(view),
        content,
      };
      const applied = engine !== null && applyLocal(engine, commentEdits(request, engine.caseIds));
      try {
        const answer = await api.post('/pl/monthly/comment/edit', request);
        await saved(answer, applied);
      } catch (error) {
        await reload(true);
        throw error;
      }
    },
    [columns, caseId, planId, year, view, engine, reload, saved],
  );

  /** The grid shows the browser's recomputation (values typed, or a change not answered yet), not the saved answer. */
  const unsaved = local !== null;
  return { columns, editing, actions, reset, revise, saveComment, enteredAt, unsaved };
}
