import { join } from 'node:path';
import type { Config } from './config';
import { migrateLatest, openDbWhenFree, pgliteDirIn } from './db';
import { consoleLogger, type Logger } from './logger';
import { type Mailer, outboxMailer, smtpMailer } from './services/mail';

/** The database, mailer and logger for a configuration, with the schema brought up to date. */
export async function openRuntime(config: Config, logger: Logger = consoleLogger(config.LOG_LEVEL)) {
  const db = await openDbWhenFree({ databaseUrl: config.DATABASE_URL, pgliteDir: pgliteDirIn(config.DATA_DIR) });
  await migrateLatest(db);
  const mailer: Mailer = config.SMTP_URL
    ? smtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : outboxMailer(join(config.DATA_DIR, 'outbox'), logger);
  return { db, mailer, logger };
}
