import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { ApiError, type ErrorBody, unavailable } from '@topline/contract';
import Koa from 'koa';
import helmet from 'koa-helmet';
import type { Config } from './config';
import { databaseReady } from './db';
import type { AppDeps, Services } from './deps';
import { clientAddress } from './http/clientAddress';
import type { AppState } from './http/context';
import { serveWebBuild } from './http/webBuild';
import { webRuntimeConfig } from './http/webConfig';
import { requestIdFrom, requestIdStore } from './logger';
import { accountRoutes } from './routes/accounts';
import { billingRoutes, webhookRawBody } from './routes/billing';
import { comparisonRoutes } from './routes/comparison';
import { explainCalls } from './routes/explain';
import { historyRoutes } from './routes/history';
import { planRoutes } from './routes/plans';
import { screenRoutes } from './routes/screens';
import { snapshotRoutes } from './routes/snapshots';
import { spreadsheetRoutes } from './routes/spreadsheet';
import { todoRoutes } from './routes/todos';
import { xlsxRoutes } from './routes/xlsx';
import { AccessCache } from './services/access/accessCache';
import { TokenSigner } from './services/accounts/tokens';
import { WorkbookCache } from './services/workbooks/workbooks';

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
  const app = new Koa<AppState>();
  // Koa reads no X-Forwarded-* header itself: the client's address is decided below, from TRUST_PROXY alone.
  app.proxy = false;
  // A client that hangs up mid-answer is not a server failure.
  app.on('error', (error: { code?: string }) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'EPIPE' || error.code === 'ECONNRESET') return;
    deps.logger.error('response failed', error);
  });

  // Each answer names its request (the caller's well-formed X-Request-Id, else a new one), and so does every log line
  // written while answering it.
  app.use((ctx, next) => {
    const requestId = requestIdFrom(ctx.get('X-Request-Id') || undefined);
    ctx.set('X-Request-Id', requestId);
    return requestIdStore.run(requestId, next);
  });

  // The one error middleware: every failure leaves as {title, message}.
  app.use(async (ctx, next) => {
    const started = performance.now();
    // The one client address of this request, which `ctx.ip` answers from here on (limits, logs).
    ctx.request.ip = clientAddress(ctx.req.socket.remoteAddress, ctx.get('X-Forwarded-For'), deps.config.TRUST_PROXY);
    try {
      await next();
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
        deps.logger.error(`${ctx.method} ${ctx.path} from ${ctx.ip} failed`, error);
        ctx.status = 500;
        ctx.body = {
          title: 'Internal Error',
          message: 'unexpected error occurred, contact the operator',
          code: 'internal',
        } satisfies ErrorBody;
      }
    } finally {
      const ms = (performance.now() - started).toFixed(1);
      // The path without its query string, which may carry a token (a sign-in or download link).
      if (ctx.path.startsWith('/api/'))
        deps.logger.info(`${ctx.method} ${ctx.path} ${ctx.status} ${ms}ms`, {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Number(ms),
        });
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
  // Whether this process can serve: its database answers and has every migration it needs.
  api.get('/ready', async (ctx) => {
    if (!(await databaseReady(deps.db))) throw unavailable('the database is unreachable or not migrated');
    ctx.body = { data: { ok: true } };
  });
  accountRoutes(api, services);
  billingRoutes(api, services);
  planRoutes(api, services);
  screenRoutes(api, services);
  todoRoutes(api, services);
  historyRoutes(api, services);
  snapshotRoutes(api, services);
  comparisonRoutes(api, services);
  explainCalls(api, services);
  xlsxRoutes(api, services);
  spreadsheetRoutes(api, services);
  app.use(api.routes());
  app.use(api.allowedMethods());

  // The web app's runtime configuration: public settings only, and a link that is not set is left out.
  const runtimeConfig = webRuntimeConfig(deps.config);
  const runtimeConfigEtag = `"${createHash('sha256').update(runtimeConfig).digest('base64url').slice(0, 27)}"`;
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path !== '/config.js') return next();
    ctx.type = 'application/javascript';
    // Asked for on every page load: the browser keeps it and revalidates it by its ETag.
    ctx.set('Cache-Control', 'no-cache');
    ctx.etag = runtimeConfigEtag;
    // `fresh` compares validators only on a successful answer.
    ctx.status = 200;
    if (ctx.fresh) ctx.status = 304;
    else ctx.body = runtimeConfig;
  });

  const webDist = deps.webDist;
  if (webDist && existsSync(join(webDist, 'index.html'))) app.use(serveWebBuild(webDist));
  return app;
}

/**
 * Security headers on every answer. The Content-Security-Policy allows no inline script: the built web app runs only
 * its own files and /config.js, which is served above as a script file. What it allows beyond 'self', and why:
 * - style-src 'unsafe-inline': Plotly and AG Grid inject <style> elements, and React writes style attributes;
 * - accounts.google.com/gsi: Google Identity Services for "Sign in with Google" (its script, style, frame and calls);
 * - img-src data: blob: https:: AG Grid's styles draw with data URLs, plan icons are shown from blobs (fetched with
 *   the bearer token, which an <img> does not send) as is a chosen icon's preview, blog thumbnails and customer
 *   photos live on other sites; frame-src https:: Home embeds the benchmark charts' pages.
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

function isClientError(error: unknown): error is { status: number; message: string } {
  if (typeof error !== 'object' || error === null) return false;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
