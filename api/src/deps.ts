/**
 * What the app is built from (`createApp(deps)`) and what it hands every route and middleware (`Services`). Kept
 * apart from `app.ts`, which imports every route, so that a route can name its services without importing the app.
 */
import type { Config } from './config';
import type { Db } from './db';
import type { Logger } from './logger';
import type { AccessCache } from './services/access/accessCache';
import type { Mailer } from './services/accounts/mail';
import type { TokenSigner } from './services/accounts/tokens';
import type { WorkbookCache } from './services/workbooks/workbooks';

export interface AppDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  logger: Logger;
  /** The clock; tests move it to check expiry. */
  now?: () => Date;
  /** Folder of the web build to serve next to the API, if it exists. */
  webDist?: string;
  /** The workbook cache; one is made when not given. */
  workbooks?: WorkbookCache;
  /**
   * The access cache. It keeps nothing until it is told of the database's changes (`listenForChanges`), so an app
   * made without a listening one reads access from the database on every call.
   */
  accessCache?: AccessCache;
}

/** Everything a route needs, built once per app. */
export interface Services extends Required<Omit<AppDeps, 'webDist' | 'workbooks' | 'accessCache'>> {
  tokens: TokenSigner;
  workbooks: WorkbookCache;
  accessCache: AccessCache;
}
