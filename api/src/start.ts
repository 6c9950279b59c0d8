import { resolve } from 'node:path';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { listenForChanges } from './db';
import { openRuntime } from './runtime';
import { seedIfEmpty } from './seed';
import { listen } from './server';
import { AccessCache } from './services/accessCache';
import { importPlanFile } from './services/planFile';

/** `npm start`: migrate, seed an empty database, then serve the web build and the API on one port. */
async function main(): Promise<void> {
  const config = loadConfig();
  const { db, mailer, logger } = await openRuntime(config);
  const root = resolve(import.meta.dirname, '..', '..');
  const seed = await seedIfEmpty(db, resolve(root, 'fixtures'), importPlanFile, new Date());
  const accessCache = new AccessCache();
  const unlisten = await listenForChanges(db, accessCache);
  const app = createApp({ db, config, mailer, logger, accessCache, webDist: resolve(root, 'web', 'dist') });
  const server = await listen(app.callback(), config.PORT);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  console.log(`Topline is running at http://localhost:${port}`);
  console.log(
    `Database: ${config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.DATA_DIR}`}`,
  );
  if (seed.seeded) console.log(`Seeded the demo account and ${seed.planIds.length} demo plan(s).`);
  console.log(`Demo sign-in: ${seed.demo.email} / ${seed.demo.password}`);

  const stop = () => {
    server.close();
    void unlisten()
      .then(() => db.destroy())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
