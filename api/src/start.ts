import { resolve } from 'node:path';
import { serveAdminChannel } from './adminChannel';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DataDirInUse } from './dataLock';
import { listenForChanges } from './db';
import { openRuntime } from './runtime';
import { seedIfEmpty } from './seed';
import { listen } from './server';
import { AccessCache } from './services/access/accessCache';
import { importPlanFile } from './services/plans/planFile';
import { WorkbookCache } from './services/workbooks/workbooks';

/** `npm start`: migrate, seed an empty database, then serve the web build and the API on one port. */
async function main(): Promise<void> {
  const config = loadConfig();
  const { db, mailer, logger } = await openRuntime(config);
  const root = resolve(import.meta.dirname, '..', '..');
  const seed = await seedIfEmpty(db, resolve(root, 'fixtures'), importPlanFile, new Date());
  const accessCache = new AccessCache();
  const workbooks = new WorkbookCache();
  const unlisten = await listenForChanges(db, accessCache);
  const app = createApp({ db, config, mailer, logger, accessCache, workbooks, webDist: resolve(root, 'web', 'dist') });
  const server = await listen(app.callback(), config.PORT);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  console.log(`Topline is running at http://localhost:${port}`);
  console.log(
    `Database: ${config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.DATA_DIR}`}`,
  );
  if (seed.seeded) console.log(`Seeded the demo account and ${seed.planIds.length} demo plan(s).`);
  console.log(`Demo sign-in: ${seed.demo.email} / ${seed.demo.password}`);
  // The embedded database is this process's: `npm run admin` sends its commands here (api/README.md).
  const closeAdmin = config.DATABASE_URL ? async () => {} : await serveAdminChannel(db, config.DATA_DIR, logger);

  let stopping = false;
  const stop = () => {
    // A second signal (Ctrl+C reaches npm, tsx and this process) must not cut the database's close short.
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), 10_000).unref();
    server.close();
    server.closeIdleConnections();
    void closeAdmin()
      .then(unlisten)
      .then(() => db.destroy())
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
}

main().catch((error: unknown) => {
  if (error instanceof DataDirInUse)
    console.error(
      `${error.message} Stop it first (Ctrl+C in its terminal), or give this one another DATA_DIR; while it runs, \`npm run admin\` works through it.`,
    );
  else console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
