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

export interface DbOptions {
  /** PostgreSQL connection string; when unset an embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database (DATA_DIR/pglite); `null` keeps it in memory. */
  pgliteDir?: string | null;
  /** PostgreSQL schema to work in (tests give each file its own). */
  schema?: string;
  /** Who opens the embedded database, as its lock file says (`dataLock.ts`); `server` unless told. */
  role?: 'server' | 'admin';
}

/** How each open database is reached, for `listenForChanges`. */
const connections = new WeakMap<Db, ({ databaseUrl: string } | { pglite: PGlite }) & { schema: string }>();
/** The lock of each embedded database opened from a folder. */
const locks = new WeakMap<Db, DataLock>();

/** Whether a change notification (`schema.table`, migration 006) is about this schema's tables. */
const ours = (payload: string | undefined, schema: string) =>
  !payload?.includes('.') || payload.startsWith(`${schema}.`);

/**
 * Tells the listener of one notification of this schema: a plan's new version (migration 011), or a change.
 * `elsewhere`: the notifying session was not one of this process's (another API process, an admin command).
 */
function notify(listener: ChangeListener, payload: string | undefined, schema: string, elsewhere: boolean): void {
  if (!ours(payload, schema)) return;
  const version = /\.plan_version:(\d+):(\d+)$/.exec(payload ?? '');
  if (version) listener.planVersion(Number(version[1]), Number(version[2]), elsewhere);
  else listener.changed();
}

/**
 * The PostgreSQL sessions (backend process ids) of each open database's pool, from their connection to their end: a
 * notification sent by one of them reports a write of this process.
 */
const poolSessions = new WeakMap<Db, Set<number>>();

/** The pool's events `trackSessions` hears (tarn's), with the `pg` client each is about. */
type PoolEvents = {
  on(event: 'createSuccess' | 'destroySuccess', handler: (id: number, client: { processID: number }) => void): void;
};

/** Marks the transactions of `transactionBeginAhead` in the config knex hands to its client. */
const BEGIN_AHEAD = Symbol('topline.beginAhead');

/** What `beginAhead` needs of knex's transaction: its `begin`, which sends BEGIN and resolves once it is answered. */
interface KnexTransaction {
  begin(connection: unknown): Promise<unknown>;
}

/**
 * Lets a PostgreSQL database's transactions send BEGIN without waiting for its answer (`transactionBeginAhead`): on
 * the pipelined connection the transaction's first statement follows it at once, and the two cost one round trip.
 * If BEGIN fails, knex marks the transaction completed and rejects it (its `query`), so nothing is sent after the
 * first statement's answer, which comes after BEGIN's.
 */
function beginAhead(db: Db): void {
  const client = db.client as { transaction(container: unknown, config?: object, outerTx?: unknown): unknown };
  const transaction = client.transaction.bind(client);
  client.transaction = (container, config, outerTx) => {
    const trx = transaction(container, config, outerTx) as KnexTransaction;
    if (config && BEGIN_AHEAD in config && !outerTx) {
      const begin = trx.begin.bind(trx);
      trx.begin = (connection) => {
        // Knex's own query: a failure rejects the transaction and completes it; the promise itself resolves.
        void begin(connection);
        return Promise.resolve();
      };
    }
    return trx;
  };
}

/**
 * `db.transaction(body)` whose BEGIN goes out with the body's first statement, without a round trip of its own (on
 * PostgreSQL; elsewhere a transaction as any other). For a body whose first statement is a read that it awaits before
 * it sends anything else: were BEGIN refused, that read alone would have run outside the transaction.
 */
export function transactionBeginAhead<T>(db: Db, body: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction(body, { [BEGIN_AHEAD]: true } as Knex.TransactionConfig);
}

/** Keeps `poolSessions` of a PostgreSQL database as its pool opens and closes connections. */
function trackSessions(db: Db): void {
  const sessions = new Set<number>();
  poolSessions.set(db, sessions);
  const pool = (db.client as { pool?: PoolEvents }).pool;
  pool?.on('createSuccess', (_id, client) => sessions.add(client.processID));
  pool?.on('destroySuccess', (_id, client) => sessions.delete(client.processID));
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
      // Pipelined: a statement sent while the connection awaits another's answer goes out at once (`runGroup`).
      connection: { connectionString: options.databaseUrl, pipeline: true } as Knex.PgConnectionConfig,
      pool: { min: 0, max: 10 },
      ...(searchPath ? { searchPath } : {}),
    });
    connections.set(db, { databaseUrl: options.databaseUrl, schema: options.schema ?? 'public' });
    trackSessions(db);
    beginAhead(db);
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
    client: ClientPgLite,
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
  /**
   * A committed write that changed nothing of a plan but its version (migrations/011_plan_version_notifications.ts);
   * `elsewhere` when another process made it (PostgreSQL only: PGlite is this process's alone).
   */
  planVersion(planId: number, version: number, elsewhere: boolean): void;
  /** Notifications may have been missed from here on, until `changed` is called again after a reconnect. */
  lost(): void;
}

/**
 * Listens for the database's change notifications, whichever process made the change: `access` hears of them all,
 * `versions` (the workbook cache) of plans' new versions too. PGlite tells its listeners before the committing query
 * resolves; PostgreSQL tells them on a connection of their own, which is reopened (after `lost`) whenever it drops.
 * Answers a function that stops listening.
 */
export async function listenForChanges(
  db: Db,
  access: ChangeListener,
  versions?: Pick<ChangeListener, 'planVersion'>,
): Promise<() => Promise<void>> {
  const listener: ChangeListener = versions
    ? {
        changed: () => access.changed(),
        lost: () => access.lost(),
        planVersion: (planId, version, elsewhere) => {
          access.planVersion(planId, version, elsewhere);
          versions.planVersion(planId, version, elsewhere);
        },
      }
    : access;
  const connection = connections.get(db);
  if (!connection) throw new Error('the database was not opened by openDb');
  if ('pglite' in connection) {
    const unlisten = await connection.pglite.listen(CHANGES_CHANNEL, (payload) =>
      notify(listener, payload, connection.schema, false),
    );
    return async () => {
      if (!connection.pglite.closed) await unlisten();
    };
  }
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
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
      const elsewhere = !poolSessions.get(db)?.has(message.processId);
      notify(listener, message.payload, connection.schema, elsewhere);
    });
    client = next;
    try {
      await next.connect();
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
