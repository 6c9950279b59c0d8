/**
 * The planning engine in the browser: the plan file read from the API, built into a workbook once per plan version,
 * so an edit recomputes on screen at once while the API saves it. The engine (and HyperFormula) is loaded through a
 * dynamic import, so it stays out of the shell's bundle.
 *
 * Building the workbook holds the page's thread for a while, so it is built only once wanted (`wantEngine`: the user
 * reached into a screen they may edit, or a view that reads the plan file), never on the way to a screen's first
 * paint; until then the screens show the API's answers, and an edit is saved and answered as without the engine.
 */
import { asOfMonth, caseIdsAfter, engineEdits, type PlanChange } from '@topline/contract';
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

/** What a save's answer says of the plan: the version it made and the change set it wrote (`plan_changes`). */
export interface SavedAnswer {
  version?: number | undefined;
  changes?: readonly PlanChange[] | undefined;
}

/**
 * How the browser's workbook stands to a save: `applied`, it holds the save's edits already (applied at once from the
 * same request, by the contract's request-to-edit functions); `preview`, those edits, to be checked against the
 * answer's change set; `undo`, edits that take back a preview the answer differs from (a new cost item under a
 * stand-in id). With none of them the workbook does not hold the save yet.
 */
export interface LocalPreview {
  applied: boolean;
  preview?: readonly PlanEdit[];
  undo?: readonly PlanEdit[];
}

/** Two lists of edits alike, whatever the order of their objects' keys. */
function sameEdits(a: readonly PlanEdit[], b: readonly PlanEdit[]): boolean {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([, v]) => v !== undefined)
              .sort(([x], [y]) => (x < y ? -1 : 1))
              .map(([k, v]) => [k, canonical(v)]),
          )
        : value;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/**
 * Follows a save as the API's cached workbook does: when the API answers the next version of the one the workbook is
 * at, the workbook takes the answer's change set (`plan_changes`, through the contract's `engineEdits`), or keeps the
 * same edits it applied at once, and is at that version; no plan file is read. Otherwise (another write came between,
 * the answer came out of order or carries no change set, a preview differs from what the API wrote and cannot be
 * taken back, or the engine refuses an edit) the plan file is read again.
 */
export async function followSave(planId: string, answer: SavedAnswer, local: LocalPreview): Promise<void> {
  const entry = sessions.get(planId);
  if (!entry) return;
  const current = await entry;
  const { version, changes } = answer;
  if (!current || version === undefined || version !== current.version + 1) return resyncEngine(planId);
  if (!changes) {
    // An answer without a change set: only a workbook that holds the save's edits already is at the new version.
    if (local.applied && !local.undo) current.version = version;
    else await resyncEngine(planId);
    return;
  }
  const written = engineEdits(changes, current.caseIds);
  let edits: readonly PlanEdit[];
  if (!local.applied) edits = written;
  else if (!local.preview || sameEdits(local.preview, written)) edits = [];
  else if (local.undo) edits = [...local.undo, ...written];
  else return resyncEngine(planId);
  if (edits.some((edit) => 'caseIndex' in edit && edit.caseIndex < 0)) return resyncEngine(planId, true);
  try {
    if (edits.length > 0) current.workbook.apply([...edits]);
  } catch {
    return resyncEngine(planId, true);
  }
  current.version = version;
  current.caseIds = caseIdsAfter(changes, current.caseIds);
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
