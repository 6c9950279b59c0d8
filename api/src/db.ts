import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';
import { CHANGES_CHANNEL } from '../../migrations/002_change_notifications';
import { migrations } from '../../migrations/index';
import { DataDirInUse, type DataLock, lockDataDir } from './dataLock';

export type Db = Knex;

/**
 * knex-pglite names a statement's command after knex's method (`DEL` for a delete, `COUNTER` for an increment), where
 * knex's PostgreSQL client looks for `DELETE` and `UPDATE` to answer with the row count: on PGlite such a statement
 * answered the raw result, so a check such as "nothing was deleted" never held. The methods are named as the commands
 * PostgreSQL names.
 */
const COMMAND_OF: Record<string, string> = { del: 'delete', counter: 'update' };
type QueryObject = { method?: string };
const PgLiteBase = ClientPgLite as unknown as new (
  config: Knex.Config,
) => Knex.Client & { processResponse(obj: QueryObject, runner: unknown): unknown };
class PgLiteClient extends PgLiteBase {
  override processResponse(obj: QueryObject, runner: unknown): unknown {
    const method = obj.method === undefined ? undefined : COMMAND_OF[obj.method];
    return super.processResponse(method ? { ...obj, method } : obj, runner);
  }
}

export interface DbOptions {
  /** PostgreSQL connection string; when unset an embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database (DATA_DIR/pglite); `null` keeps it in memory. */
  pgliteDir?: string | null;
  /** PostgreSQL schema to work in (tests give each file its own). */
  schema?: string;
  /** Who opens the embedded database, as its lock file says (`dataLock.ts`); `server` unless told. */
  role?: 'server' | 'admin';
  /** Where the driver's own warnings go (a pooled connection lost, say); unset is knex's console output. */
  log?: Knex.Config['log'];
}

/** How each open database is reached, for `listenForChanges`. */
const connections = new WeakMap<Db, ({ databaseUrl: string } | { pglite: PGlite }) & { schema: string }>();
/** The lock of each embedded database opened from a folder. */
const locks = new WeakMap<Db, DataLock>();

/** Whether a change notification (`schema.table`, migration 006) is about this schema's tables. */
const ours = (payload: string | undefined, schema: string) =>
  !payload?.includes('.') || payload.startsWith(`${schema}.`);

/** Tells the listener of one notification of this schema: a plan's new version (migration 011), or a change. */
function notify(listener: ChangeListener, payload: string | undefined, schema: string): void {
  if (!ours(payload, schema)) return;
  const version = /\.plan_version:(\d+):(\d+)$/.exec(payload ?? '');
  if (version) listener.planVersion(Number(version[1]), Number(version[2]));
  else listener.changed();
}

/**
 * Opens the database: PostgreSQL through `pg` when a URL is given, else PGlite persisted in a folder, whose lock
 * (`dataLock.ts`) this process then holds until `destroy`.
 * @throws DataDirInUse when another live process has the embedded database open
 */
export function openDb(options: DbOptions): Db {
  const searchPath = options.schema ? [options.schema] : undefined;
  if (options.databaseUrl) {
    const db = knexFactory({
      client: 'pg',
      connection: { connectionString: options.databaseUrl },
      pool: { min: 0, max: 10 },
      ...(searchPath ? { searchPath } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    connections.set(db, { databaseUrl: options.databaseUrl, schema: options.schema ?? '' });
    return db;
  }
  let lock: DataLock | undefined;
  if (options.pgliteDir) {
    mkdirSync(options.pgliteDir, { recursive: true });
    lock = lockDataDir(options.pgliteDir, options.role ?? 'server');
  }
  let pglite: PGlite;
  try {
    pglite = new PGlite(options.pgliteDir ?? undefined);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const connection = { pglite } as Knex.PgConnectionConfig;
  const db = knexFactory({
    client: PgLiteClient as unknown as typeof Knex.Client,
    dialect: 'postgres',
    connection,
    ...(searchPath ? { searchPath } : {}),
  });
  connections.set(db, { pglite, schema: options.schema ?? 'public' });
  if (lock) {
    const held = lock;
    locks.set(db, held);
    const client = db.client as { destroy(callback?: (error?: unknown) => void): Promise<void> };
    const destroy = client.destroy.bind(client);
    // The lock goes once the database is closed (PGlite writes its last pages on close).
    client.destroy = async (callback) => {
      try {
        await destroy();
      } finally {
        // Knex closes PGlite only if it ever queried it; a database opened and never used is closed here.
        if (pglite.closed) held.release();
        else
          await pglite.waitReady
            .then(() => (pglite.closed ? undefined : pglite.close()))
            .catch(() => {})
            .finally(() => held.release());
      }
      callback?.();
    };
  }
  return db;
}

/**
 * `openDb` for a long-running process: while a short admin command holds the embedded database, waits for it (at
 * most `waitMs`) instead of refusing.
 * @throws DataDirInUse when a server holds it, or an admin command still does after `waitMs`
 */
export async function openDbWhenFree(options: DbOptions, waitMs = 15_000): Promise<Db> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return openDb(options);
    } catch (error) {
      if (!(error instanceof DataDirInUse) || error.owner.role !== 'admin' || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The lock of an embedded database opened from a folder; undefined for PostgreSQL or an in-memory PGlite. */
export const dataLockOf = (db: Db): DataLock | undefined => locks.get(db);

export interface ChangeListener {
  /** A committed change to a table that decides plan access (migrations/002_change_notifications.ts). */
  changed(): void;
  /** A committed write that changed nothing of a plan but its version (migrations/011_plan_version_notifications.ts). */
  planVersion(planId: number, version: number): void;
  /** Notifications may have been missed from here on, until `changed` is called again after a reconnect. */
  lost(): void;
}

/**
 * Listens for the database's change notifications, whichever process made the change. PGlite tells its listener
 * before the committing query resolves; PostgreSQL tells it on a connection of its own, which is reopened (after
 * `lost`) whenever it drops. Answers a function that stops listening.
 */
export async function listenForChanges(db: Db, listener: ChangeListener): Promise<() => Promise<void>> {
  const connection = connections.get(db);
  if (!connection) throw new Error('the database was not opened by openDb');
  if ('pglite' in connection) {
    const unlisten = await connection.pglite.listen(CHANGES_CHANNEL, (payload) =>
      notify(listener, payload, connection.schema),
    );
    // Listening from now on, as on PostgreSQL once its connection listens: whatever changed before is unknown.
    listener.changed();
    return async () => {
      if (!connection.pglite.closed) await unlisten();
    };
  }
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  // The schema whose tables this process uses: the one it was opened on, else the one its URL's search_path names.
  let schema = connection.schema || 'public';
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: connection.databaseUrl });
    const drop = () => {
      if (client !== next) return;
      client = undefined;
      listener.lost();
      next.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    };
    next.on('error', drop);
    next.on('end', drop);
    next.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL) return;
      notify(listener, message.payload, schema);
    });
    client = next;
    try {
      await next.connect();
      if (!connection.schema) {
        const { rows } = await next.query<{ schema: string | null }>('SELECT current_schema() AS schema');
        schema = rows[0]?.schema ?? 'public';
      }
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      drop();
      throw error;
    }
    // Whatever changed while nobody listened is unknown: start afresh.
    listener.changed();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const open = client;
    client = undefined;
    await open?.end().catch(() => {});
  };
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

/**
 * Whether the database answers within `timeoutMs` and every migration this build knows has run in it: what a load
 * balancer asks before it sends a process requests (`GET /api/v1/ready`).
 */
export async function databaseReady(db: Db, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  // The migrations table unqualified: a schema of its own (tests) is on the connection's search path.
  const check = db('knex_migrations')
    .select('name')
    .then((rows: { name: string }[]) => {
      const done = new Set(rows.map((row) => row.name));
      return migrations.every((entry) => done.has(entry.name));
    })
    .catch(() => false);
  try {
    return await Promise.race([check, late]);
  } finally {
    clearTimeout(timer);
  }
}
