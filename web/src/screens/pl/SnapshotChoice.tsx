import type { Snapshot } from '@topline/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';

/**
 * The plan's snapshots, for a screen that reads figures against one (issue 40, point 3): null while they load, and
 * an empty list where there are none or the caller may not list them (a tier or role that locks the monthly P&L).
 */
export function useSnapshots(planId: number, enabled = true): Snapshot[] | null {
  const [snapshots, setSnapshots] = useState<Snapshot[] | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    api
      .get('/snapshot/list', { query: { business_plan_id: planId }, quiet: true })
      .then((answer) => live && setSnapshots(answer.data.snapshots))
      .catch(() => live && setSnapshots([]));
    return () => {
      live = false;
    };
  }, [planId, enabled]);
  return snapshots;
}

/**
 * Chooses a snapshot of the plan: the monthly P&L's budget (the live plan, or a snapshot whose estimate the actuals
 * and the live forecast are compared with), or the annual P&L's comparison beside the cases. Shown only where the
 * plan has snapshots.
 */
export function SnapshotChoice({
  snapshots,
  current,
  onChange,
  label,
  none,
  testId,
}: {
  snapshots: Snapshot[] | null;
  current: number | null;
  onChange: (snapshotId: number | null) => void;
  label: string;
  none: string;
  testId: string;
}) {
  const { t } = useTranslation();
  if (!snapshots || snapshots.length === 0) return null;
  return (
    <label className="field ws-inline-field" data-test={testId}>
      <span>{label}</span>
      <select value={current ?? ''} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}>
        <option value="">{none}</option>
        {snapshots.map((s) => (
          <option key={s.id} value={s.id}>
            {t('ws.budget.snapshot', { name: s.name })}
          </option>
        ))}
      </select>
    </label>
  );
}
