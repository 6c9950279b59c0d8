/**
 * Explain: any number of the monthly grid, the annual P&L and the dashboard opens a panel that says where it comes
 * from (`GET /explain`). The plan's shell holds the one `ExplainHost`; a screen asks for a figure's explanation with
 * `useExplain()` (or `openExplain`), and the host shows the panel.
 */
import type { ExplainView } from '@topline/engine';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { ExplainPanel } from './ExplainPanel';

/**
 * One figure: a key of the monthly record or the annual P&L (or `assumption.<key>`) in a period of a plan year and a
 * view, or a dashboard figure (`dashboard.<column>.<row>`, `dashboard.<scalar>`, whatever the period).
 */
export interface ExplainTarget {
  caseId?: number | undefined;
  year: number;
  /** `1`..`12`, `q1`..`q4` or `cy`. */
  period: string;
  key: string;
  view?: ExplainView;
}

/** The explanations opened from the figure down, so that each input's explanation can go back to the one before. */
let trail: readonly ExplainTarget[] = [];
const listeners = new Set<() => void>();
const setTrail = (next: readonly ExplainTarget[]) => {
  trail = next;
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** Opens the explanation of a figure (replacing any open one). */
export function openExplain(target: ExplainTarget): void {
  setTrail([target]);
}

export function closeExplain(): void {
  setTrail([]);
}

export function useExplain(): (target: ExplainTarget) => void {
  return useCallback(openExplain, []);
}

/**
 * The panel of the open explanation, for the plan's shell; it closes when the screen or the plan changes, or the shell
 * goes.
 */
export function ExplainHost({ planId }: { planId: number }) {
  const current = useSyncExternalStore(subscribe, () => trail);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of screen or plan closes the panel
  useEffect(() => closeExplain, [planId, pathname]);
  const target = current.at(-1);
  if (!target) return null;
  return (
    <ExplainPanel
      planId={planId}
      target={target}
      depth={current.length}
      onOpen={(next) => setTrail([...trail, next])}
      onBack={() => setTrail(trail.slice(0, -1))}
      onClose={closeExplain}
    />
  );
}
