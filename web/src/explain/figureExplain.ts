/**
 * A figure outside a grid (the dashboard's latest values) as a control that opens its explanation by click, Enter or
 * Space.
 */
import { DASHBOARD_METRICS } from '@topline/engine/src/read/dashboard';
import type { KeyboardEvent } from 'react';
import { type ExplainTarget, openExplain } from './ExplainContext';

/** Props that make an element open the explanation of `target` (none when there is nothing to explain). */
export function explainFigure(target: ExplainTarget | null) {
  if (!target) return {};
  return {
    role: 'button',
    tabIndex: 0,
    className: 'ws-big explain-figure',
    'data-explain': target.key,
    onClick: () => openExplain(target),
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      openExplain(target);
    },
  } as const;
}

/** The dashboard's latest value of a metric: its row in the actual view at the latest ACT month. */
export function dashboardTarget(name: string, latest: number | null, caseId: number | undefined): ExplainTarget | null {
  const key = DASHBOARD_METRICS[name];
  if (!key || latest === null || latest < 1) return null;
  const year = Math.ceil(latest / 12);
  return { caseId, year, period: String(latest - 12 * (year - 1)), key, view: 'actual' };
}
