/**
 * A code-split component in Chromium (vitest's browser mode): loaded ahead of need, it renders in the same commit as
 * its parent, with no fallback shown; not loaded yet, it shows the fallback and then itself, mounted once; a chunk that
 * failed to load is asked for again.
 */
import { act, Suspense, useEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

let root: Root | null = null;
let container: HTMLDivElement | null = null;
/** What the page showed after each commit, in order. */
let commits: string[] = [];
let mounts = 0;

function Shown({ label }: { label: string }) {
  useEffect(() => {
    mounts += 1;
  }, []);
  return <p>{label}</p>;
}

function Page({ children }: { children: React.ReactNode }) {
  useEffect(() => {
    commits.push(container?.textContent ?? '');
  });
  return <Suspense fallback={<p>loading</p>}>{children}</Suspense>;
}

/** A module that loads when `resolve` is called, and how many times it was asked for. */
function deferredModule() {
  let resolve: () => void = () => {};
  let reject: (error: Error) => void = () => {};
  let asked = 0;
  const load = () => {
    asked += 1;
    return new Promise<{ default: typeof Shown }>((ok, fail) => {
      resolve = () => ok({ default: Shown });
      reject = fail;
    });
  };
  return { load, resolve: () => resolve(), reject: (e: Error) => reject(e), asked: () => asked };
}

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

beforeEach(() => {
  commits = [];
  mounts = 0;
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

describe('preloadable', () => {
  it('renders a module loaded ahead of need at once, without a fallback', async () => {
    const module = deferredModule();
    const screen = preloadable(module.load);
    const loading = screen.preload();
    module.resolve();
    await loading;
    expect(screen.loaded()).toBe(true);
    await act(async () =>
      root?.render(
        <Page>
          <screen.Component label="numbers" />
        </Page>,
      ),
    );
    expect(commits).toEqual(['numbers']);
    expect(module.asked()).toBe(1);
    expect(mounts).toBe(1);
  });

  it('shows the fallback for a module not loaded yet, then the component, mounted once', async () => {
    const module = deferredModule();
    const screen = preloadable(module.load);
    const Parent = ({ n }: { n: number }) => (
      <Page>
        <screen.Component label={`numbers ${n}`} />
      </Page>
    );
    await act(async () => root?.render(<Parent n={1} />));
    expect(container?.textContent).toBe('loading');
    await act(async () => module.resolve());
    expect(container?.textContent).toBe('numbers 1');
    // Rendered again now that the module is there: the same component instance, not a second mount.
    await act(async () => root?.render(<Parent n={2} />));
    expect(container?.textContent).toBe('numbers 2');
    expect(mounts).toBe(1);
    expect(module.asked()).toBe(1);
  });

  it('asks again for a module that failed to load', async () => {
    const module = deferredModule();
    const screen = preloadable(module.load);
    const first = screen.preload();
    module.reject(new Error('network'));
    await expect(first).rejects.toThrow('network');
    expect(screen.loaded()).toBe(false);
    const second = screen.preload();
    expect(module.asked()).toBe(2);
    module.resolve();
    await second;
    expect(screen.loaded()).toBe(true);
  });
});
