import type { PlanEdit, PlanWorkbook } from '@topline/engine';
import { useCallback, useState } from 'react';
import { useRetrieve } from './data';
import { applyLocal, type EngineSession, resyncEngine, useEngine } from './engine';

/**
 * A screen's answer from the API, with the browser engine's recomputation shown at once after an edit. The save goes
 * to the API; its answer is then read again and replaces the local one (the saved answer wins).
 */
export function useLiveAnswer<T>(
  planId: string | number,
  path: string,
  query: Record<string, string | number | undefined>,
  compute: (workbook: PlanWorkbook, engine: EngineSession, previous: T | null) => T,
) {
  const server = useRetrieve<T>(path, { business_plan_id: planId, ...query });
  const engine = useEngine(planId);
  const [local, setLocal] = useState<T | null>(null);
  const [saving, setSaving] = useState(false);

  const edit = useCallback(
    async (edits: PlanEdit[] | null, save: () => Promise<unknown>): Promise<boolean> => {
      if (edits && edits.length > 0 && applyLocal(engine, edits) && engine) {
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
