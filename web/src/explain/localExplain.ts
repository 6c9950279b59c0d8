/**
 * The local source of explanations: while a screen holds values typed and not saved yet, it explains a figure from the
 * browser's workbook, which holds them, so that the panel shows the figures as the screen does, not as saved.
 */
import type { ExplainAnswer } from '@topline/contract';
import type { ExplainTarget } from './target';

/** Explains a figure from the browser's workbook, unsaved values included; null where it cannot (the API answers). */
export type LocalExplain = (target: ExplainTarget, lang: 'en' | 'ja') => ExplainAnswer | null;

let local: LocalExplain | null = null;
const listeners = new Set<() => void>();

/** Sets (or, with null, drops) the local source; an open explanation is read again from it (`onLocalChange`). */
export function explainLocally(source: LocalExplain | null): void {
  if (local === source) return;
  local = source;
  for (const listener of listeners) listener();
}

/** Calls `listener` whenever the local source changes; answers a function that stops it. */
export function onLocalChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The explanation of `target` from the local source, if one is set and can answer it. */
export function localExplanation(target: ExplainTarget, lang: 'en' | 'ja'): ExplainAnswer | null {
  return local?.(target, lang) ?? null;
}
