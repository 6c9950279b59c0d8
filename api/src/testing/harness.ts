import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AREAS, errorBodySchema, type Level, routes, type Tier } from '@topline/contract';
import type { z } from 'zod';
import { createApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type Db, listenForChanges, migrateLatest, openDb, pgliteDirIn } from '../db';
import type { AppDeps } from '../deps';
import type { Logger } from '../logger';
import { listen } from '../server';
import { AccessCache } from '../services/access/accessCache';
import type { Mailer, MailMessage } from '../services/accounts/mail';
import { hashPassword } from '../services/accounts/passwords';
import { TokenSigner } from '../services/accounts/tokens';
import { setTier, type UserRow } from '../services/accounts/users';
import { WorkbookCache } from '../services/workbooks/workbooks';
import { copyPgliteTemplate } from './pgliteTemplate';

/**
 * A real API over real HTTP for tests: PGlite by default, PostgreSQL in a schema of its own when
 * TEST_DATABASE_URL is set, so test files can run in parallel.
 */
export interface TestApi {
  db: Db;
  workbooks: WorkbookCache;
  accessCache: AccessCache;
  config: Config;
  url: string;
  mail: MailMessage[];
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** A user made straight in the database, with a bearer token. */
  user(email: string, tier?: Tier, trialDays?: number | null): Promise<{ user: UserRow; token: string }>;
  /** Stops the server and closes the database but keeps the data, for restart tests. */
  stop(): Promise<void>;
  /** Stops and removes everything the API created. */
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string | number>;
  form?: FormData;
  /** Further request headers, such as `Plan-Version`. */
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field and assert every value they use
  body: any;
  headers: Headers;
  text: string;
}

export interface TestApiOptions {
  /** Reuse the storage of an earlier TestApi (a restart). */
  reuse?: { dataDir: string; schema: string | undefined };
  env?: Record<string, string>;
  now?: () => Date;
  mailer?: Mailer;
}

const silent: Logger = { info: () => {}, error: () => {} };
let passwordHash: Promise<string> | undefined;
/** Every user made by `user()` has this password. */
export const TEST_PASSWORD = 'correct-horse-9';

export async function startTestApi(
  options: TestApiOptions = {},
): Promise<TestApi & { dataDir: string; schema: string | undefined }> {
  const databaseUrl = process.env.TEST_DATABASE_URL || undefined;
  const dataDir = options.reuse?.dataDir ?? mkdtempSync(join(tmpdir(), 'topline-api-'));
  const schema = options.reuse?.schema ?? (databaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined);
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const pgliteDir = databaseUrl ? null : pgliteDirIn(dataDir);
  if (pgliteDir && !options.reuse) copyPgliteTemplate(pgliteDir);
  const db = openDb({
    databaseUrl,
    pgliteDir,
    ...(schema ? { schema } : {}),
  });
  await migrateLatest(db, schema);
  const mail: MailMessage[] = [];
  const mailer: Mailer = options.mailer ?? {
    send: async (message) => {
      mail.push(message);
    },
  };
  const workbooks = new WorkbookCache();
  const accessCache = new AccessCache();
  const unlisten = await listenForChanges(db, accessCache);
  const deps: AppDeps = {
    db,
    config,
    mailer,
    logger: silent,
    workbooks,
    accessCache,
    ...(options.now ? { now: options.now } : {}),
  };
  const app = createApp(deps);
  const server: Server = await listen(app.callback(), 0, '127.0.0.1');
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const signer = new TokenSigner(config.APP_SECRET, config.TOKEN_TTL_HOURS);

  const stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await unlisten();
    await db.destroy();
  };

  return {
    db,
    workbooks,
    accessCache,
    config,
    url,
    mail,
    dataDir,
    schema,
    async call(method, path, opts = {}) {
      const target = new URL(`/api/v1${path}`, url);
      for (const [k, v] of Object.entries(opts.query ?? {})) target.searchParams.set(k, String(v));
      const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', ...opts.headers };
      if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
      let body: string | FormData | undefined;
      if (opts.form) body = opts.form;
      else if (opts.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(opts.body);
      }
      const response = await fetch(target, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      let parsed: unknown = null;
      if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
      checkAnswer(method, path, response.status, parsed);
      return { status: response.status, body: parsed, headers: response.headers, text };
    },
    async user(email, tier = 'free', trialDays = null) {
      passwordHash ??= hashPassword(TEST_PASSWORD);
      const [user] = await db<UserRow>('users')
        .insert({ email, password_hash: await passwordHash, auth_provider: 'email', name: email.split('@')[0] ?? '' })
        .returning('*');
      if (!user) throw new Error('no user');
      await setTier(db, user.id, tier, trialDays, new Date());
      await db('plan_members').where({ email }).update({ status: 'received', user_id: user.id });
      return { user, token: await signer.issue(user) };
    },
    stop,
    async close() {
      await stop();
      if (schema && databaseUrl) {
        const admin = openDb({ databaseUrl });
        await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
        await admin.destroy();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A plan made through `/business-plan/create` with the wizard's form (`planForm`), and the id of its base case.
 * @throws when the API refuses it
 */
export async function createPlan(
  api: TestApi,
  token: string,
  overrides: Record<string, string> = {},
): Promise<{ planId: number; caseId: number }> {
  const created = await api.call('POST', '/business-plan/create', { token, form: planForm(overrides) });
  if (created.status !== 201) throw new Error(`plan not created: ${created.status} ${created.text}`);
  const planId = Number(created.body.data.business_plan_id);
  const base = await api.db('cases').where({ plan_id: planId }).orderBy('position').first('id');
  return { planId, caseId: Number(base.id) };
}

/** A cost item as `/cost/create` takes it: search ads at 300,000 a month from April 2026 to March 2027. */
export const costItem = (fields: Record<string, string | number> = {}) => ({
  item_title: 'sm_advertising',
  item_name: 'Search ads',
  price: 300_000,
  start_year: 2026,
  start_month: 4,
  end_year: 2027,
  end_month: 3,
  ...fields,
});

/** The wizard's creation payload with sensible defaults, as multipart form data. */
export function planForm(
  overrides: Record<string, string> = {},
  icon?: { bytes: Uint8Array<ArrayBuffer>; name: string },
): FormData {
  const form = new FormData();
  const fields: Record<string, string> = {
    name: 'Hana Sato',
    company_name: 'Acme SaaS',
    position: 'CEO',
    employees: '1-10',
    stage: 'angel/seed',
    business_plan_name: 'Acme plan',
    template: 'saas',
    currency: 'JPY',
    arr: '100000000',
    period: '12',
    arpa: '50000',
    start_year: '2026',
    start_month: '4',
    ...overrides,
  };
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (icon) form.set('business_plan_icon', new Blob([icon.bytes]), icon.name);
  return form;
}

/**
 * Every answer a test reads is parsed with the contract: a success with its route's answer schema, a refusal with the
 * error body, so an answer that drifts from the contract fails the test that reads it.
 * @throws Error naming the call and the first mismatch
 */
export function checkAnswer(method: string, path: string, status: number, body: unknown): void {
  const route = Object.values(routes).find((r) => r.method === method && r.path === path);
  if (!route || body === null) return;
  const schema: z.ZodType = status >= 400 ? errorBodySchema : route.answer;
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(
      `${method} ${path} ${status} answered outside the contract: ${issue?.path.join('.')} ${issue?.message}`,
    );
  }
}

/** A member's roles for `/authority/add` and `/authority/edit`: `level` on every area, but the areas overridden. */
export const rolesAt = (level: Level, overrides: Record<string, Level> = {}): Record<string, Level> => ({
  ...Object.fromEntries(AREAS.map((area) => [area, level])),
  ...overrides,
});
