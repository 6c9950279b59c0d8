/**
 * `npm run bench`: runs every benchmark module of this folder (each exports `run(): Promise<void>` and prints its own
 * lines), in name order, in this one process so that the ratios they print compare like with like.
 * `npm run bench -- engine api` runs only the modules whose names contain one of the words.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface BenchModule {
  run?: () => Promise<void>;
}

const only = process.argv.slice(2);
const modules = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.test.ts') && f !== 'run.ts')
  .filter((f) => only.length === 0 || only.some((word) => f.includes(word)))
  .sort();

for (const file of modules) {
  console.log(`\n== ${file}`);
  try {
    const mod = (await import(pathToFileURL(join(import.meta.dirname, file)).href)) as BenchModule;
    if (typeof mod.run !== 'function') {
      console.log(`   skipped: ${file} exports no run()`);
      continue;
    }
    await mod.run();
  } catch (error) {
    // A broken benchmark is reported and the others still run; speed itself never fails the run.
    console.error(`   ${file} failed:`, error);
    process.exitCode = 1;
  }
}
