import { join } from 'node:path';
import type { Knex } from 'knex';
import type { Config } from './config';
import { migrateLatest, openDbWhenFree, pgliteDirIn } from './db';
import { consoleLogger, jsonLogger, type Logger } from './logger';
import { type Mailer, outboxMailer, smtpMailer } from './services/accounts/mail';

/** The logger a configuration asks for: JSON lines for a service, plain text for a terminal. */
export function loggerFor(config: Config): Logger {
  const json = config.LOG_FORMAT ? config.LOG_FORMAT === 'json' : config.NODE_ENV === 'production';
  return json ? jsonLogger(config.LOG_LEVEL) : consoleLogger(config.LOG_LEVEL);
}

/** The database driver's warnings as the logger's lines, so that a service's log stays one JSON object a line. */
function databaseLog(logger: Logger): Knex.Config['log'] {
  const text = (message: unknown) => (typeof message === 'string' ? message : JSON.stringify(message));
  return {
    warn: (message: unknown) => logger.error(`database: ${text(message)}`),
    error: (message: unknown) => logger.error(`database: ${text(message)}`),
    deprecate: (method: string, alternative: string) =>
      logger.info(`database: ${method} is deprecated (${alternative})`),
    debug: (message: unknown) => logger.info(`database: ${text(message)}`),
  };
}

/**
 * The database, mailer and logger for a configuration, with the schema brought up to date unless MIGRATE_AT_START
 * leaves that to `npm run migrate`.
 */
export async function openRuntime(config: Config, logger: Logger = loggerFor(config)) {
  const db = await openDbWhenFree({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: pgliteDirIn(config.DATA_DIR),
    log: databaseLog(logger),
  });
  if (config.MIGRATE_AT_START) await migrateLatest(db);
  const mailer: Mailer = config.SMTP_URL
    ? smtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : outboxMailer(join(config.DATA_DIR, 'outbox'), logger);
  return { db, mailer, logger };
}
