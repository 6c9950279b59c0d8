/**
 * Runs `callback` once the browser is idle, at the latest after `timeout` ms (`requestIdleCallback`; a short timer
 * where the browser has none). Answers a function that cancels it.
 */
export function whenIdle(callback: () => void, timeout: number): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(callback, { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(callback, Math.min(timeout, 200));
  return () => window.clearTimeout(id);
}
