/**
 * The server the API benchmarks measure: a fresh database (embedded PGlite, or PostgreSQL at `databaseUrl` in a schema
 * of its own, dropped afterwards) migrated and seeded with the demo account and its plans, the app listening on a
 * free port as `npm start` runs it (the access cache told of the database's changes), and the demo user signed in.
 * Not a benchmark itself: `bench/run.ts` runs only the files of `bench/`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import type { Db } from '../../api/src/db';
import { listenForChanges, migrateLatest, openDb, pgliteDirIn } from '../../api/src/db';
import { seedIfEmpty } from '../../api/src/seed';
import { listen } from '../../api/src/server';
import { AccessCache } from '../../api/src/services/access/accessCache';
import { importPlanFile } from '../../api/src/services/plans/planFile';
import { WorkbookCache } from '../../api/src/services/workbooks/workbooks';

export interface DemoServer {
  db: Db;
  /** `http://127.0.0.1:<port>/api/v1` */
  base: string;
  /** The demo user's bearer token. */
  token: string;
  /** The demo account's plans, the first being the one the screens open. */
  planIds: number[];
  /** Errors the server logged. */
  serverErrors: string[];
  /** The server's DATA_DIR (its APP_SECRET, which signs the token) and PostgreSQL schema, for a second API process. */
  dataDir: string;
  schema: string | undefined;
  /** Stops the server and removes its database. */
  close(): Promise<void>;
}

export interface DemoServerOptions {
  /** PostgreSQL to run on; embedded PGlite without one. */
  databaseUrl?: string | undefined;
  /** Names the temporary folder and schema. */
  name: string;
  workbooks?: WorkbookCache;
  /** A built web app to serve beside the API, as `npm run serve` does (`web/dist`). */
  webDist?: string;
}

export async function startDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `topline-bench-${options.name}-`));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const { databaseUrl } = options;
  const schema = databaseUrl ? `bench_${options.name}_${process.pid}` : undefined;
  const db = openDb({ databaseUrl, pgliteDir: pgliteDirIn(dataDir), ...(schema ? { schema } : {}) });
  const removeDatabase = async () => {
    if (schema) await db.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await migrateLatest(db, schema);
    const seed = await seedIfEmpty(db, join(import.meta.dirname, '..', '..', 'fixtures'), importPlanFile, new Date());
    const serverErrors: string[] = [];
    const logger = {
      info: () => {},
      error: (m: string, e?: unknown) => serverErrors.push(`${m}: ${e instanceof Error ? e.message : String(e)}`),
    };
    const accessCache = new AccessCache();
    const workbooks = options.workbooks ?? new WorkbookCache();
    const unlisten = await listenForChanges(db, accessCache);
    const app = createApp({
      db,
      config,
      logger,
      accessCache,
      workbooks,
      mailer: { send: async () => {} },
      ...(options.webDist ? { webDist: options.webDist } : {}),
    });
    const server = await listen(app.callback(), 0, '127.0.0.1');
    const address = server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
    const signin = await fetch(`${base}/users/email-signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: seed.demo.email, password: seed.demo.password }),
    });
    const token = ((await signin.json()) as { app_token: string }).app_token;
    return {
      db,
      base,
      token,
      planIds: seed.planIds,
      serverErrors,
      dataDir,
      schema,
      close: async () => {
        server.closeAllConnections();
        server.close();
        await unlisten();
        await removeDatabase();
      },
    };
  } catch (error) {
    await removeDatabase();
    throw error;
  }
}
