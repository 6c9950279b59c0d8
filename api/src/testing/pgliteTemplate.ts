import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateLatest, openDb, pgliteDirIn } from '../db';

/**
 * A migrated embedded database made once per test run (vitest `globalSetup`), which `startTestApi` copies instead of
 * creating and migrating a PGlite folder per test file: a new folder costs PGlite's initdb and every migration, several
 * seconds a file, where a copy of a migrated one opens in under one.
 */
export const TEMPLATE_ENV = 'TOPLINE_PGLITE_TEMPLATE';

/** Makes the migrated template in the folder the project's env names, and removes it after the run. */
export default async function setup(project: { config: { env?: Record<string, unknown> } }): Promise<() => void> {
  const target = project.config.env?.[TEMPLATE_ENV];
  if (typeof target !== 'string' || !target) return () => {};
  const work = mkdtempSync(join(tmpdir(), 'topline-template-'));
  const db = openDb({ pgliteDir: pgliteDirIn(work) });
  await migrateLatest(db);
  await db.destroy();
  rmSync(target, { recursive: true, force: true });
  cpSync(pgliteDirIn(work), target, { recursive: true });
  rmSync(work, { recursive: true, force: true });
  return () => rmSync(target, { recursive: true, force: true });
}

/**
 * Fills `pgliteDir` with a copy of the run's migrated template, when there is one; the caller still runs
 * `migrateLatest`, which then finds nothing to do unless a migration was added since the template was made.
 */
export function copyPgliteTemplate(pgliteDir: string): void {
  const template = process.env[TEMPLATE_ENV];
  if (!template || !existsSync(join(template, 'PG_VERSION')) || existsSync(pgliteDir)) return;
  cpSync(template, pgliteDir, { recursive: true });
}
