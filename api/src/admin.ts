import { sendAdminCommand } from './adminChannel';
import { ADMIN_USAGE, type AdminResult, parseAdmin, runAdmin } from './adminCommands';
import { ConfigError, loadConfig } from './config';
import { DataDirInUse } from './dataLock';
import { migrateLatest, openDb, pgliteDirIn } from './db';

/**
 * `npm run admin`: operator tasks on the configured database. On PostgreSQL it works on the database beside any
 * running server. On the embedded database it opens the database itself when no process has it open; while `npm
 * start` runs, it hands the command to that server (`adminChannel.ts`); while anything else has it open (another admin
 * command, a server still starting), it refuses at once and says what to do.
 */
async function main(args: string[]): Promise<number> {
  const command = parseAdmin(args);
  if (!command) {
    console.error(ADMIN_USAGE);
    return 2;
  }
  const config = loadConfig();
  // Tests give each file a PostgreSQL schema of its own, as `testing/serve.ts` does.
  const schema = (config.DATABASE_URL && process.env.DATABASE_SCHEMA) || undefined;
  let result: AdminResult;
  try {
    const db = openDb({
      databaseUrl: config.DATABASE_URL,
      pgliteDir: pgliteDirIn(config.DATA_DIR),
      role: 'admin',
      ...(schema ? { schema } : {}),
    });
    try {
      await migrateLatest(db, schema);
      result = await runAdmin(db, command, new Date());
    } finally {
      await db.destroy();
    }
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw error;
    result = await throughServer(error, args);
  }
  if (result.out) console.log(result.out);
  if (result.err) console.error(result.err);
  return result.code;
}

/** The command run by the server that holds the embedded database, or a refusal saying what to do. */
async function throughServer(inUse: DataDirInUse, args: string[]): Promise<AdminResult> {
  const { owner } = inUse;
  if (owner.role === 'server' && owner.socket) {
    try {
      const result = await sendAdminCommand(owner.socket, args);
      return { ...result, out: result.out && `${result.out} (through the running server, process ${owner.pid})` };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        code: 1,
        out: '',
        err: `${inUse.message} Its admin channel did not answer (${why}); nothing was changed. Stop that server (Ctrl+C in its terminal, or kill ${owner.pid}) and run the command again.`,
      };
    }
  }
  const what =
    owner.role === 'admin'
      ? 'Wait until that command has finished, then run this one again.'
      : 'It is still starting: run the command again once it prints its address, or stop it (Ctrl+C) first.';
  return { code: 1, out: '', err: `${inUse.message} Nothing was changed. ${what}` };
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
