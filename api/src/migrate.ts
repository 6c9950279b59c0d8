/**
 * `npm run migrate`: brings the database of DATABASE_URL (or the embedded one in DATA_DIR) up to date and exits, for a
 * deployment that migrates once before it starts its processes with MIGRATE_AT_START=false.
 */
import { ConfigError, loadConfig } from './config';
import { migrateLatest, openDbWhenFree, pgliteDirIn } from './db';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDbWhenFree({ databaseUrl: config.DATABASE_URL, pgliteDir: pgliteDirIn(config.DATA_DIR) });
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy();
  }
  console.log(
    `migrated ${config.DATABASE_URL ? 'the PostgreSQL database' : `the embedded database in ${config.DATA_DIR}`}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
