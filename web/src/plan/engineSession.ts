/**
 * The planning engine in the browser: the plan file read from the API, built into a workbook once per plan version,
 * so an edit recomputes on screen at once while the API saves it. The engine (and HyperFormula) is loaded through a
 * dynamic import, so it stays out of the shell's bundle.
 *
 * Building the workbook holds the page's thread for a while, so it is built only once wanted (`wantEngine`: the user
 * reached into a screen they may edit, or a view that reads the plan file), never on the way to a screen's first
 * paint; until then the screens show the API's answers, and an edit is saved and answered as without the engine.
 */
import { asOfMonth } from '@topline/contract';
import type { ExplainRequest, Explanation, PlanEdit, PlanWorkbook } from '@topline/engine';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';

export interface EngineSession {
  planId: string;
  version: number;
  workbook: PlanWorkbook;
  /** The database id of each case, by workbook case index (what the contract's edit functions take). */
  caseIds: number[];
  /** The engine's explanation of a figure as the workbook stands, unsaved edits included (what `GET /explain` says). */
  explain: (request: ExplainRequest) => Explanation;
}

const sessions = new Map<string, Promise<EngineSession | null>>();
const listeners = new Set<() => void>();

async function load(planId: string, previous: EngineSession | null): Promise<EngineSession | null> {
  try {
    const answer = await api.get('/business-plan/file', { query: { business_plan_id: planId }, quiet: true });
    const { plan, version, case_ids } = answer.data;
    if (previous && previous.version === version) return previous;
    // A forced rebuild (after a refused save) drops the local edits of the previous workbook.
    const { PlanWorkbook, explain } = await import('@topline/engine');
    // The API reads plans at the same (UTC) month, so both sides agree on ACT months and runway.
    const workbook = PlanWorkbook.build(plan, { asOf: asOfMonth(new Date()) });
    previous?.workbook.destroy();
    return { planId, version, workbook, caseIds: case_ids, explain: (request) => explain(workbook, request) };
  } catch {
    // Without the plan file (a member who may not see every area) the screens show the API's answers only.
    return previous;
  }
}

const notify = () => {
  for (const listener of listeners) listener();
};

/** Starts building the plan's workbook, once: the screens that show the plan get it when it is there. */
export function wantEngine(planId: string | number): void {
  const id = String(planId);
  if (sessions.has(id)) return;
  const entry = load(id, null);
  sessions.set(id, entry);
  void entry.then(notify);
}

/** Reads the plan file again after a save and rebuilds when its version moved (nothing while none is wanted). */
export async function resyncEngine(planId: string, force = false): Promise<void> {
  const current = sessions.get(planId);
  if (!current) return;
  const previous = await current;
  const next = load(planId, force ? null : previous);
  sessions.set(planId, next);
  await next;
  notify();
}

/**
 * Follows a save whose edits the browser's workbook already holds, applied as the API applies them (the contract's
 * request-to-edit functions): when the API answers the next version of the one the workbook is at, the workbook is at
 * that version now, and no plan file is read. Otherwise (another write came between, the answer came out of order, or
 * the edits were not applied here) the plan file is read again.
 */
export async function followSave(planId: string, version: number | undefined, applied: boolean): Promise<void> {
  const entry = sessions.get(planId);
  if (!entry) return;
  const current = await entry;
  if (applied && current && version !== undefined && version === current.version + 1) {
    current.version = version;
    return;
  }
  await resyncEngine(planId);
}

/**
 * Applies edits to the browser workbook; false when there is no workbook, an edit names a case the workbook does not
 * hold yet (case index -1: the API's answer follows instead), or the engine refuses the edit.
 */
export function applyLocal(engine: EngineSession | null, edits: PlanEdit | PlanEdit[]): boolean {
  const list = Array.isArray(edits) ? edits : [edits];
  if (!engine || list.some((edit) => 'caseIndex' in edit && edit.caseIndex < 0)) return false;
  try {
    engine.workbook.apply(list);
    return true;
  } catch {
    // The API will answer the edit; the screen shows that answer.
    void resyncEngine(engine.planId);
    return false;
  }
}

/** The plan's workbook once it is wanted (`wantEngine`) and built; null until then. */
export function useEngine(planId: string | number): EngineSession | null {
  const id = String(planId);
  const [engine, setEngine] = useState<EngineSession | null>(null);
  const refresh = useCallback(() => {
    const entry = sessions.get(id);
    if (entry) void entry.then(setEngine);
    else setEngine(null);
  }, [id]);
  useEffect(() => {
    refresh();
    listeners.add(refresh);
    return () => {
      listeners.delete(refresh);
    };
  }, [refresh]);
  return engine;
}

/** The workbook's case index of an API case id (-1 when the workbook does not know it yet). */
export const caseIndexIn = (engine: EngineSession | null, caseId: number | null | undefined): number =>
  engine && caseId !== null && caseId !== undefined ? engine.caseIds.indexOf(caseId) : -1;
