import type { PlanEdit, PlanWorkbook } from '@topline/engine';
import { useCallback, useState } from 'react';
import type { AnswerAt, GetPath, QueryOf } from '../api/client';
import { useRetrieve } from './answers';
import { applyLocal, type EngineSession, followSave, resyncEngine, useEngine } from './engineSession';

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

  /**
   * Shows `edits` at once and saves. `provisional` edits are a preview that the API's differ from (a new cost item
   * under a stand-in id): the plan file is read again after the save instead of the workbook following it.
   */
  const edit = useCallback(
    async (
      edits: LocalEdits | null,
      save: () => Promise<{ version?: number } | unknown>,
      options: { provisional?: boolean } = {},
    ): Promise<boolean> => {
      const shown = edits !== null && engine !== null && applyLocal(engine, edits(engine.caseIds));
      if (shown && engine) setLocal(compute(engine.workbook, engine, server.data));
      const applied = shown && !options.provisional;
      setSaving(true);
      let saved: { version?: number } | undefined;
      try {
        saved = ((await save()) ?? {}) as { version?: number };
      } catch {
        saved = undefined;
      }
      await server.reload();
      setLocal(null);
      setSaving(false);
      // The saved edits are the workbook's already: no plan file is read unless something else changed it.
      if (saved) void followSave(String(planId), saved.version, applied);
      else void resyncEngine(String(planId), true);
      return saved !== undefined;
    },
    [engine, compute, server, planId],
  );

  return { data: local ?? server.data, server: server.data, local, engine, edit, saving, reload: server.reload };
}
