import type { PlanEdit, PlanWorkbook } from '@topline/engine';
import { useCallback, useState } from 'react';
import type { AnswerAt, GetPath, QueryOf } from '../api/client';
import { useRetrieve } from './answers';
import { applyLocal, type EngineSession, followSave, resyncEngine, type SavedAnswer, useEngine } from './engineSession';

/**
 * The engine edits a save causes, given the workbook's case ids: one of the contract's request-to-edit functions
 * (`caseYearEdits`, `modelEdits`, ...), applied to the same request the save sends.
 */
export type LocalEdits = (caseIds: readonly number[]) => PlanEdit[];

/**
 * A screen's answer from the API, with the browser engine's recomputation shown at once after an edit. The save goes
 * to the API; its answer is then read again and replaces the local one (the saved answer wins), and the workbook
 * follows the change set the save's answer carries.
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
   * Shows `edits` at once and saves; the workbook then follows the save's answer (`followSave`). `provisional` edits
   * are a preview that the API's differ from (a new cost item under a stand-in id), which `undo` takes back before the
   * answer's change set is applied.
   */
  const edit = useCallback(
    async (
      edits: LocalEdits | null,
      save: () => Promise<SavedAnswer | unknown>,
      options: { provisional?: { undo: LocalEdits } } = {},
    ): Promise<boolean> => {
      const preview = edits !== null && engine !== null ? edits(engine.caseIds) : null;
      const undo = engine && options.provisional ? options.provisional.undo(engine.caseIds) : undefined;
      const shown = preview !== null && applyLocal(engine, preview);
      if (shown && engine) setLocal(compute(engine.workbook, engine, server.data));
      setSaving(true);
      let saved: SavedAnswer | undefined;
      try {
        saved = ((await save()) ?? {}) as SavedAnswer;
      } catch {
        saved = undefined;
      }
      await server.reload();
      setLocal(null);
      setSaving(false);
      if (saved) {
        void followSave(String(planId), saved, {
          applied: shown,
          ...(preview ? { preview } : {}),
          ...(undo ? { undo } : {}),
        });
      } else void resyncEngine(String(planId), true);
      return saved !== undefined;
    },
    [engine, compute, server, planId],
  );

  return { data: local ?? server.data, server: server.data, local, engine, edit, saving, reload: server.reload };
}
