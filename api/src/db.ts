import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { migrations } from '../../migrations/index';

export type Db = Knex;

export interface DbOptions {
  /** PostgreSQL connection string; when unset an embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database (DATA_DIR/pglite); `null` keeps it in memory. */
  pgliteDir?: string | null;
  /** PostgreSQL schema to work in (tests give each file its own). */
  schema?: string;
}

/** Opens the database: PostgreSQL through `pg` when a URL is given, else PGlite persisted in a folder. */
export function openDb(options: DbOptions): Db {
  const searchPath = options.schema ? [options.schema] : undefined;
  if (options.databaseUrl) {
    return knexFactory({
      client: 'pg',
      connection: options.databaseUrl,
      pool: { min: 0, max: 10 },
      ...(searchPath ? { searchPath } : {}),
    });
  }
  if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
  const connection: Knex.PgConnectionConfig = options.pgliteDir ? ({ filename: options.pgliteDir } as object) : {};
  return knexFactory({ client: ClientPgLite, dialect: 'postgres', connection, ...(searchPath ? { searchPath } : {}) });
}

/** The embedded database's folder inside DATA_DIR. */
export function pgliteDirIn(dataDir: string): string {
  return join(dataDir, 'pglite');
}

const migrationSource: Knex.MigrationSource<{ name: string; migration: Knex.Migration }> = {
  getMigrations: async () => [...migrations],
  getMigrationName: (entry) => entry.name,
  getMigration: async (entry) => entry.migration,
};

/** Brings the schema up to date; safe to run on every start. */
export async function migrateLatest(db: Db, schema?: string): Promise<void> {
  if (schema) await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
  await db.migrate.latest({ migrationSource, ...(schema ? { schemaName: schema } : {}) });
}
