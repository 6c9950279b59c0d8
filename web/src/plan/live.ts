import type { PlanEdit, PlanWorkbook } from '@topline/engine';
import { useCallback, useState } from 'react';
import type { AnswerAt, GetPath, QueryOf } from '../api/client';
import { useRetrieve } from './answers';
import { applyLocal, type EngineSession, resyncEngine, useEngine } from './engineSession';

/**
 * The engine edits a save causes, given the workbook's case ids: one of the contract's request-to-edit functions
 * (`caseYearEdits`, `modelEdits`, ...), applied to the same request the save sends.
 */
export type LocalEdits = (caseIds: readonly number[]) => PlanEdit[];

/**
 * A screen's answer from the API, with the browser engine's recomputation shown at once after an edit. The save goes
 * to the API; its answer is then read again and replaces the local one (the saved answer wins).
 */
export function useLiveAnswer<P extends GetPath>(
  planId: number,
  path: P,
  query: QueryOf<P>,
  compute: (workbook: PlanWorkbook, engine: EngineSession, previous: AnswerAt<P> | null) => AnswerAt<P>,
) {
  const server = useRetrieve(path, query);
  const engine = useEngine(planId);
  const [local, setLocal] = useState<AnswerAt<P> | null>(null);
  const [saving, setSaving] = useState(false);

  const edit = useCallback(
    async (edits: LocalEdits | null, save: () => Promise<unknown>): Promise<boolean> => {
      if (edits && engine && applyLocal(engine, edits(engine.caseIds))) {
        setLocal(compute(engine.workbook, engine, server.data));
      }
      setSaving(true);
      let ok = true;
      try {
        await save();
      } catch {
        ok = false;
      }
      await server.reload();
      setLocal(null);
      setSaving(false);
      void resyncEngine(String(planId), !ok);
      return ok;
    },
    [engine, compute, server, planId],
  );

  return { data: local ?? server.data, server: server.data, local, engine, edit, saving, reload: server.reload };
}
