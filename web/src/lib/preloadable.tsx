/**
 * A code-split component that renders at once when its chunk has already loaded, and suspends (React's `lazy`) only
 * when it has not. React reveals a suspended boundary's content at most every 300 ms after it last showed a fallback
 * (React 19's fallback throttle), so a `lazy` whose module was loaded ahead of need (`web/src/shell/preload.ts`) would
 * still hold the screen back by up to 300 ms the first time it renders.
 */
import { type ComponentType, lazy, useState } from 'react';

export interface Preloadable<P extends object> {
  /** The component: the module's own once loaded, else a lazy one that loads it. */
  Component: ComponentType<P>;
  /** Starts loading the module (once; again after a failure); resolves when it is there. */
  preload: () => Promise<unknown>;
  /** Whether the module has loaded. */
  loaded: () => boolean;
}

export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // A chunk that failed to load (the network, a new deployment) is asked for again next time.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(preload);
  function Component(props: P) {
    // Chosen once per mount: a component first shown through `lazy` stays that one, so it never mounts twice.
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return { Component, preload, loaded: () => loaded !== undefined };
}
