/** Helpers for tests: load a fixture plan and build it as of a fixed month. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PlanWorkbook } from './workbook';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/plans/', import.meta.url));

/** The installed HyperFormula package, whose built files `patches/hyperformula+3.5.0.patch` changes. */
export const HYPERFORMULA_DIR = join(dirname(createRequire(import.meta.url).resolve('hyperformula')), '..');

/** HyperFormula's two published builds, as the patch tests name them: each build's folder and its files' extension. */
export const HYPERFORMULA_BUILDS = {
  'ES module build': { folder: 'es', extension: 'mjs' },
  'CommonJS build': { folder: 'commonjs', extension: 'js' },
} as const;

export type HyperFormulaBuild = (typeof HYPERFORMULA_BUILDS)[keyof typeof HYPERFORMULA_BUILDS];

/**
 * The export `name` of a build's module `path` (`DependencyGraph/TopSort`, no extension), loaded after the build's
 * index: its modules require one another in a cycle.
 */
export async function hyperformulaExport<T>(build: HyperFormulaBuild, path: string, name: string): Promise<T> {
  const file = (module: string) => pathToFileURL(join(HYPERFORMULA_DIR, build.folder, `${module}.${build.extension}`));
  await import(file('index').href);
  const module = (await import(file(path).href)) as Record<string, unknown> & { default?: Record<string, unknown> };
  const value = module[name] ?? module.default?.[name];
  if (!value) throw new Error(`no ${name} in HyperFormula's ${build.folder}/${path}`);
  return value as T;
}

export function loadFixture(name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8'));
}

/** Builds a fixture as of November 2026, so runway and "today" are stable. */
export function buildFixture(name: string): PlanWorkbook {
  return PlanWorkbook.build(loadFixture(name), { asOf: { year: 2026, month: 11 } });
}

/** A small seeded generator of numbers in [0, 1) (mulberry32), so that a failing variant can be run again. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
