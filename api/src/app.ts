import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { ApiError, type ErrorBody } from '@topline/contract';
import Koa from 'koa';
import helmet from 'koa-helmet';
import serve from 'koa-static';
import type { Config } from './config';
import type { Db } from './db';
import type { AppState } from './http/context';
import type { Logger } from './logger';
import { accountRoutes } from './routes/accounts';
import { billingRoutes, webhookRawBody } from './routes/billing';
import { explainCalls } from './routes/explain';
import { historyRoutes } from './routes/history';
import { planRoutes } from './routes/plans';
import { screenRoutes } from './routes/screens';
import { spreadsheetRoutes } from './routes/spreadsheet';
import { todoRoutes } from './routes/todos';
import { xlsxRoutes } from './routes/xlsx';
import { AccessCache } from './services/accessCache';
import { accessWrites, writesAccess } from './services/accessWrites';
import type { Mailer } from './services/mail';
import { TokenSigner } from './services/tokens';
import { WorkbookCache } from './services/workbooks';

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

/** Builds the Koa app; `server.ts` only listens, tests drive `app.callback()`. */
export function createApp(deps: AppDeps): Koa<AppState> {
  const services: Services = {
    db: deps.db,
    config: deps.config,
    mailer: deps.mailer,
    logger: deps.logger,
    now: deps.now ?? (() => new Date()),
    tokens: new TokenSigner(deps.config.APP_SECRET, deps.config.TOKEN_TTL_HOURS),
    workbooks: deps.workbooks ?? new WorkbookCache(),
    accessCache: deps.accessCache ?? new AccessCache(),
  };
  // A write through this process to what access decisions are made of drops what the access cache keeps at once,
  // without waiting for the database's notification; writes in a transaction are covered again when the request that
  // made them ends (below).
  deps.db.on(
    'query-response',
    (_response: unknown, query: { method?: string; sql?: string }, builder?: { queryContext?: () => unknown }) => {
      if (!writesAccess(query, builder)) return;
      services.accessCache.invalidate();
      const request = accessWrites.getStore();
      if (request) request.wrote = true;
    },
  );
  const app = new Koa<AppState>();
  app.proxy = true;
  // Only the address the nearest proxy saw: a client cannot forge its way past per-client limits with X-Forwarded-For.
  app.maxIpsCount = 1;
  // A client that hangs up mid-answer is not a server failure.
  app.on('error', (error: { code?: string }) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'EPIPE' || error.code === 'ECONNRESET') return;
    deps.logger.error('response failed', error);
  });

  // The one error middleware, first in the chain: every failure leaves as {title, message}.
  app.use(async (ctx, next) => {
    const started = performance.now();
    const writes = { wrote: false };
    try {
      await accessWrites.run(writes, next);
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api/')) {
        ctx.status = 404;
        ctx.body = { title: 'Not Found', message: 'no such call', code: 'not_found' } satisfies ErrorBody;
      }
    } catch (error) {
      if (error instanceof ApiError) {
        ctx.status = error.status;
        ctx.body = error.body;
      } else if (isClientError(error)) {
        ctx.status = error.status;
        ctx.body = {
          title: error.status === 413 ? 'Payload Too Large' : 'Bad Request',
          message: error.message,
          code: 'invalid',
        } satisfies ErrorBody;
      } else {
        deps.logger.error(`${ctx.method} ${ctx.path} failed`, error);
        ctx.status = 500;
        ctx.body = {
          title: 'Internal Error',
          message: 'unexpected error occurred, contact the operator',
          code: 'internal',
        } satisfies ErrorBody;
      }
    } finally {
      // Whatever this request wrote is committed by now: nothing kept from before it may answer the next one.
      if (writes.wrote) services.accessCache.invalidate();
      const ms = (performance.now() - started).toFixed(1);
      if (ctx.path.startsWith('/api/')) deps.logger.info(`${ctx.method} ${ctx.path} ${ctx.status} ${ms}ms`);
    }
  });

  // Before anything that may answer, so that pages, API answers and errors all carry the security headers.
  app.use(securityHeaders(deps.config));
  // Stripe signs the webhook's raw bytes: that one body is kept raw, and the JSON parser leaves it alone.
  app.use(webhookRawBody);
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '2mb' }));

  const api = new Router<AppState>({ prefix: '/api/v1' });
  // For load balancers, and the bare JSON route the benchmark compares against.
  api.get('/health', (ctx) => {
    ctx.body = { data: { ok: true } };
  });
  accountRoutes(api, services);
  billingRoutes(api, services);
  planRoutes(api, services);
  screenRoutes(api, services);
  todoRoutes(api, services);
  historyRoutes(api, services);
  explainCalls(api, services);
  xlsxRoutes(api, services);
  spreadsheetRoutes(api, services);
  app.use(api.routes());
  app.use(api.allowedMethods());

  // The web app's runtime configuration; what is not configured keeps the web's own defaults.
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path !== '/config.js') return next();
    ctx.type = 'application/javascript';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = webRuntimeConfig(deps.config);
  });

  const webDist = deps.webDist;
  if (webDist && existsSync(join(webDist, 'index.html'))) {
    app.use(serve(webDist, { index: 'index.html' }));
    // The web app routes in the browser: unknown non-API paths get its index page.
    app.use(async (ctx, next) => {
      await next();
      if (ctx.status === 404 && ctx.method === 'GET' && !ctx.path.startsWith('/api/')) {
        ctx.type = 'html';
        ctx.body = createReadStream(join(webDist, 'index.html'));
      }
    });
  }
  return app;
}

/**
 * Security headers on every answer. The Content-Security-Policy allows no inline script: the built web app runs only
 * its own files and /config.js, which is served above as a script file. What it allows beyond 'self', and why:
 * - style-src 'unsafe-inline': Plotly and AG Grid inject <style> elements, and React writes style attributes;
 * - accounts.google.com/gsi: Google Identity Services for "Sign in with Google" (its script, style, frame and calls);
 * - img-src data: blob: https:: plan icons are data URLs, a chosen icon is previewed from a blob, blog thumbnails and
 *   customer photos live on other sites; frame-src https:: Home embeds the benchmark charts' pages.
 * Only the app's own pages may frame it (frame-ancestors 'self', X-Frame-Options SAMEORIGIN): Home embeds the
 * benchmark pages it serves (/benchmarks/*.html); no other site can. Popups keep their opener, as Google's token
 * client needs. HSTS and upgrade-insecure-requests only when PUBLIC_URL is https, so that a local run over plain http
 * keeps working. Not allowed: inline script and eval (zod's eval probe is refused, and zod then parses without it).
 */
function securityHeaders(config: Config): Koa.Middleware {
  const https = new URL(config.PUBLIC_URL).protocol === 'https:';
  const gis = 'https://accounts.google.com/gsi/';
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", `${gis}client`],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'", `${gis}style`],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", gis],
        frameSrc: ["'self'", 'https:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'sameorigin' },
  });
}

/** `window.TOPLINE_CONFIG` for the browser: only public values (a client id, a booking link), never a secret. */
export function webRuntimeConfig(config: Config): string {
  const given: Record<string, string> = {};
  if (config.DEMO_BOOKING_URL) given.demoBookingUrl = config.DEMO_BOOKING_URL;
  if (config.GOOGLE_CLIENT_ID) given.googleClientId = config.GOOGLE_CLIENT_ID;
  return `window.TOPLINE_CONFIG = Object.assign(window.TOPLINE_CONFIG || {}, ${JSON.stringify(given)});\n`;
}

function isClientError(error: unknown): error is { status: number; message: string } {
  if (typeof error !== 'object' || error === null) return false;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
