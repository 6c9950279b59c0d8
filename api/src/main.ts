/**
 * `npm run serve`: the API and the web build as a service, built to plain JavaScript (`npm run build`). It migrates
 * the database at start unless MIGRATE_AT_START=false, seeds nothing, logs JSON lines, answers `/api/v1/ready` for a
 * load balancer, and on SIGTERM drains (`drain` in `server.ts`) before it exits 0.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { serveAdminChannel } from './adminChannel';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DataDirInUse } from './dataLock';
import { listenForChanges } from './db';
import { openRuntime } from './runtime';
import { drain, listen } from './server';
import { AccessCache } from './services/access/accessCache';
import { writesSettled } from './services/plans/planWrites';
import { WorkbookCache } from './services/workbooks/workbooks';

/** The checkout or install this file runs from: the nearest folder above it that holds `web/`. */
function rootFolder(): string {
  let folder = import.meta.dirname;
  while (!existsSync(resolve(folder, 'web', 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) return process.cwd();
    folder = parent;
  }
  return folder;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const { db, mailer, logger } = await openRuntime(config);
  const accessCache = new AccessCache();
  const workbooks = new WorkbookCache();
  const unlisten = await listenForChanges(db, accessCache);
  const webDist = config.WEB_DIST ? resolve(config.WEB_DIST) : resolve(rootFolder(), 'web', 'dist');
  const app = createApp({ db, config, mailer, logger, accessCache, workbooks, webDist });
  const server = await listen(app.callback(), config.PORT);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info(`listening on port ${port}`, {
    port,
    database: config.DATABASE_URL ? 'postgresql' : 'pglite',
    web: existsSync(resolve(webDist, 'index.html')),
  });
  const closeAdmin = config.DATABASE_URL ? async () => {} : await serveAdminChannel(db, config.DATA_DIR, logger);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: draining`, { signal, timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
    void drain(server, config.SHUTDOWN_TIMEOUT_MS, () => writesSettled(db))
      .then(async (finished) => {
        if (!finished) logger.error(`answers still in progress after ${config.SHUTDOWN_TIMEOUT_MS} ms were cut`);
        await closeAdmin();
        await unlisten();
        await db.destroy();
        logger.info('stopped');
        process.exit(finished ? 0 : 1);
      })
      .catch((error: unknown) => {
        logger.error('stopping failed', error);
        process.exit(1);
      });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUse) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
