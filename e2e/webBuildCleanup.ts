import { rmSync } from 'node:fs';

/**
 * vitest `globalSetup` of the browser tests: after the run, removes the web build that its stacks shared
 * (`builtWeb` in browser.ts), with its lock and outcome markers.
 */
export default function setup(project: { config: { env?: Record<string, unknown> } }): () => void {
  const shared = project.config.env?.TOPLINE_WEB_BUILD;
  return () => {
    if (typeof shared !== 'string' || !shared) return;
    for (const path of [shared, `${shared}.lock`, `${shared}.done`, `${shared}.failed`])
      rmSync(path, { recursive: true, force: true });
  };
}
