/**
 * The API as a process of its own, for tests that kill it or run two: `tsx api/src/testing/serve.ts`. It serves the
 * database of DATABASE_URL in the schema DATABASE_SCHEMA, or else the embedded one in DATA_DIR, on 127.0.0.1 at PORT
 * (0: any free port), and prints `listening <url>` once it accepts calls. E-mail goes to DATA_DIR/outbox.
 */
import { join } from 'node:path';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { listenForChanges, migrateLatest, openDb, pgliteDirIn } from '../db';
import { consoleLogger } from '../logger';
import { listen } from '../server';
import { AccessCache } from '../services/access/accessCache';
import { outboxMailer } from '../services/accounts/mail';
import { WorkbookCache } from '../services/workbooks/workbooks';

async function main(): Promise<void> {
  const config = loadConfig({ PORT: '0', ...process.env });
  const schema = process.env.DATABASE_SCHEMA || undefined;
  const db = openDb({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: pgliteDirIn(config.DATA_DIR),
    ...(schema ? { schema } : {}),
  });
  await migrateLatest(db, schema);
  const logger = consoleLogger(config.LOG_LEVEL);
  const accessCache = new AccessCache();
  const workbooks = new WorkbookCache();
  const unlisten = await listenForChanges(db, accessCache);
  const mailer = outboxMailer(join(config.DATA_DIR, 'outbox'), logger);
  const app = createApp({ db, config, mailer, logger, accessCache, workbooks });
  const server = await listen(app.callback(), config.PORT, '127.0.0.1');
  const address = server.address();
  console.log(`listening http://127.0.0.1:${typeof address === 'object' && address ? address.port : config.PORT}`);
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close();
    void unlisten()
      .then(() => db.destroy())
      .finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
