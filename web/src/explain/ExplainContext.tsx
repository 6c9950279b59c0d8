/**
 * Explain: any number of the monthly grid, the annual P&L and the dashboard opens a panel that says where it comes
 * from (`GET /explain`). The plan's shell holds the one `ExplainHost`; a screen asks for a figure's explanation with
 * `useExplain()` (or `openExplain`), and the host shows the panel.
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { ExplainPanel } from './ExplainPanel';
import { onLocalChange } from './localExplain';
import type { ExplainTarget } from './target';

/** The explanations opened from the figure down, so that each input's explanation can go back to the one before. */
let trail: readonly ExplainTarget[] = [];
/** Whether the panel takes the focus when its explanation loads (not when it follows the grid's selected cell). */
let takesFocus = true;
const listeners = new Set<() => void>();
const setTrail = (next: readonly ExplainTarget[], focus = true) => {
  trail = next;
  takesFocus = focus;
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

// A change of the local source (localExplain.ts) reads the open explanation again, from it or from the API.
onLocalChange(() => {
  const open = trail.at(-1);
  if (open) setTrail([...trail.slice(0, -1), { ...open }], false);
});

/** Opens the explanation of a figure (replacing any open one). */
export function openExplain(target: ExplainTarget): void {
  setTrail([target]);
}

/** Whether an explanation is open. */
export function explainOpen(): boolean {
  return trail.length > 0;
}

/**
 * The open explanation follows the figure the user moved to (the grid's selected cell), or loads its figure again
 * (after an edit) when `target` is the same figure; the focus stays where it is. Nothing opens when none is open.
 */
export function followExplain(target: ExplainTarget | null): void {
  if (trail.length === 0 || !target) return;
  setTrail([{ ...target }], false);
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
      takeFocus={takesFocus}
      onOpen={(next) => setTrail([...trail, next])}
      onBack={() => setTrail(trail.slice(0, -1))}
      onClose={closeExplain}
    />
  );
}
